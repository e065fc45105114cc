/**
 * Text an input holds for a structured value (a JSON value, a list of ids): the operator's own
 * typing is kept while it still means the same value, and replaced when the value changes from
 * elsewhere (the JSON view, a template, another field).
 */
import { useState } from "react";

export function useDraftText<T>(value: T, format: (value: T) => string, parse: (text: string) => T): [string, (text: string) => T] {
  const [text, setText] = useState(() => format(value));
  const same = JSON.stringify(parse(text)) === JSON.stringify(value);
  const shown = same ? text : format(value);
  return [shown, (next: string) => (setText(next), parse(next))];
}

/** A condition value typed by a person: JSON when it is JSON (`42`, `true`, `"quoted"`), else the text itself. */
export function parseLoose(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The text that parseLoose reads back as `value`. */
export function formatLoose(value: unknown): string {
  if (value === undefined) return "";
  if (typeof value === "string" && parseLoose(value) === value) return value;
  return JSON.stringify(value);
}

/** A list typed as `a, b, c`, or as a JSON array when an item holds a comma or is not a string. */
export function parseList(text: string): unknown[] {
  const trimmed = text.trim();
  if (trimmed.startsWith("[")) {
    const parsed = parseLoose(trimmed);
    if (Array.isArray(parsed)) return parsed;
  }
  return trimmed === "" ? [] : trimmed.split(",").map((item) => parseLoose(item.trim()));
}

export function formatList(values: readonly unknown[]): string {
  const plain = values.every((value) => typeof value === "string" && !value.includes(",") && value.trim() === value && parseLoose(value) === value && value !== "");
  return plain ? values.join(", ") : JSON.stringify(values);
}
