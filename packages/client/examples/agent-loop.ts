/**
 * A runnable agent loop against a Toolbroker: list the tools (in the shape an LLM takes), then run
 * a plan of tool calls, the calls a model would make, waiting for a human where a call needs
 * approval. Swap the plan for your model's tool calls to make it a real agent.
 *
 *   TOOLBROKER_URL=http://127.0.0.1:8080 \
 *   TOOLBROKER_TOKEN=<broker JWT> \
 *   TOOLBROKER_CONNECTED_ACCOUNT_ID=<connected account uuid> \
 *   npx tsx examples/agent-loop.ts
 *
 * Instead of TOOLBROKER_TOKEN, a local trial may set TOOLBROKER_CONTROL_KEY and
 * TOOLBROKER_AGENT_APP_ID to mint one. In production only your backend holds the control key.
 * TOOLBROKER_PLAN (JSON: [{"tool_name", "arguments"}]) replaces the default plan.
 */
import { pathToFileURL } from "node:url";
import { AgentClient, isBrokerError, isPolicyDenied, type Tool } from "@toolbroker/client";
import { toOpenAITools } from "@toolbroker/client/adapters";

export type PlannedCall = { tool_name: string; arguments: Record<string, unknown> };
export type StepOutcome = { tool_name: string; status: "succeeded" | "denied" | "failed"; result?: unknown; error?: string };

export type LoopOptions = {
  connectedAccountId: string;
  plan?: PlannedCall[];
  log?: (line: string) => void;
  /** How often to ask whether a pending approval was decided (ms). */
  pollInterval?: number;
  signal?: AbortSignal;
};

/** Reads only: safe to run against your own GitHub account. */
export const DEFAULT_PLAN: PlannedCall[] = [
  { tool_name: "scm.get_authenticated_user", arguments: {} },
  { tool_name: "scm.list_repositories", arguments: { per_page: 5 } },
];

export async function runAgentLoop(client: AgentClient, options: LoopOptions): Promise<StepOutcome[]> {
  const log = options.log ?? console.log;
  const tools = await client.listTools();
  // What you would pass to openai.chat.completions.create({ tools }) (or toAnthropicTools, toVercelAITools).
  const modelTools = toOpenAITools(tools);
  log(`${tools.length} tools available: ${modelTools.map((tool) => tool.function.name).join(", ")}`);

  const outcomes: StepOutcome[] = [];
  for (const call of options.plan ?? DEFAULT_PLAN) outcomes.push(await runStep(client, tools, call, options, log));
  return outcomes;
}

async function runStep(client: AgentClient, tools: Tool[], call: PlannedCall, options: LoopOptions, log: (line: string) => void): Promise<StepOutcome> {
  const { tool_name } = call;
  if (!tools.some((tool) => tool.name === tool_name)) {
    log(`${tool_name}: not in the catalogue, skipped`);
    return { tool_name, status: "failed", error: "unknown_tool" };
  }
  try {
    const { result } = await client.executeAndWait(
      { tool_name, arguments: call.arguments, connected_account_id: options.connectedAccountId },
      {
        ...(options.signal ? { signal: options.signal } : {}),
        pollInterval: options.pollInterval ?? 2_000,
        onApprovalRequired: (pending) =>
          log(`${tool_name}: waiting for a human to decide approval ${pending.approvalId} (POST /v1/approvals/${pending.approvalId}/decide)`),
      },
    );
    log(`${tool_name}: ${JSON.stringify(result)}`);
    return { tool_name, status: "succeeded", result };
  } catch (error) {
    if (isPolicyDenied(error)) {
      log(`${tool_name}: denied (${error.message})`);
      return { tool_name, status: "denied", error: error.code };
    }
    if (isBrokerError(error)) {
      log(`${tool_name}: failed with ${error.code}: ${error.message} (request ${error.requestId ?? "?"})`);
      return { tool_name, status: "failed", error: error.code };
    }
    throw error;
  }
}

/** The client from TOOLBROKER_* variables: a broker JWT, or (local trials) a control key to mint one. */
export async function clientFromEnvironment(env: Record<string, string | undefined>): Promise<AgentClient> {
  const baseUrl = env.TOOLBROKER_URL ?? "http://127.0.0.1:8080";
  if (env.TOOLBROKER_TOKEN) return new AgentClient({ baseUrl, token: env.TOOLBROKER_TOKEN });
  if (env.TOOLBROKER_CONTROL_KEY && env.TOOLBROKER_AGENT_APP_ID) {
    const { ControlClient } = await import("@toolbroker/client/control");
    const control = new ControlClient({ baseUrl, apiKey: env.TOOLBROKER_CONTROL_KEY });
    return new AgentClient({ baseUrl, getToken: control.tokenProvider({ agent_app_id: env.TOOLBROKER_AGENT_APP_ID }) });
  }
  throw new Error("set TOOLBROKER_TOKEN (a broker JWT), or TOOLBROKER_CONTROL_KEY and TOOLBROKER_AGENT_APP_ID to mint one");
}

async function main() {
  const env = process.env;
  const connectedAccountId = env.TOOLBROKER_CONNECTED_ACCOUNT_ID;
  if (!connectedAccountId) throw new Error("set TOOLBROKER_CONNECTED_ACCOUNT_ID (GET /v1/connections lists your connected accounts)");
  const plan = env.TOOLBROKER_PLAN ? (JSON.parse(env.TOOLBROKER_PLAN) as PlannedCall[]) : DEFAULT_PLAN;
  const outcomes = await runAgentLoop(await clientFromEnvironment(env), { connectedAccountId, plan });
  process.exitCode = outcomes.every((outcome) => outcome.status === "succeeded") ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? `${error.name}: ${error.message}` : error);
    process.exitCode = 2;
  });
}
