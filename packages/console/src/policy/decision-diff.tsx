/**
 * What saving the draft would change (POST /v1/policy/compare): the calls whose effect differs,
 * as "tool: before → after" with who the call is for, then how many keep their decision.
 */
import type { ComparedDecision, PolicyComparison } from "../api/types";
import { StatusTag } from "../ui/bits";

const TONE = { allow: "good", deny: "bad", require_approval: "warn" } as const;

function callContext({ call }: ComparedDecision, appName: (id: string) => string): string {
  const parts = [call.end_user_id ? `for end user ${call.end_user_id}` : "for no end user"];
  if (call.agent_app_id) parts.push(`by ${appName(call.agent_app_id)}`);
  const args = Object.keys(call.arguments);
  if (args.length) parts.push(`with ${JSON.stringify(call.arguments)}`);
  return parts.join(", ");
}

const Effect = ({ decision }: { decision: keyof typeof TONE }) => <StatusTag status={decision} tone={TONE[decision]} />;

export function DecisionDiff({ comparison, appName }: { comparison: PolicyComparison; appName(id: string): string }) {
  const changed = comparison.results.filter((result) => result.changed);
  const kept = comparison.results.length - changed.length;
  return (
    <div className="stack decision-diff">
      <p>
        {comparison.representative ? `${comparison.results.length} representative calls` : `${comparison.results.length} calls`} decided by version {comparison.current_version} (in force) and by the draft:{" "}
        <strong>{changed.length === 0 ? "no decision changes" : `${changed.length} ${changed.length === 1 ? "decision changes" : "decisions change"}`}</strong>, {kept} stay the same.
      </p>
      {changed.length > 0 ? (
        <ul className="diff-list" aria-label="Decisions that change">
          {changed.map((result, index) => (
            <li key={index} className="diff-item">
              <span className="diff-line">
                <code>{result.call.tool_name}</code>: <Effect decision={result.current.decision} /> <span aria-hidden="true">→</span>
                <span className="visually-hidden">becomes</span> <Effect decision={result.draft.decision} />
              </span>
              <span className="field-hint">
                {callContext(result, appName)}; {result.draft.rule_id ? `rule ${result.draft.rule_id}` : "no rule: the risk default"}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
