/**
 * Tool-name globs keep the meaning stored policies were written under: `*` any run of characters,
 * `?` exactly one, everything else literal. `storedMeaning` is the hand-written matcher that
 * defined it before wildcard-match.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { globToRegExp } from "./tool-glob.js";

function storedMeaning(glob: string): RegExp {
  const escaped = glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${escaped}$`);
}

const matches = (glob: string, name: string) => globToRegExp(glob).test(name);

describe("tool globs", () => {
  it("match whole names: * spans any characters, dots included, ? exactly one", () => {
    expect(matches("scm.*", "scm.get_repository")).toBe(true);
    expect(matches("scm.*", "scm.")).toBe(true);
    expect(matches("*", "chat.post_message")).toBe(true);
    expect(matches("*.list_*", "tracker.list_issues")).toBe(true);
    expect(matches("scm.get_*", "scm.list_repositories")).toBe(false);
    expect(matches("scm.get_?", "scm.get_ab")).toBe(false);
    expect(matches("s?m.*", "scm.create_issue")).toBe(true);
    expect(matches("scm", "scm.get_repository")).toBe(false);
    expect(matches("get_*", "scm.get_repository")).toBe(false);
  });

  it("treat path, class, brace, negation, regex and escape syntax as ordinary characters", () => {
    for (const glob of ["scm.[gl]*", "scm.{get,list}_*", "!scm.*", "+(scm).*", "scm.get_*|*", "scm\\.get_*", "scm.get_\\*", "scm/*", "**"]) {
      expect(matches(glob, "scm.get_repository"), glob).toBe(glob === "**");
    }
    expect(matches("scm.[gl]*", "scm.[gl]x")).toBe(true);
    expect(matches("a\\*", "a\\xyz")).toBe(true);
    expect(matches("a\\", "a\\")).toBe(true);
  });

  it("agree with the stored meaning on any glob and name", () => {
    const piece = fc.constantFrom("a", "s", "_", ".", "*", "?", "**", "[a]", "{a,s}", "!", "+(a)", "|", "\\", "\\*", "/", "$", "^", "(", ")", "\n");
    const glob = fc.array(piece, { minLength: 1, maxLength: 6 }).map((parts) => parts.join(""));
    const name = fc.string({ unit: fc.constantFrom(..."as_./*?[]{}!|\\$^()\n"), maxLength: 8 });
    fc.assert(
      fc.property(glob, fc.array(name, { maxLength: 6 }), (pattern, names) => {
        for (const candidate of [...names, pattern, pattern.replace(/[*?]/g, "a")]) {
          expect(matches(pattern, candidate), `${JSON.stringify(pattern)} on ${JSON.stringify(candidate)}`).toBe(storedMeaning(pattern).test(candidate));
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
