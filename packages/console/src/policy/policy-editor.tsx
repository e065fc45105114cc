/**
 * The policy document as JSON in a textarea: save replaces it with a new version. A 422 lists
 * each fault by its JSON path (error.details.fields).
 */
import { useEffect, useState, type FormEvent } from "react";
import { fieldFaults } from "../api/errors";
import type { Env, PolicyRules } from "../api/types";
import { ErrorMessage, Loading, Notice } from "../ui/feedback";
import { Section } from "../ui/page";
import { Time } from "../ui/time";
import { WriteButton } from "../ui/write-button";
import { usePolicy, useSavePolicy } from "./policy-queries";

const pretty = (rules: PolicyRules) => JSON.stringify(rules, null, 2);

export function PolicyEditor({ env }: { env: Env }) {
  const policy = usePolicy(env);
  const save = useSavePolicy(env);
  const [text, setText] = useState("");
  const [parseError, setParseError] = useState<string | null>(null);
  const [saved, setSaved] = useState<number | null>(null);
  const loaded = policy.data;

  // Reset the editor when a version loads (first load, a save, another operator's save), not on every refetch.
  useEffect(() => {
    if (loaded) setText(pretty(loaded.rules));
  }, [loaded?.version, loaded?.env]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(null);
    let rules: PolicyRules;
    try {
      rules = JSON.parse(text) as PolicyRules;
    } catch (error) {
      setParseError(`The rules are not valid JSON: ${(error as Error).message}`);
      return;
    }
    if (!Array.isArray(rules)) return setParseError("The rules must be a JSON array of rule objects.");
    setParseError(null);
    save.mutate(rules, { onSuccess: (document) => setSaved(document.version) });
  };
  const faults = fieldFaults(save.error);

  return (
    <Section title={`Rules (${env})`} id="policy-rules-heading">
      {policy.isPending ? <Loading label="Loading the policy…" /> : null}
      <ErrorMessage error={policy.error} prefix="The policy could not be loaded" />
      {loaded ? (
        <form className="card stack" onSubmit={submit}>
          <p className="field-hint">
            Version {loaded.version}
            {loaded.updated_at ? (
              <>
                , saved <Time value={loaded.updated_at} /> by {loaded.updated_by ?? "unknown"}
              </>
            ) : (
              " (never saved: the risk defaults apply)"
            )}
            . Rules are tried in order and the first match decides; with no match, low-risk tools run and high-risk tools need approval.
          </p>
          <div className="field">
            <label htmlFor="policy-rules">Policy rules (JSON)</label>
            <textarea
              id="policy-rules"
              className="policy-editor"
              value={text}
              spellCheck={false}
              onChange={(event) => setText(event.target.value)}
              aria-invalid={parseError !== null || faults.length > 0}
              aria-describedby="policy-faults"
            />
          </div>
          <div id="policy-faults">
            {parseError ? (
              <p className="message message-error" role="alert">
                {parseError}
              </p>
            ) : null}
            <ErrorMessage error={save.error} prefix="The policy was not saved" />
            {faults.length > 0 ? (
              <ul className="faults" aria-label="Validation errors">
                {faults.map((fault, index) => (
                  <li key={index}>
                    <code>{fault.field || "(document)"}</code>: {fault.message}
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
          {saved !== null ? <Notice tone="success">Saved as version {saved}.</Notice> : null}
          <div className="button-row">
            <WriteButton type="submit" variant="primary" busy={save.isPending}>
              Save policy
            </WriteButton>
            <button type="button" className="button button-secondary" onClick={() => (setText(pretty(loaded.rules)), setParseError(null), save.reset())}>
              Discard changes
            </button>
          </div>
        </form>
      ) : null}
    </Section>
  );
}
