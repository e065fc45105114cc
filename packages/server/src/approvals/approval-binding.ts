/**
 * What an approval is shown with everywhere (API, console, Slack, email, the end user's page):
 * the digest of the exact call, the account it will act on by its display name, and the agent app
 * by its name. Read from the rows the approval points at; a deleted account or app reads as its id.
 */
import type { Executor, Store } from "../store/database.js";
import type { Approval } from "./approval.js";
import { digestOf, requestedDigestOf } from "./approval-digest.js";

export type ApprovalBinding = {
  digest: string;
  requestedDigest: string;
  account: { id: string; kind: "connection" | "secret_item"; displayName: string } | null;
  agentApp: { id: string; name: string };
};

export function createApprovalBinding({ db: storeDb }: Pick<Store, "db">) {
  async function accountOf(approval: Approval, db: Executor): Promise<ApprovalBinding["account"]> {
    if (approval.connectionId) {
      const row = await db.selectFrom("connections").select(["display_name", "label"]).where("tenant_id", "=", approval.tenantId).where("id", "=", approval.connectionId).executeTakeFirst();
      return { id: approval.connectionId, kind: "connection", displayName: row ? (row.label ?? row.display_name) : approval.connectionId };
    }
    if (approval.secretItemId) {
      const row = await db.selectFrom("secret_items").select(["name", "label"]).where("tenant_id", "=", approval.tenantId).where("id", "=", approval.secretItemId).executeTakeFirst();
      return { id: approval.secretItemId, kind: "secret_item", displayName: row ? (row.label ?? row.name) : approval.secretItemId };
    }
    return null;
  }

  return {
    async describe(approval: Approval, db: Executor = storeDb): Promise<ApprovalBinding> {
      const app = await db.selectFrom("agent_apps").select("name").where("tenant_id", "=", approval.tenantId).where("id", "=", approval.agentAppId).executeTakeFirst();
      return {
        digest: digestOf(approval),
        requestedDigest: requestedDigestOf(approval),
        account: await accountOf(approval, db),
        agentApp: { id: approval.agentAppId, name: app?.name ?? approval.agentAppId },
      };
    },
  };
}

export type ApprovalBindings = ReturnType<typeof createApprovalBinding>;
