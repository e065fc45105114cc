/**
 * Named starting points for a tenant's policy, built from the tools it sees in one env (GET
 * /v1/policy/templates). Each is an ordinary rule list, valid for validateRules: nothing here is
 * a rule kind of its own, so a template saved and later edited behaves like any other policy.
 *
 * The catalogue marks each tool `side_effect: read | write` and `destructive` (a write that
 * deletes or overwrites): "writes" and "destructive" below mean exactly those marks. A rule lists
 * at most 100 tool patterns, so a provider whose every tool is in the set is named by its glob
 * (`scm.*`), and a longer list is split over several rules with numbered ids.
 */
import type { PolicyRule } from "./policy-document.js";
import { globToRegExp } from "./tool-glob.js";

/** What a template needs to know of a tool (a subset of GET /v1/tools' listing). */
export type TemplateTool = { name: string; provider: string; side_effect: "read" | "write"; destructive: boolean };

export type PolicyTemplate = { id: string; name: string; description: string; rules: PolicyRule[] };

const MAX_PATTERNS_PER_RULE = 100;

/**
 * Patterns naming exactly `chosen` among `all`: a provider's glob (`scm.*`) when every tool it
 * reaches is chosen, else the names. The glob is checked against every tool, not just the
 * provider's, so it can never reach a tool that is not chosen.
 */
export function patternsFor(chosen: readonly TemplateTool[], all: readonly TemplateTool[]): string[] {
  const chosenNames = new Set(chosen.map((tool) => tool.name));
  const providers = [...new Set(chosen.map((tool) => tool.provider))].sort();
  return providers.flatMap((provider) => {
    const glob = `${provider}.*`;
    const matcher = globToRegExp(glob);
    if (all.filter((tool) => matcher.test(tool.name)).every((tool) => chosenNames.has(tool.name))) return [glob];
    return chosen.filter((tool) => tool.provider === provider).map((tool) => tool.name).sort();
  });
}

/** One rule per 100 patterns; none when nothing is chosen (a rule cannot list zero tools). */
function rulesFor(base: Omit<PolicyRule, "tools">, patterns: string[]): PolicyRule[] {
  const chunks: string[][] = [];
  for (let i = 0; i < patterns.length; i += MAX_PATTERNS_PER_RULE) chunks.push(patterns.slice(i, i + MAX_PATTERNS_PER_RULE));
  return chunks.map((tools, index) => ({ ...base, id: chunks.length === 1 ? base.id : `${base.id}-${index + 1}`, tools }));
}

export function policyTemplates(tools: readonly TemplateTool[]): PolicyTemplate[] {
  const reads = tools.filter((tool) => tool.side_effect === "read");
  const writes = tools.filter((tool) => tool.side_effect === "write");
  const destructive = tools.filter((tool) => tool.destructive);
  const writesOnly = patternsFor(writes, tools);
  return [
    {
      id: "read_only_agent",
      name: "Read-only agent",
      description:
        "Reads run; every other call is refused, tools added to the catalogue later included (the last rule names no tool, so it matches them all).",
      rules: [
        ...rulesFor({ id: "reads-run", effect: "allow", description: "Reads (side_effect: read) run without asking" }, patternsFor(reads, tools)),
        { id: "everything-else-refused", effect: "deny", description: "Any call no rule above allowed: writes, and tools added later" },
      ],
    },
    {
      id: "approve_all_writes",
      name: "Approve all writes",
      description:
        "Every write waits for an admin's approval, low-risk ones too; reads keep the risk default. The writes are listed by name: one added to the catalogue later keeps the risk default until you add it.",
      rules: rulesFor({ id: "writes-need-approval", effect: "require_approval", description: "Writes (side_effect: write) wait for an approval" }, writesOnly),
    },
    {
      id: "deny_destructive",
      name: "Deny destructive",
      description: "Tools that delete or overwrite what was there are refused; every other call keeps the risk default.",
      rules: rulesFor({ id: "no-destructive-calls", effect: "deny", description: "Destructive tools (they delete or overwrite)" }, patternsFor(destructive, tools)),
    },
    {
      id: "per_end_user_limits",
      name: "Per-end-user limits",
      description:
        "For calls made for one of your end users: destructive tools are refused, other writes wait for that end user's own approval, reads run. Calls for no end user keep the risk default. " +
        "Rules limit what runs, not how often: rate limits are per agent app.",
      rules: [
        ...rulesFor({ id: "end-users-no-destructive", effect: "deny", end_users: "any", description: "No destructive call on an end user's behalf" }, patternsFor(destructive, tools)),
        ...rulesFor(
          { id: "end-users-approve-writes", effect: "require_approval", end_users: "any", approval: { approvers: "end_user" }, description: "The end user approves each write made for them" },
          writesOnly,
        ),
        ...rulesFor({ id: "end-users-reads-run", effect: "allow", end_users: "any", description: "Reads for an end user run" }, patternsFor(reads, tools)),
      ],
    },
  ];
}
