/** The draft as JSON: every keystroke that parses updates the form; one that does not shows why and holds the form back. */
import type { FieldFault } from "../api/errors";

type Props = { text: string; parseError: string | null; faults: readonly FieldFault[]; readOnly: boolean; onChange(text: string): void };

export function JsonRulesEditor({ text, parseError, faults, readOnly, onChange }: Props) {
  return (
    <div className="stack">
      <div className="field">
        <label htmlFor="policy-rules">Policy rules (JSON)</label>
        <textarea
          id="policy-rules"
          className="policy-editor"
          value={text}
          spellCheck={false}
          readOnly={readOnly}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={parseError !== null || faults.length > 0}
          aria-describedby="policy-json-faults"
        />
      </div>
      <div id="policy-json-faults">
        {parseError ? (
          <p className="message message-error" role="alert">
            {parseError} The form view opens again once the JSON is fixed.
          </p>
        ) : null}
        {faults.length > 0 ? (
          <ul className="faults" aria-label="Validation errors">
            {faults.map((fault, index) => (
              <li key={index}>
                <code>{fault.field || "(document)"}</code>: {fault.message}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </div>
  );
}
