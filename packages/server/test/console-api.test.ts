/**
 * The API the console's pages need beyond the basics: an approval's risk and its exact arguments
 * (admins, audited), policy version history, audit chain verification, executions per day.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call } from "./support/http.js";
import { createScmTenant, deletion, putPolicy, requestApproval, startScmWorld, type ScmTenant, type ScmWorld } from "./support/approvals.js";

describeEachDatabase("the console's API", (kind) => {
  let world: ScmWorld;
  let tenant: ScmTenant;
  let other: ScmTenant;
  let viewer: { token: string; tenant: string };

  beforeAll(async () => {
    world = await startScmWorld(kind);
    tenant = await createScmTenant(world, "Acme");
    other = await createScmTenant(world, "Globex");
    const issuer = world.broker.runtime.developmentIssuer!;
    await world.broker.services.tenants.addMember(tenant.tenantId, { issuer: issuer.issuer, subject: "viewer", role: "viewer" }, "test");
    viewer = { token: await issuer.issue("viewer"), tenant: tenant.tenantId };
  });
  afterAll(() => world.close());

  it("shows an approval's risk, and reveals its exact arguments to admins only, in the audit log", async () => {
    const { approval_id } = await requestApproval(world.broker, deletion(tenant, "spoon-knife"));
    const shown = await call(world.broker, "GET", `/v1/approvals/${approval_id}`, asOperator(tenant));
    expect(shown.body).toMatchObject({ risk: "high" });
    const revealed = await call(world.broker, "POST", `/v1/approvals/${approval_id}/arguments`, asOperator(tenant));
    expect(revealed.status, revealed.text).toBe(200);
    expect(revealed.body.arguments).toEqual({ owner: tenant.owner, repo: "spoon-knife" });
    const audited = await call(world.broker, "GET", "/v1/audit?action=approval.arguments_revealed", asOperator(tenant));
    expect(audited.body.data[0]).toMatchObject({ target: { type: "approval", id: approval_id } });
    expectError(await call(world.broker, "POST", `/v1/approvals/${approval_id}/arguments`, viewer), 403, "forbidden");
    expectError(await call(world.broker, "POST", `/v1/approvals/${approval_id}/arguments`, asOperator(other)), 404, "not_found");
    // Once decided, only the redacted view remains.
    await call(world.broker, "POST", `/v1/approvals/${approval_id}/decide`, { ...asOperator(tenant), body: { decision: "deny" } });
    expectError(await call(world.broker, "POST", `/v1/approvals/${approval_id}/arguments`, asOperator(tenant)), 409, "conflict");
  });

  it("lists the policy's versions newest first and shows any of them", async () => {
    await putPolicy(world.broker, tenant, [{ id: "one", effect: "allow", tools: ["scm.*"] }]);
    await putPolicy(world.broker, tenant, [{ id: "a", effect: "deny", tools: ["chat.*"] }, { id: "b", effect: "allow", tools: ["scm.*"] }]);
    const versions = await call(world.broker, "GET", "/v1/policy/versions?env=test", asOperator(tenant));
    expect(versions.body.data.map((v: { version: number; rule_count: number }) => [v.version, v.rule_count])).toEqual([[2, 2], [1, 1]]);
    const first = await call(world.broker, "GET", "/v1/policy?env=test&version=1", asOperator(tenant));
    expect(first.body).toMatchObject({ version: 1, rules: [{ id: "one" }] });
    expectError(await call(world.broker, "GET", "/v1/policy?env=test&version=9", asOperator(tenant)), 404, "not_found");
    expect((await call(world.broker, "GET", "/v1/policy/versions?env=test", asOperator(other))).body.data).toEqual([]);
    await putPolicy(world.broker, tenant, []);
  });

  it("verifies the audit chain, and finds a tampered row", async () => {
    expectError(await call(world.broker, "GET", "/v1/audit/verify", viewer), 403, "forbidden");
    const verdict = await call(world.broker, "GET", "/v1/audit/verify", asOperator(tenant));
    expect(verdict.body).toMatchObject({ intact: true, broken_at_seq: null, reason: null });
    expect(verdict.body.events).toBeGreaterThan(2);
    await world.broker.services.store.db.updateTable("audit_events").set({ action: "tampered" }).where("tenant_id", "=", tenant.tenantId).where("seq", "=", 2).execute();
    const broken = await call(world.broker, "GET", "/v1/audit/verify", asOperator(tenant));
    expect(broken.body).toMatchObject({ intact: false, broken_at_seq: 2 });
    expect((await call(world.broker, "GET", "/v1/audit/verify", asOperator(other))).body.intact).toBe(true);
  });

  it("counts executions per UTC day of a month, every day present", async () => {
    const month = new Date().toISOString().slice(0, 7);
    const before = await call(world.broker, "GET", `/v1/usage/daily?month=${month}&env=test`, asOperator(tenant));
    const [year, m] = month.split("-").map(Number) as [number, number];
    expect(before.body.data).toHaveLength(new Date(Date.UTC(year, m, 0)).getUTCDate());
    const today = new Date().toISOString().slice(0, 10);
    const countToday = (body: { data: { day: string; executions: number }[] }) => body.data.find((d) => d.day === today)!.executions;
    await call(world.broker, "POST", "/v1/tools/execute", { token: tenant.token, body: { tool_name: "scm.get_authenticated_user", arguments: {}, connected_account_id: tenant.connectionId } });
    const after = await call(world.broker, "GET", `/v1/usage/daily?month=${month}&env=test`, asOperator(tenant));
    expect(countToday(after.body)).toBe(countToday(before.body) + 1);
    const both = await call(world.broker, "GET", `/v1/usage/daily?month=${month}`, asOperator(tenant));
    expect(both.body.data).toHaveLength(2 * before.body.data.length);
    expectError(await call(world.broker, "GET", "/v1/usage/daily?month=2026-13", asOperator(tenant)), 400, "invalid_request");
    const elsewhere = await call(world.broker, "GET", `/v1/usage/daily?month=${month}&env=test`, asOperator(other));
    expect(elsewhere.body.data.every((d: { executions: number }) => d.executions === 0)).toBe(true);
  });
});
