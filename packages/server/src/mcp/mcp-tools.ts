/**
 * `tools/list` for one caller: the catalogue minus the tools its tenant's policy denies for every
 * call this agent app (and end user) could make, described the way MCP clients decide with —
 * annotations from the tool's declared side effect, and a description that says when a human must
 * approve first.
 */
import type { Tool } from "@modelcontextprotocol/server";
import type { PolicyEffect } from "../policy/policy-document.js";
import type { PolicyService } from "../policy/policy-service.js";
import type { AgentCaller } from "../tools/caller.js";
import type { CatalogueTool, ScopedTools } from "../tools/tool-catalogue.js";

/** Keys of `_meta` on each tool, under the broker's own prefix as MCP asks of extensions. */
export const TOOL_META = { provider: "dev.toolbroker/provider", risk: "dev.toolbroker/risk", approval: "dev.toolbroker/approval" } as const;

type McpToolDeps = { catalogue: ScopedTools; policies: Pick<PolicyService, "current"> };

/** "delete_repository" of GitHub → "GitHub: Delete repository". */
function titleOf({ tool, provider }: CatalogueTool): string {
  const operation = tool.name.slice(tool.name.indexOf(".") + 1).replaceAll("_", " ");
  return `${provider.displayName}: ${operation.charAt(0).toUpperCase()}${operation.slice(1)}`;
}

/** "always", "sometimes" (it depends on the arguments) or "never". */
function approvalOf(effects: Set<PolicyEffect>): "always" | "sometimes" | "never" {
  if (!effects.has("require_approval")) return "never";
  return effects.has("allow") ? "sometimes" : "always";
}

const APPROVAL_NOTES = {
  always: " Needs a human approval before it runs: the call answers with a link for the approver, and runs once they approve.",
  sometimes: " Some calls need a human approval before they run, depending on the arguments.",
  never: "",
};

export function describeTool(entry: CatalogueTool, effects: Set<PolicyEffect>): Tool {
  const { tool, provider } = entry;
  const approval = approvalOf(effects);
  const reads = tool.sideEffect === "read";
  return {
    name: tool.name,
    title: titleOf(entry),
    description: `${tool.description}${APPROVAL_NOTES[approval]}`,
    inputSchema: { type: "object", ...tool.argumentsSchema } as Tool["inputSchema"],
    annotations: {
      title: titleOf(entry),
      readOnlyHint: reads,
      destructiveHint: !reads && tool.destructive === true,
      // Reads, and writes that delete or overwrite, leave the same state when repeated.
      idempotentHint: reads || tool.destructive === true,
      openWorldHint: true,
    },
    _meta: { [TOOL_META.provider]: provider.id, [TOOL_META.risk]: tool.risk, [TOOL_META.approval]: approval },
  };
}

export function createMcpTools({ catalogue, policies }: McpToolDeps) {
  return {
    async list(caller: AgentCaller): Promise<Tool[]> {
      const policy = await policies.current(caller.tenantId, caller.env);
      const { tools } = await catalogue.view(caller);
      const listed: Tool[] = [];
      for (const name of tools.names()) {
        const entry = tools.resolve(name);
        const effects = policy.possibleEffects({ toolName: name, risk: entry.tool.risk, agentAppId: caller.agentAppId, endUserId: caller.endUserId });
        if (effects.size === 1 && effects.has("deny")) continue;
        listed.push(describeTool(entry, effects));
      }
      return listed;
    },
  };
}

export type McpTools = ReturnType<typeof createMcpTools>;
