/**
 * A rule's `tools`: names or globs, added one at a time with the catalogue as autocomplete (each
 * tool, and each provider's `provider.*`). None means every tool.
 */
import { useId, useState, type KeyboardEvent } from "react";
import type { FieldFault } from "../api/errors";
import type { Tool } from "../api/types";
import { FieldFaults, faultProps } from "./field-faults";
import { globMatcher } from "./rule-draft";

type Props = { path: string; patterns: string[] | undefined; tools: readonly Tool[]; faults: readonly FieldFault[]; onChange(patterns: string[] | undefined): void };

export function ToolPatternsField({ path, patterns = [], tools, faults, onChange }: Props) {
  const id = useId();
  const [typed, setTyped] = useState("");
  const suggestions = [...new Set(tools.map((tool) => `${tool.provider}.*`)), ...tools.map((tool) => tool.name)].filter((name) => !patterns.includes(name));
  const add = () => {
    const pattern = typed.trim();
    if (pattern && !patterns.includes(pattern)) onChange([...patterns, pattern]);
    setTyped("");
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    add();
  };
  const remove = (pattern: string) => {
    const rest = patterns.filter((p) => p !== pattern);
    onChange(rest.length ? rest : undefined);
  };
  const faultId = `${id}-faults`;
  return (
    <div className="field">
      <label htmlFor={`${id}-input`}>Tools</label>
      {patterns.length > 0 ? (
        <ul className="pattern-list" aria-label="Tools this rule covers">
          {patterns.map((pattern, index) => {
            // A glob says how many tools it reaches; a name only when it names none.
            const isGlob = /[*?]/.test(pattern);
            const count = isGlob || !tools.some((tool) => tool.name === pattern) ? tools.filter((tool) => globMatcher(pattern).test(tool.name)).length : 1;
            const own = faults.filter((fault) => fault.field === `${path}/${index}`).length > 0;
            return (
              <li key={pattern} className={own ? "pattern pattern-fault" : "pattern"}>
                <code>{pattern}</code>
                {isGlob || count === 0 ? <span className="muted">{count === 1 ? "1 tool" : `${count} tools`}</span> : null}
                <button type="button" className="button-link" onClick={() => remove(pattern)} aria-label={`Remove ${pattern}`}>
                  ✕
                </button>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="field-hint">No tools listed: the rule covers every tool, including tools added later.</p>
      )}
      <div className="pattern-add">
        <input id={`${id}-input`} list={`${id}-list`} value={typed} onChange={(event) => setTyped(event.target.value)} onKeyDown={onKeyDown} placeholder="scm.delete_repository or scm.*" {...faultProps(faultId, faults)} />
        <datalist id={`${id}-list`}>
          {suggestions.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
        <button type="button" className="button button-secondary" onClick={add} disabled={!typed.trim()}>
          Add tool
        </button>
      </div>
      <FieldFaults id={faultId} faults={faults} />
    </div>
  );
}
