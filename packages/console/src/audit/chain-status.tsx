/**
 * Whether the tenant's audit hash chain holds, in words with an icon: a status line when it is
 * intact, an alert naming the first broken event when it is not. "Verify chain" checks again.
 */
import type { ReactNode } from "react";
import { errorMessage } from "../api/errors";
import { useTenant } from "../tenant/tenant-context";
import { formatTime } from "../ui/time";
import { useAuditVerification } from "./audit-queries";

const events = (count: number) => `${count} ${count === 1 ? "event" : "events"}`;

export function ChainStatus() {
  const { canWrite } = useTenant();
  const verification = useAuditVerification();
  const { data: verdict, error, isFetching: checking } = verification;
  const checkedAt = verification.dataUpdatedAt || verification.errorUpdatedAt;
  const when = checkedAt ? <span className="muted"> (checked {formatTime(new Date(checkedAt).toISOString())})</span> : null;

  let status: ReactNode = null;
  let alert: ReactNode = null;
  if (!canWrite) status = "Verifying the audit chain needs the admin role.";
  else if (checking) status = "Verifying the audit chain…";
  else if (error) alert = <>The audit chain could not be verified: {errorMessage(error)}</>;
  else if (verdict?.intact)
    status = (
      <>
        <span className="message-icon" aria-hidden="true">✓ </span>
        Audit chain intact: {events(verdict.events)}
        {when}
      </>
    );
  else if (verdict)
    alert = (
      <>
        <strong>Audit chain broken{verdict.broken_at_seq !== null ? ` at event ${verdict.broken_at_seq}` : ""}</strong>
        {verdict.reason ? `: ${verdict.reason}` : ""}. Events from there on may have been altered or removed ({events(verdict.events)} checked).
        {when}
      </>
    );

  return (
    <section className="chain-status card" aria-labelledby="audit-chain-heading">
      <h2 id="audit-chain-heading" className="visually-hidden">
        Audit chain
      </h2>
      {/* Always rendered, so screen readers announce each new verdict. */}
      <p className={`chain-verdict${verdict?.intact && !checking ? " chain-intact" : ""}`} role="status">
        {status}
      </p>
      {alert ? (
        <p className="message message-error" role="alert">
          <span className="message-icon" aria-hidden="true">✕</span>
          <span>{alert}</span>
        </p>
      ) : null}
      <div>
        <button type="button" className="button button-secondary" onClick={() => void verification.refetch()} disabled={checking || !canWrite} title={canWrite ? undefined : "Verifying the chain needs the admin role"} aria-busy={checking || undefined}>
          Verify chain
        </button>
      </div>
    </section>
  );
}
