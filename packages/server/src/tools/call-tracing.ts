/**
 * What a tool call's spans say about it, beyond their names: the outcome the caller heard, the
 * policy's decision, the argument names. Only ids, names and codes; an argument's value never.
 */
import { BrokerError } from "../errors.js";
import type { Span } from "../observability/tracing.js";
import { ATTR } from "../observability/tracing-attributes.js";
import type { PolicyDecision } from "../policy/policy-engine.js";
import type { CatalogueTool } from "../catalogue/tool-catalogue.js";

/** Sets `toolbroker.outcome` once the call settles: succeeded, replayed, or the error code it answered. */
export function traceOutcome<T extends { replayed: boolean }>(span: Span, work: Promise<T>): Promise<T> {
  if (!span.isRecording()) return work;
  return work.then(
    (result) => {
      span.setAttribute(ATTR.outcome, result.replayed ? "replayed" : "succeeded");
      return result;
    },
    (error: unknown) => {
      span.setAttribute(ATTR.outcome, error instanceof BrokerError ? error.code : "internal_error");
      throw error;
    },
  );
}

/** The policy span's decision: the effect and the rule that decided (null: the tool's risk did). */
export function notePolicy(span: Span, decision: PolicyDecision): PolicyDecision {
  if (span.isRecording()) span.setAttributes({ [ATTR.policyEffect]: decision.effect, ...(decision.rule_id ? { [ATTR.policyRuleId]: decision.rule_id } : {}) });
  return decision;
}

/**
 * The top-level argument names the call sent that the tool's schema declares, sorted. Names a
 * schema does not declare are left out: a caller could put anything in a name it makes up.
 */
export function argumentKeysOf(entry: CatalogueTool, args: Record<string, unknown>): string[] {
  const declared = (entry.tool.argumentsSchema as { properties?: Record<string, unknown> }).properties ?? {};
  return Object.keys(args).filter((name) => Object.hasOwn(declared, name)).sort();
}
