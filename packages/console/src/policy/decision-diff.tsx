/**
 * What saving the draft would change (POST /v1/policy/compare): the calls whose effect differs,
 * grouped by change ("require_approval → deny") and then by tool, one line per tool saying which
 * calls of it change ("scm.delete_repository: allow → require_approval, for no end user"), then
 * how many calls keep their decision.
 */
import { useState } from "react";
import type { ComparedDecision, PolicyComparison } from "../api/types";
import { StatusTag } from "../ui/bits";

const TONE = { allow: "good", deny: "bad", require_approval: "warn" } as const;
type EffectName = keyof typeof TONE;
/** Lines shown per change before "Show all". */
const FIRST_LINES = 20;

type Line = { tool: string; before: EffectName; after: EffectName; calls: string[]; rules: Set<string> };

function callContext({ call }: ComparedDecision, appName: (id: string) => string): string {
  const parts = [call.end_user_id ? `for end user ${call.end_user_id}` : "for no end user"];
  if (call.agent_app_id) parts.push(`by ${appName(call.agent_app_id)}`);
  if (Object.keys(call.arguments).length) parts.push(`with ${JSON.stringify(call.arguments)}`);
  return parts.join(" ");
}

/** The two plain calls the broker tries for every tool, said once. */
const plainPair = (calls: string[]) => calls.length === 2 && calls[0] === "for no end user" && /^for end user example-end-user(-x)*$/.test(calls[1]!);
const describeCalls = (calls: string[]) => (plainPair(calls) ? "with or without an end user" : calls.join("; "));

/** Changed calls by change, then by tool, in the broker's order. */
function groupChanges(results: readonly ComparedDecision[], appName: (id: string) => string) {
  const groups = new Map<string, Map<string, Line>>();
  for (const result of results) {
    if (!result.changed) continue;
    const change = `${result.current.decision}→${result.draft.decision}`;
    const lines = groups.get(change) ?? groups.set(change, new Map()).get(change)!;
    const line = lines.get(result.call.tool_name) ?? lines.set(result.call.tool_name, { tool: result.call.tool_name, before: result.current.decision, after: result.draft.decision, calls: [], rules: new Set() }).get(result.call.tool_name)!;
    line.calls.push(callContext(result, appName));
    line.rules.add(result.draft.rule_id ? `rule ${result.draft.rule_id}` : "no rule: the risk default");
  }
  return [...groups.values()].map((lines) => [...lines.values()]);
}

const Effect = ({ decision }: { decision: EffectName }) => <StatusTag status={decision} tone={TONE[decision]} />;

export function DecisionDiff({ comparison, appName }: { comparison: PolicyComparison; appName(id: string): string }) {
  const groups = groupChanges(comparison.results, appName);
  const changed = comparison.results.filter((result) => result.changed).length;
  return (
    <div className="stack decision-diff">
      <p>
        {comparison.representative ? `${comparison.results.length} representative calls` : `${comparison.results.length} calls`} decided by version {comparison.current_version} (in force) and by the draft:{" "}
        <strong>{changed === 0 ? "no decision changes" : `${changed} ${changed === 1 ? "decision changes" : "decisions change"}`}</strong>, {comparison.results.length - changed} stay the same.
      </p>
      {comparison.truncated ? <p className="field-hint">The broker tries at most {comparison.results.length} calls: some tools were left out of this review.</p> : null}
      {comparison.representative ? (
        <p className="field-hint">
          The calls are the broker's: every tool a rule of either version reaches, for no end user and for an end user no rule names (example-end-user), and for each rule with end users, agent apps or
          conditions, a call it would match. A tool no rule reaches keeps its risk default under both.
        </p>
      ) : null}
      {groups.map((lines) => (
        <ChangeGroup key={`${lines[0]!.before}-${lines[0]!.after}`} lines={lines} />
      ))}
    </div>
  );
}

function ChangeGroup({ lines }: { lines: Line[] }) {
  const [all, setAll] = useState(false);
  const { before, after } = lines[0]!;
  const shown = all ? lines : lines.slice(0, FIRST_LINES);
  return (
    <section className="diff-group" aria-label={`${before} becomes ${after}`}>
      <h4>
        <Effect decision={before} /> <span aria-hidden="true">→</span>
        <span className="visually-hidden">becomes</span> <Effect decision={after} />
        <span className="muted">
          {lines.length} {lines.length === 1 ? "tool" : "tools"}
        </span>
      </h4>
      <ul className="diff-list" aria-label={`Decisions that change from ${before} to ${after}`}>
        {shown.map((line) => (
          <li key={line.tool} className="diff-item">
            <span>
              <code>{line.tool}</code>: {before} → {after}
            </span>
            <span className="field-hint">
              {describeCalls(line.calls)} ({[...line.rules].join(", ")})
            </span>
          </li>
        ))}
      </ul>
      {lines.length > shown.length ? (
        <div>
          <button type="button" className="button button-secondary" onClick={() => setAll(true)}>
            Show all {lines.length} tools
          </button>
        </div>
      ) : null}
    </section>
  );
}
