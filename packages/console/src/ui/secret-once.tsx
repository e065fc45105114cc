/**
 * A secret the broker returns once (a control key, a webhook signing secret): shown in a
 * read-only field with a copy button until the operator dismisses it. Never stored anywhere.
 */
import { useId } from "react";
import { useCopy } from "./copy-button";

export function SecretOnce({ label, value, onDismiss }: { label: string; value: string; onDismiss(): void }) {
  const id = useId();
  const { copied, copy } = useCopy(value);
  return (
    <div className="secret-once">
      <label htmlFor={id}>{label}</label>
      <div className="secret-row">
        <input id={id} className="secret-value" readOnly value={value} onFocus={(event) => event.currentTarget.select()} spellCheck={false} autoComplete="off" />
        <button type="button" className="button button-primary" onClick={copy}>
          Copy
        </button>
      </div>
      <p className="warning">
        <span aria-hidden="true">⚠ </span>
        <strong>You will not see this again.</strong> Store it now; the broker keeps only its prefix.
      </p>
      <p role="status" className="muted">
        {copied === "yes" ? "Copied to the clipboard." : copied === "failed" ? "Copying failed: select the text and copy it by hand." : ""}
      </p>
      <button type="button" className="button button-secondary" onClick={onDismiss}>
        I have stored it
      </button>
    </div>
  );
}
