/**
 * Audit log: every operator action and token mint appends a hash-chained event, readable through
 * GET /v1/audit (filters, opaque cursor), confined to its tenant, and tampering is detected.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { DEVELOPMENT_ISSUER } from "../src/identity/development-issuer.js";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call, mintBrokerToken } from "./support/http.js";

type AuditEvent = { seq: number; action: string; actor: { type: string; id: string }; target: { type: string; id: string } | null; outcome: string; agent_app_id: string | null; data: Record<string, unknown>; hash: string; prev_hash: string; occurred_at: string };

describeEachDatabase("audit log", (kind) => {
  const clock = manualClock(new Date());
  let broker: TestBroker;
  let tenant: TestTenant;
  let other: TestTenant;

  beforeAll(async () => {
    broker = await startBroker(kind, { clock });
    tenant = await createTenant(broker, "Audited");
    other = await createTenant(broker, "Other");
  });
  afterAll(() => broker.close());

  const audit = async (query = "", who: TestTenant = tenant): Promise<AuditEvent[]> => {
    const result = await call(broker, "GET", `/v1/audit${query}`, asOperator(who));
    expect(result.status, result.text).toBe(200);
    return result.body.data;
  };
  const operatorActor = (who: TestTenant) => ({ type: "operator", id: `${DEVELOPMENT_ISSUER}|${who.operatorSubject}` });

  it("records control key creation and revocation by the operator", async () => {
    const created = await call(broker, "POST", "/v1/keys", { ...asOperator(tenant), body: { env: "live", name: "audited key" } });
    await call(broker, "DELETE", `/v1/keys/${created.body.id}`, asOperator(tenant));
    const [creation] = await audit("?action=control_key.created&limit=1");
    expect(creation).toMatchObject({ actor: operatorActor(tenant), target: { type: "control_key", id: created.body.id }, outcome: "success" });
    expect(creation!.data).toEqual({ env: "live", name: "audited key", prefix: created.body.prefix });
    const [revocation] = await audit("?action=control_key.revoked&limit=1");
    expect(revocation).toMatchObject({ actor: operatorActor(tenant), target: { type: "control_key", id: created.body.id } });
    expect(JSON.stringify([creation, revocation])).not.toContain(created.body.key);
  });

  it("records agent app creation and disabling by the operator", async () => {
    const created = await call(broker, "POST", "/v1/agent-apps", { ...asOperator(tenant), body: { name: "audited app" } });
    await call(broker, "DELETE", `/v1/agent-apps/${created.body.id}`, asOperator(tenant));
    const [creation] = await audit("?action=agent_app.created&limit=1");
    expect(creation).toMatchObject({ actor: operatorActor(tenant), target: { type: "agent_app", id: created.body.id }, data: { name: "audited app" } });
    const [disabling] = await audit("?action=agent_app.disabled&limit=1");
    expect(disabling).toMatchObject({ actor: operatorActor(tenant), target: { type: "agent_app", id: created.body.id } });
  });

  it("records every broker token mint with the control key as actor", async () => {
    const keys = (await call(broker, "GET", "/v1/keys", asOperator(tenant))).body.data as { id: string; prefix: string }[];
    const testKeyId = keys.find((k) => tenant.testKey.startsWith(k.prefix))!.id;
    const before = (await audit("?action=broker_token.minted&limit=200")).length;
    const token = await mintBrokerToken(broker, tenant);
    await mintBrokerToken(broker, tenant, "live");
    const mints = await audit("?action=broker_token.minted&limit=200");
    expect(mints).toHaveLength(before + 2);
    expect(mints[1]).toMatchObject({ actor: { type: "control_key", id: testKeyId }, agent_app_id: tenant.agentAppId, target: { type: "agent_app", id: tenant.agentAppId }, data: { env: "test", expires_in: 900 } });
    expect(mints[0]!.data).toMatchObject({ env: "live" });
    expect(JSON.stringify(mints)).not.toContain(token);
  });

  it("does not record a refused mint as a mint", async () => {
    const before = (await audit("?action=broker_token.minted&limit=200")).length;
    await call(broker, "POST", "/v1/broker/token", { token: tenant.testKey, body: { agent_app_id: tenant.agentAppId, env: "live" } });
    expect(await audit("?action=broker_token.minted&limit=200")).toHaveLength(before);
  });

  it("filters by agent_app_id, outcome and time", async () => {
    const start = clock.now();
    clock.advance(60_000);
    const created = await call(broker, "POST", "/v1/agent-apps", { ...asOperator(tenant), body: { name: "late app" } });
    const lateKey = (await call(broker, "POST", "/v1/keys", { ...asOperator(tenant), body: { env: "test" } })).body.key;
    await call(broker, "POST", "/v1/broker/token", { token: lateKey, body: { agent_app_id: created.body.id, env: "test" } });

    const byApp = await audit(`?agent_app_id=${created.body.id}`);
    expect(byApp.map((e) => e.action)).toEqual(["broker_token.minted"]);
    const since = await audit(`?since=${new Date(start.getTime() + 30_000).toISOString()}`);
    expect(since.map((e) => e.action)).toEqual(["broker_token.minted", "control_key.created", "agent_app.created"]);
    const until = await audit(`?until=${new Date(start.getTime() + 30_000).toISOString()}&limit=200`);
    expect(until.every((e) => e.occurred_at < new Date(start.getTime() + 30_000).toISOString())).toBe(true);
    expect(until.length + since.length).toBe((await audit("?limit=200")).length);
    expect(await audit("?outcome=failure")).toEqual([]);
    expect((await audit("?outcome=success&limit=200")).length).toBe((await audit("?limit=200")).length);
  });

  it("pages newest first through an opaque cursor without gaps or repeats", async () => {
    const all = await audit("?limit=200");
    expect(all.length).toBeGreaterThan(10);
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `?limit=3${cursor ? `&cursor=${cursor}` : ""}`;
      const page = await call(broker, "GET", `/v1/audit${query}`, asOperator(tenant));
      expect(page.body.data.length).toBeLessThanOrEqual(3);
      seen.push(...page.body.data.map((e: AuditEvent) => e.seq));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all.map((e) => e.seq));
    expect(seen).toEqual([...Array(all.length).keys()].map((i) => all.length - i));
  });

  it("combines the cursor with filters", async () => {
    const mints = await audit("?action=broker_token.minted&limit=200");
    const first = await call(broker, "GET", "/v1/audit?action=broker_token.minted&limit=1", asOperator(tenant));
    const second = await call(broker, "GET", `/v1/audit?action=broker_token.minted&limit=1&cursor=${first.body.next_cursor}`, asOperator(tenant));
    expect(second.body.data.map((e: AuditEvent) => e.seq)).toEqual([mints[1]!.seq]);
  });

  it("refuses a cursor it did not issue with 400 invalid_request", async () => {
    // 2^31 is a safe integer but not a seq: PostgreSQL's integer column refused it with a 500.
    const forged = [{ seq: "x" }, { seq: 1.5 }, { seq: null }, { seq: [3] }, {}, { seq: 2 ** 31 }, { seq: 2 ** 53 - 1 }].map((v) => Buffer.from(JSON.stringify(v)).toString("base64url"));
    for (const cursor of ["not-a-cursor", ...forged]) {
      const result = await call(broker, "GET", `/v1/audit?cursor=${cursor}`, asOperator(tenant));
      expectError(result, 400, "invalid_request");
      expect(result.body.error.details.fields).toEqual([{ location: "querystring", field: "/cursor", message: "is invalid" }]);
    }
  });

  it("shows a tenant only its own events", async () => {
    const mine = await audit("?limit=200", other);
    expect(mine.map((e) => e.action)).toEqual(["control_key.created", "control_key.created", "agent_app.created", "tenant.created"]);
    expect(JSON.stringify(mine)).not.toContain(tenant.agentAppId);
    expect(await audit(`?agent_app_id=${tenant.agentAppId}`, other)).toEqual([]);
  });

  it("chains each event to the previous one and verifies", async () => {
    const events = (await audit("?limit=200")).reverse();
    expect(events[0]!.prev_hash).toBe("0".repeat(64));
    for (let i = 1; i < events.length; i++) expect(events[i]!.prev_hash).toBe(events[i - 1]!.hash);
    expect(await broker.services.audit.verify(tenant.tenantId)).toEqual({ ok: true, events: events.length });
  });

  it("keeps one unbroken chain under concurrent writes", async () => {
    const fresh = await createTenant(broker, "Concurrent");
    await Promise.all(Array.from({ length: 20 }, () => mintBrokerToken(broker, fresh)));
    expect(await broker.services.audit.verify(fresh.tenantId)).toEqual({ ok: true, events: 24 });
  });

  it("reports the chain broken at the seq whose data was edited in the database", async () => {
    const victim = await createTenant(broker, "Tampered data");
    await mintBrokerToken(broker, victim);
    await mintBrokerToken(broker, victim);
    await broker.runtime.store.db.updateTable("audit_events").set({ data: JSON.stringify({ env: "live", expires_in: 900 }) }).where("tenant_id", "=", victim.tenantId).where("seq", "=", 5).execute();
    expect(await broker.services.audit.verify(victim.tenantId)).toMatchObject({ ok: false, brokenAtSeq: 5 });
    expect(await broker.services.audit.verify(tenant.tenantId)).toMatchObject({ ok: true });
  });

  it("reports the chain broken at the seq whose outcome was edited in the database", async () => {
    const victim = await createTenant(broker, "Tampered outcome");
    await mintBrokerToken(broker, victim);
    await broker.runtime.store.db.updateTable("audit_events").set({ outcome: "denied" }).where("tenant_id", "=", victim.tenantId).where("seq", "=", 3).execute();
    expect(await broker.services.audit.verify(victim.tenantId)).toMatchObject({ ok: false, brokenAtSeq: 3 });
  });

  it("reports the chain broken where a row was deleted", async () => {
    const victim = await createTenant(broker, "Deleted row");
    await mintBrokerToken(broker, victim);
    await broker.runtime.store.db.deleteFrom("audit_events").where("tenant_id", "=", victim.tenantId).where("seq", "=", 2).execute();
    expect(await broker.services.audit.verify(victim.tenantId)).toMatchObject({ ok: false, brokenAtSeq: 2 });
  });
});
