/**
 * Named starting points (GET /v1/policy/templates), built by the broker from this env's tools.
 * Using one replaces the draft, not the saved policy: it is reviewed and saved like any edit.
 */
import { useRef } from "react";
import type { Env, PolicyTemplate } from "../api/types";
import { ErrorMessage, Loading } from "../ui/feedback";
import { WriteButton } from "../ui/write-button";
import { usePolicyTemplates } from "./policy-queries";

export function TemplatePicker({ env, onUse }: { env: Env; onUse(template: PolicyTemplate): void }) {
  const templates = usePolicyTemplates(env);
  // Closed once a template is chosen, so the rules it brought are what the operator sees next.
  const details = useRef<HTMLDetailsElement>(null);
  const use = (template: PolicyTemplate) => {
    if (details.current) details.current.open = false;
    onUse(template);
  };
  return (
    <details className="templates" ref={details}>
      <summary>Start from a template</summary>
      {templates.isPending ? <Loading label="Loading the templates…" /> : null}
      <ErrorMessage error={templates.error} prefix="The templates could not be loaded" />
      <ul className="template-list">
        {templates.data?.data.map((template) => (
          <li key={template.id} className="template">
            <h3>{template.name}</h3>
            <p className="field-hint">{template.description}</p>
            <p className="field-hint">
              {template.rules.length} {template.rules.length === 1 ? "rule" : "rules"}; replaces the rules below (nothing is saved until you review and save).
            </p>
            <div>
              <WriteButton onClick={() => use(template)} aria-label={`Use the template ${template.name}`}>
                Use this template
              </WriteButton>
            </div>
          </li>
        ))}
      </ul>
    </details>
  );
}
