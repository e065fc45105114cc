/**
 * An approval the end user decides: operators do not vote, they may pass the one-time link on
 * (the customer's backend also gets it in the `approval.requested` webhook).
 */
import type { Approval } from "../api/types";
import { CopyButton } from "../ui/copy-button";

export function EndUserLink({ approval }: { approval: Approval }) {
  return (
    <div className="end-user-waiting">
      <p>
        <strong>Waiting for the end user</strong> <span className="mono">{approval.end_user_id}</span> to approve or deny on their own page.
      </p>
      {approval.end_user_url ? (
        <div className="link-row">
          <input className="link-value mono" readOnly value={approval.end_user_url} aria-label="The end user's approval link" onFocus={(event) => event.currentTarget.select()} spellCheck={false} />
          <CopyButton value={approval.end_user_url} label="Copy the end user's approval link" />
        </div>
      ) : (
        <p className="muted">The link is with the customer's backend (the approval.requested webhook).</p>
      )}
    </div>
  );
}
