/**
 * The policy editor: a draft rule list edited in a form or as JSON (kept in step both ways),
 * started from a template if wanted, compared with the policy in force before it is saved as a
 * new version. A 422 from the compare or the save puts each fault next to its field.
 */
import { useState } from "react";
import { fieldFaults } from "../api/errors";
import type { Env, PolicyComparison, PolicyRules } from "../api/types";
import { useAgentApps } from "../agent-apps/agent-app-queries";
import { useOperatorName } from "../names/name-queries";
import { useMembers } from "../settings/settings-queries";
import { useTenant } from "../tenant/tenant-context";
import { ErrorMessage, Loading, Notice } from "../ui/feedback";
import { Section } from "../ui/page";
import { Tabs } from "../ui/tabs";
import { Time } from "../ui/time";
import { WriteButton } from "../ui/write-button";
import { FieldFaults } from "./field-faults";
import { JsonRulesEditor } from "./json-rules-editor";
import { usePolicyDraft } from "./policy-draft-state";
import { useComparePolicy, usePolicy, useSavePolicy, useTools } from "./policy-queries";
import { documentFaults } from "./rule-draft";
import { RuleList } from "./rule-list";
import { SaveReview } from "./save-review";
import { TemplatePicker } from "./template-picker";

const VIEWS = [
  { id: "form", label: "Form" },
  { id: "json", label: "JSON" },
];

/** Faults name rules by position: they are shown only while the rules are still in the order they were checked in. */
const sameOrder = (a: PolicyRules | undefined, b: PolicyRules) => a !== undefined && a.length === b.length && a.every((rule, i) => rule.id === b[i]!.id);

export function PolicyEditor({ env }: { env: Env }) {
  const { canWrite } = useTenant();
  const policy = usePolicy(env);
  const loaded = policy.data;
  const draft = usePolicyDraft(loaded);
  const compare = useComparePolicy(env);
  const save = useSavePolicy(env);
  const tools = useTools();
  const apps = useAgentApps();
  const members = useMembers();
  const operatorName = useOperatorName();
  const [view, setView] = useState("form");
  const [review, setReview] = useState<PolicyComparison | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const failed = save.error ? save : compare;
  const faults = sameOrder(failed.variables, draft.rules) ? fieldFaults(failed.error) : [];
  const catalogue = { tools: tools.data?.data ?? [], apps: apps.data?.data ?? [], members: members.data?.data ?? [] };
  const appName = (id: string) => catalogue.apps.find((app) => app.id === id)?.name ?? id;

  const edited = () => (setReview(null), setNotice(null));
  const changeRules = (rules: PolicyRules) => (draft.setRules(rules), edited());
  const changeText = (text: string) => (draft.setText(text), edited());
  const startReview = () => {
    save.reset();
    setNotice(null);
    compare.mutate(draft.rules, { onSuccess: setReview });
  };
  const confirm = () => save.mutate(draft.rules, { onSuccess: (document) => (setReview(null), compare.reset(), setNotice(`Saved as version ${document.version}.`)) });
  const discard = () => (loaded ? draft.setRules(loaded.rules) : undefined, setReview(null), compare.reset(), save.reset(), setNotice(null));

  return (
    <Section title={`Rules (${env})`} id="policy-rules-heading">
      {policy.isPending ? <Loading label="Loading the policy…" /> : null}
      <ErrorMessage error={policy.error} prefix="The policy could not be loaded" />
      {loaded ? (
        <div className="card stack">
          <p className="field-hint">
            Version {loaded.version}
            {loaded.updated_at ? (
              <>
                , saved <Time value={loaded.updated_at} /> by {loaded.updated_by ? operatorName(loaded.updated_by) : "unknown"}
              </>
            ) : (
              " (never saved: the risk defaults apply)"
            )}
            . Rules are tried in order and the first match decides; with no match, low-risk tools run and high-risk tools need approval.
          </p>
          <TemplatePicker env={env} onUse={(template) => (changeRules(template.rules), compare.reset(), setNotice(`The template “${template.name}” replaced the draft: review and save to use it.`))} />
          <ErrorMessage error={tools.error ?? apps.error} prefix="The tools or agent apps could not be loaded" />
          <Tabs label="Edit the rules as" tabs={VIEWS} selected={view} onSelect={setView}>
            {view === "json" ? (
              <JsonRulesEditor text={draft.text} parseError={draft.parseError} faults={faults} readOnly={!canWrite} onChange={changeText} />
            ) : draft.parseError ? (
              <p className="message message-error" role="alert">
                {draft.parseError} Fix it in the JSON view to edit the rules in the form.
              </p>
            ) : (
              <fieldset className="plain-fieldset" disabled={!canWrite}>
                <legend className="visually-hidden">Rules</legend>
                <RuleList rules={draft.rules} catalogue={catalogue} faults={faults} onChange={changeRules} />
              </fieldset>
            )}
          </Tabs>
          {view === "form" ? <FieldFaults id="policy-document-faults" faults={documentFaults(faults)} /> : null}
          {faults.length === 0 ? <ErrorMessage error={save.error ?? compare.error} prefix={save.error ? "The policy was not saved" : "The draft could not be checked"} /> : null}
          {faults.length > 0 ? <p className="message message-error" role="alert">The broker refused the draft: {faults.length === 1 ? "one field needs" : `${faults.length} fields need`} fixing (marked below each field).</p> : null}
          {notice ? <Notice tone="success">{notice}</Notice> : null}
          <div className="button-row">
            <WriteButton variant="primary" busy={compare.isPending} disabled={draft.parseError !== null || review !== null} onClick={startReview}>
              Review and save
            </WriteButton>
            <button type="button" className="button button-secondary" onClick={discard} disabled={!draft.dirty && !compare.error && !save.error}>
              Discard changes
            </button>
          </div>
        </div>
      ) : null}
      {review ? <SaveReview comparison={review} saving={save.isPending} saveError={fieldFaults(save.error).length ? null : save.error} appName={appName} onConfirm={confirm} onBack={() => setReview(null)} /> : null}
    </Section>
  );
}
