import { expect, it } from "vitest";
import { memoizeByKey } from "./memo.js";

it("computes a short key once, a long key every time, and keeps at most maxEntries", () => {
  const computed: string[] = [];
  const length = memoizeByKey((key) => (computed.push(key), key.length), { maxEntries: 2, maxKeyLength: 3 });
  expect([length("ab"), length("ab"), length("abcd"), length("abcd")]).toEqual([2, 2, 4, 4]);
  expect(computed).toEqual(["ab", "abcd", "abcd"]);
  length("x");
  length("y");
  length("ab");
  expect(computed.slice(3)).toEqual(["x", "y", "ab"]);
});
