/** Every billing POST is audited, refusals included: a refused call is recorded with its error code. */
import type { AuditActor, AuditLog } from "../audit/audit-log.js";
import { BrokerError } from "../errors.js";

type Attempt = { tenantId: string; actor: AuditActor; action: string; period: string };

export async function auditRefusals<T>(audit: Pick<AuditLog, "append">, attempt: Attempt, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof BrokerError && error.status < 500) {
      const { tenantId, actor, action, period } = attempt;
      const target = { type: "billing_period", id: period };
      await audit.append({ tenantId, actor, action, outcome: "failure", target, data: { period, code: error.code } });
    }
    throw error;
  }
}
