/**
 * What an approver's edit changed, as JSON pointers with the values before and after: what the
 * agent is told and the console shows. Objects are compared key by key; arrays and other values
 * as a whole (a narrowed recipient list reads as one change from the old list to the new one).
 */
import { canonicalJson } from "../shared/canonical-json.js";

export type ArgumentChange = { path: string; from?: unknown; to?: unknown };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const escape = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

export function argumentChanges(before: unknown, after: unknown, path = ""): ArgumentChange[] {
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((key) => {
      const at = `${path}/${escape(key)}`;
      if (!(key in after)) return [{ path: at, from: before[key] }];
      if (!(key in before)) return [{ path: at, to: after[key] }];
      return argumentChanges(before[key], after[key], at);
    });
  }
  return canonicalJson(before) === canonicalJson(after) ? [] : [{ path: path || "/", from: before, to: after }];
}
