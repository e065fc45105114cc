/** What the policy would decide for a call, without running it. */
import { useState, type FormEvent } from "react";
import type { Env } from "../api/types";
import { useAgentApps } from "../agent-apps/agent-app-queries";
import { Details, StatusTag } from "../ui/bits";
import { ErrorMessage } from "../ui/feedback";
import { Section } from "../ui/page";
import { useSimulate, useTools } from "./policy-queries";

const EFFECT_TONE = { allow: "good", deny: "bad", require_approval: "warn" } as const;
const REASONS = { rule: "a rule matched", default_low_risk: "no rule matched: low-risk tools are allowed", default_high_risk: "no rule matched: high-risk tools need approval" } as const;

export function SimulateForm({ env }: { env: Env }) {
  const tools = useTools();
  const apps = useAgentApps();
  const simulate = useSimulate();
  const [tool, setTool] = useState("");
  const [agentApp, setAgentApp] = useState("");
  const [endUser, setEndUser] = useState("");
  const [args, setArgs] = useState("{}");
  const [argsError, setArgsError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(args) as Record<string, unknown>;
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("arguments must be a JSON object");
    } catch (error) {
      return setArgsError(`Arguments: ${(error as Error).message}`);
    }
    setArgsError(null);
    simulate.mutate({ tool_name: tool, agent_app_id: agentApp, env, arguments: parsed, ...(endUser.trim() ? { end_user_id: endUser.trim() } : {}) });
  };
  const result = simulate.data;

  return (
    <Section title="Simulate" id="simulate-heading">
      <form className="card stack" onSubmit={submit}>
        <div className="filters">
          <div className="field">
            <label htmlFor="simulate-tool">Tool</label>
            <select id="simulate-tool" value={tool} onChange={(event) => setTool(event.target.value)} required>
              <option value="">Choose a tool</option>
              {tools.data?.data.map((entry) => (
                <option key={entry.name} value={entry.name}>
                  {entry.name} ({entry.risk} risk)
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="simulate-agent-app">Agent app</label>
            <select id="simulate-agent-app" value={agentApp} onChange={(event) => setAgentApp(event.target.value)} required>
              <option value="">Choose an agent app</option>
              {apps.data?.data.map((app) => (
                <option key={app.id} value={app.id}>
                  {app.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="simulate-end-user">End user (optional)</label>
            <input id="simulate-end-user" value={endUser} onChange={(event) => setEndUser(event.target.value)} />
          </div>
        </div>
        <div className="field">
          <label htmlFor="simulate-arguments">Arguments (JSON)</label>
          <textarea id="simulate-arguments" rows={4} className="mono" value={args} spellCheck={false} onChange={(event) => setArgs(event.target.value)} />
        </div>
        <ErrorMessage error={tools.error ?? apps.error} prefix="The tools or agent apps could not be loaded" />
        {argsError ? (
          <p className="message message-error" role="alert">
            {argsError}
          </p>
        ) : null}
        <ErrorMessage error={simulate.error} prefix="The simulation failed" />
        <div>
          <button type="submit" className="button button-primary" disabled={simulate.isPending}>
            Simulate
          </button>
        </div>
      </form>
      {result ? (
        <div className="card" role="status" aria-label="Simulation result">
          <Details
            items={[
              ["Effect", <StatusTag status={result.decision} tone={EFFECT_TONE[result.decision]} />],
              ["Rule", result.rule_id ?? "none"],
              ["Why", REASONS[result.reason]],
              ["Tool risk", result.risk],
              ["Policy version", String(result.policy_version)],
            ]}
          />
        </div>
      ) : null}
    </Section>
  );
}
