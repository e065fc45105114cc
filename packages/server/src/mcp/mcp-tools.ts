/**
 * `tools/list` for one caller: the catalogue minus the tools its tenant's policy denies for every
 * call this agent app (and end user) could make, described the way MCP clients decide with —
 * annotations from the tool's declared side effect, and a description that says when a human must
 * approve first.
 */
import type { Tool } from "@modelcontextprotocol/server";
import type { PolicyEffect } from "../policy/policy-document.js";
import type { PolicyService } from "../policy/policy-service.js";
import type { AgentCaller } from "../invocations/caller.js";
import type { CatalogueTool, ScopedTools } from "../catalogue/tool-catalogue.js";

/** Keys of `_meta` on each tool, under the broker's own prefix as MCP asks of extensions. `name`: the dotted name policies and audit use. */
export const TOOL_META = { provider: "dev.toolbroker/provider", risk: "dev.toolbroker/risk", approval: "dev.toolbroker/approval", name: "dev.toolbroker/name" } as const;

type McpToolDeps = { catalogue: ScopedTools; policies: Pick<PolicyService, "current"> };

/** The declared title with its provider ("Gmail: Send a message"), else "delete_repository" of GitHub → "GitHub: Delete repository". */
function titleOf({ tool, provider }: CatalogueTool): string {
  if (tool.title) return tool.title.startsWith(provider.displayName) ? tool.title : `${provider.displayName}: ${tool.title}`;
  const operation = tool.name.slice(tool.name.indexOf(".") + 1).replaceAll("_", " ");
  return `${provider.displayName}: ${operation.charAt(0).toUpperCase()}${operation.slice(1)}`;
}

/** The provider's declared icon as MCP `icons`; a data: URI says its type, an https URL is left to the client. */
function iconsOf({ provider }: CatalogueTool): Tool["icons"] {
  if (!provider.icon) return undefined;
  const mimeType = /^data:(image\/[a-z+]+);/.exec(provider.icon)?.[1];
  return [{ src: provider.icon, ...(mimeType ? { mimeType } : {}) }];
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

/**
 * `name` is the model-safe name (`scm_create_issue`, see catalogue/model-safe-names.ts): model APIs
 * refuse dots, and many MCP hosts hand MCP names to them unchanged.
 */
export function describeTool(entry: CatalogueTool, effects: Set<PolicyEffect>, name: string): Tool {
  const { tool, provider } = entry;
  const approval = approvalOf(effects);
  const reads = tool.sideEffect === "read";
  const icons = iconsOf(entry);
  return {
    name,
    title: titleOf(entry),
    description: `${tool.description}${APPROVAL_NOTES[approval]}`,
    inputSchema: { type: "object", ...tool.argumentsSchema } as Tool["inputSchema"],
    ...(icons ? { icons } : {}),
    annotations: {
      title: titleOf(entry),
      readOnlyHint: reads,
      destructiveHint: !reads && tool.destructive === true,
      // Reads leave the same state when repeated; a write as declared, and without a declaration
      // one that deletes or overwrites.
      idempotentHint: reads || (tool.idempotent ?? tool.destructive === true),
      openWorldHint: true,
    },
    _meta: { [TOOL_META.provider]: provider.id, [TOOL_META.risk]: tool.risk, [TOOL_META.approval]: approval, [TOOL_META.name]: tool.name },
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
        listed.push(describeTool(entry, effects, tools.safeNameOf(name) ?? name));
      }
      return listed;
    },
  };
}

export type McpTools = ReturnType<typeof createMcpTools>;
