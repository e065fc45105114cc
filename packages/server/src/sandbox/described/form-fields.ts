/**
 * Form and query fields as the vendors nest them (Stripe's `metadata[order]=1`, `expand[]=data`,
 * `items[0][price]=…`): bracketed names become objects and arrays before validation.
 */
import type { JsonObject } from "./description.js";

export function nestFields(entries: Iterable<[string, string]>): JsonObject {
  const root: JsonObject = {};
  for (const [name, value] of entries) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(name);
    if (!match || !match[2]) {
      addValue(root, name, value);
      continue;
    }
    const keys = [match[1]!, ...[...match[2].matchAll(/\[([^[\]]*)\]/g)].map((part) => part[1]!)];
    let container: any = root;
    for (let index = 0; index < keys.length - 1; index += 1) {
      const key = keys[index]!;
      const next = keys[index + 1]!;
      const slot = Array.isArray(container) && key === "" ? container.length : key;
      if (container[slot] === undefined || typeof container[slot] !== "object") container[slot] = next === "" || /^\d+$/.test(next) ? [] : {};
      container = container[slot];
    }
    const last = keys[keys.length - 1]!;
    if (Array.isArray(container)) {
      if (last === "") container.push(value);
      else container[Number(last)] = value;
    } else container[last] = value;
  }
  return root;
}

/** A repeated plain name (`ids=a&ids=b`) becomes an array. */
function addValue(target: JsonObject, name: string, value: string): void {
  const existing = target[name];
  if (existing === undefined) target[name] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else target[name] = [existing, value];
}
