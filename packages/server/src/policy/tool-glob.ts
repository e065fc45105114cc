/**
 * The tool-name globs of a policy rule (`tools: ["scm.get_*"]`): `*` matches any run of
 * characters (dots included), `?` exactly one, and every other character itself. Tool names are
 * not paths, so there are no separators, classes, braces or negation. Stored policies were
 * written under this meaning; tool-glob.unit.test.ts holds it.
 */
import wildcardMatch from "wildcard-match";

/** wildcard-match reads `\` as an escape; in a tool glob it is an ordinary character. */
const literalBackslashes = (glob: string) => glob.replace(/\\/g, "\\\\");

export function globToRegExp(glob: string): RegExp {
  return wildcardMatch(literalBackslashes(glob), { separator: false }).regexp;
}
