/**
 * After a connect the broker sends the browser back with ?connected_account_id=…: the handle an
 * agent passes to POST /v1/tools/execute, shown where it can be copied (the walk-through needs it).
 */
import { useCopy } from "../ui/copy-button";

export function ConnectedNotice({ id, account }: { id: string; account: string | undefined }) {
  const { copied, copy } = useCopy(id);
  return (
    <div className="message message-success connected-notice" role="status">
      <p>
        <span className="message-icon" aria-hidden="true">✓</span>
        Connected {account ?? "the account"}. Agents use it by passing this <code>connected_account_id</code>:
      </p>
      <div className="secret-row">
        <code className="connected-id" aria-label="connected_account_id">
          {id}
        </code>
        <button type="button" className="button button-primary" onClick={copy} aria-label="Copy the connected_account_id">
          Copy
        </button>
      </div>
      <p className="muted">{copied === "yes" ? "Copied to the clipboard." : copied === "failed" ? "Copying failed: select the text and copy it by hand." : ""}</p>
    </div>
  );
}
