import type { Services } from "../app.js";

export type BootstrapResult = {
  tenant_id: string;
  agent_app_id: string;
  control_keys: { test: string; live: string };
};

/** A tenant ready to use: its admin, one agent app and one key per env. */
export async function bootstrapTenant(
  services: Pick<Services, "tenants" | "agentApps" | "controlKeys">,
  input: { tenantName: string; operator: { issuer: string; subject: string } },
): Promise<BootstrapResult> {
  const { tenantId } = await services.tenants.create(input.tenantName, input.operator);
  const actor = { type: "cli", id: input.operator.subject } as const;
  const agentApp = await services.agentApps.create(tenantId, "default agent", actor);
  const test = await services.controlKeys.create(tenantId, "test", "bootstrap test key", actor);
  const live = await services.controlKeys.create(tenantId, "live", "bootstrap live key", actor);
  return { tenant_id: tenantId, agent_app_id: agentApp.id, control_keys: { test: test.key, live: live.key } };
}
