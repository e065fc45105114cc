/**
 * One way to say what is wrong with a value that failed a JSON Schema (Ajv's errors), for request
 * bodies and tool arguments alike: the field as a JSON pointer, and a message that names what
 * would be valid where the schema says (an enum's values, a const).
 */
export type ValidationIssue = { instancePath?: string; message?: string; params?: Record<string, unknown>; keyword?: string };
export type FieldProblem = { field: string; message: string };

const MAX_LISTED_VALUES = 20;

/** `member`: what an object's members are called where the issues come from ("property", "argument"). */
function messageOf(issue: ValidationIssue, member: string): string {
  if (issue.params?.additionalProperty !== undefined) return `is not an allowed ${member}`;
  const allowed = allowedOf(issue);
  if (allowed && allowed.length > 0) {
    const listed = allowed.slice(0, MAX_LISTED_VALUES).map((value) => JSON.stringify(value)).join(", ");
    return `must be one of the allowed values: ${listed}${allowed.length > MAX_LISTED_VALUES ? ", …" : ""}`;
  }
  return issue.message ?? "is invalid";
}

const allowedOf = (issue: ValidationIssue): unknown[] | undefined =>
  Array.isArray(issue.params?.allowedValues) ? issue.params.allowedValues : issue.keyword === "const" ? [issue.params?.allowedValue] : undefined;

/**
 * A union of constants (TypeBox's `Union([Literal…])`) fails with one `const` error per branch and
 * an `anyOf` error: said once, as the list of every allowed value.
 */
function mergeAlternatives(issues: readonly ValidationIssue[]): ValidationIssue[] {
  const merged: ValidationIssue[] = [];
  const byPath = new Map<string, ValidationIssue>();
  for (const issue of issues) {
    const allowed = allowedOf(issue);
    const path = issue.instancePath ?? "";
    if (!allowed) {
      if (issue.keyword === "anyOf" && issues.some((other) => (other.instancePath ?? "") === path && allowedOf(other))) continue;
      merged.push(issue);
      continue;
    }
    const earlier = byPath.get(path);
    if (earlier) (earlier.params!.allowedValues as unknown[]).push(...allowed);
    else {
      const combined = { ...issue, keyword: "enum", params: { ...issue.params, allowedValues: [...allowed] } };
      byPath.set(path, combined);
      merged.push(combined);
    }
  }
  return merged;
}

export function describeIssues(issues: readonly ValidationIssue[] | null | undefined, member = "property"): FieldProblem[] {
  return mergeAlternatives(issues ?? []).map((issue) => {
    const missing = issue.params?.missingProperty;
    const extra = issue.params?.additionalProperty;
    const base = issue.instancePath ?? "";
    const field = missing !== undefined ? `${base}/${String(missing)}` : extra !== undefined ? `${base}/${String(extra)}` : base;
    return { field: field || "/", message: messageOf(issue, member) };
  });
}
