/**
 * The editor's draft: one rule list that the form and the JSON view both write. Typing JSON that
 * parses replaces the rules; typing that does not keeps the last good rules and a parse error,
 * which holds the form view back until it is fixed.
 */
import { useEffect, useState } from "react";
import type { PolicyDocument, PolicyRules } from "../api/types";
import { parseRules, prettyRules } from "./rule-draft";

export function usePolicyDraft(loaded: PolicyDocument | undefined) {
  const [rules, setRulesState] = useState<PolicyRules>([]);
  const [text, setTextState] = useState("[]");
  const [parseError, setParseError] = useState<string | null>(null);

  const reset = (next: PolicyRules) => {
    setRulesState(next);
    setTextState(prettyRules(next));
    setParseError(null);
  };
  // Reset when a version loads (first load, a save, another operator's save), not on every refetch.
  useEffect(() => {
    if (loaded) reset(loaded.rules);
  }, [loaded?.version, loaded?.env]);

  return {
    rules,
    text,
    parseError,
    dirty: parseError !== null || (loaded !== undefined && prettyRules(rules) !== prettyRules(loaded.rules)),
    /** From the form or a template. */
    setRules: reset,
    /** From the JSON view. */
    setText(next: string) {
      setTextState(next);
      const parsed = parseRules(next);
      if ("error" in parsed) return setParseError(parsed.error);
      setParseError(null);
      setRulesState(parsed.rules);
    },
  };
}
