/**
 * What an approval is bound to, shown the same way on the card and the page: the account the call
 * acts on (its display name), the agent app asking, and the digest of the exact call that will run.
 */
import type { ReactNode } from "react";
import type { Approval } from "../api/types";
import { CopyButton } from "../ui/copy-button";

/** "sha256:" and 12 hex digits: enough to compare by eye; the whole digest is copied and in the tooltip. */
export const shortDigest = (digest: string) => digest.replace(/^(sha256:)?([0-9a-f]{12})[0-9a-f]*$/, (_all, prefix: string | undefined, head: string) => `${prefix ?? ""}${head}…`);

export function Digest({ digest, label }: { digest: string; label: string }) {
  return (
    <span className="digest">
      <code title={digest}>{shortDigest(digest)}</code>
      <CopyButton value={digest} label={`Copy ${label}`} />
    </span>
  );
}

export function accountName(approval: Approval): ReactNode {
  if (!approval.account) return <span className="muted">no account</span>;
  const kind = approval.account.kind === "connection" ? "connection" : "secret";
  return (
    <>
      {approval.account.display_name} <span className="muted">({kind})</span>
    </>
  );
}

/** The binding as label/value pairs for `Details`; the requested digest only when an edit changed the call. */
export function bindingItems(approval: Approval): [string, ReactNode | undefined][] {
  const edited = approval.digest !== approval.requested_digest;
  return [
    ["Account", accountName(approval)],
    ["Agent app", approval.agent_app.name],
    [edited ? "Digest (as edited)" : "Digest", <Digest digest={approval.digest} label="the digest of the call" />],
    ["Digest as requested", edited ? <Digest digest={approval.requested_digest} label="the digest of the call as requested" /> : undefined],
  ];
}
