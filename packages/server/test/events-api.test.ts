/**
 * Issue 41: `GET /v1/events`, the read side of the outbox that `toolbroker listen` tails. Operator
 * credential with the tenant header, any member; one tenant never sees another's events; oldest
 * first, paged with an opaque cursor, filtered by `since` and `type`.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call } from "./support/http.js";

describeEachDatabase("GET /v1/events", (kind) => {
  let broker: TestBroker;
  let acme: TestTenant;
  let globex: TestTenant;
  const emitted: string[] = [];

  const emit = (tenant: TestTenant, type: "webhook.test" | "connection.revoked" | "approval.requested", data: Record<string, unknown>) =>
    broker.services.store.transaction((trx) => broker.services.events.emitIn({ tenantId: tenant.tenantId, type, data }, trx), { retryOnConflict: false });

  beforeAll(async () => {
    broker = await startBroker(kind);
    [acme, globex] = [await createTenant(broker, "Acme"), await createTenant(broker, "Globex")];
    // A few milliseconds apart: events of the same millisecond come in id order.
    for (let n = 0; n < 5; n += 1) {
      emitted.push(await emit(acme, n === 2 ? "connection.revoked" : "webhook.test", { n }));
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    await emit(globex, "webhook.test", { secret_of: "globex" });
  });
  afterAll(async () => broker?.close());

  it("refuses a caller without an operator credential, or naming a tenant it is not a member of, with 401", async () => {
    expectError(await call(broker, "GET", "/v1/events"), 401, "unauthorized");
    expectError(await call(broker, "GET", "/v1/events", { token: acme.testKey }), 401, "unauthorized");
    expectError(await call(broker, "GET", "/v1/events", { token: acme.operatorToken, tenant: globex.tenantId }), 401, "unauthorized");
  });

  it("lists the tenant's own events oldest first, with the data a webhook carries, never another tenant's", async () => {
    const listed = await call(broker, "GET", "/v1/events", asOperator(acme));
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data.map((event: { id: string }) => event.id)).toEqual(emitted);
    expect(listed.body.data[2]).toMatchObject({ type: "connection.revoked", data: { n: 2 }, occurred_at: expect.stringMatching(/Z$/) });
    expect(listed.text).not.toContain("globex");
    expect(listed.body.next_cursor).toBeNull();
  });

  it("pages with next_cursor, and filters by type and since", async () => {
    const first = await call(broker, "GET", "/v1/events?limit=2", asOperator(acme));
    const second = await call(broker, "GET", `/v1/events?limit=2&cursor=${first.body.next_cursor}`, asOperator(acme));
    const third = await call(broker, "GET", `/v1/events?limit=2&cursor=${second.body.next_cursor}`, asOperator(acme));
    expect([...first.body.data, ...second.body.data, ...third.body.data].map((event: { id: string }) => event.id)).toEqual(emitted);
    expect(third.body.next_cursor).toBeNull();

    const revoked = await call(broker, "GET", "/v1/events?type=connection.revoked", asOperator(acme));
    expect(revoked.body.data.map((event: { id: string }) => event.id)).toEqual([emitted[2]]);
    const future = await call(broker, "GET", `/v1/events?since=${new Date(Date.now() + 60_000).toISOString()}`, asOperator(acme));
    expect(future.body.data).toEqual([]);
  });

  it("shows viewers an approval.requested event's end_user_url as null (the link decides for the end user); admins read it", async () => {
    const url = "http://127.0.0.1:1/approve/secret-link-token";
    const id = await emit(globex, "approval.requested", { approval_id: "a-1", end_user_url: url });
    const issuer = broker.runtime.developmentIssuer!;
    await broker.services.tenants.addMember(globex.tenantId, { issuer: issuer.issuer, subject: "events-viewer", role: "viewer" }, "test");
    const viewer = await call(broker, "GET", "/v1/events?type=approval.requested", { token: await issuer.issue("events-viewer"), tenant: globex.tenantId });
    expect(viewer.status, viewer.text).toBe(200);
    expect(viewer.body.data).toEqual([expect.objectContaining({ id, data: { approval_id: "a-1", end_user_url: null } })]);
    expect(viewer.text).not.toContain("secret-link-token");
    const admin = await call(broker, "GET", "/v1/events?type=approval.requested", asOperator(globex));
    expect(admin.body.data[0].data.end_user_url).toBe(url);
  });

  it("answers 400, not 500, for a since the format allows but no clock holds (a leap second)", async () => {
    expectError(await call(broker, "GET", "/v1/events?since=2026-06-30T23:59:60Z", asOperator(acme)), 400, "invalid_request");
  });

  it("answers 400 invalid_request for a forged cursor, an unknown type or a malformed since", async () => {
    const forged = Buffer.from(JSON.stringify({ occurred_at: "yesterday", id: "x" })).toString("base64url");
    for (const query of [`cursor=${forged}`, "cursor=not-a-cursor", "type=nope", "since=soon", "limit=0"]) {
      expectError(await call(broker, "GET", `/v1/events?${query}`, asOperator(acme)), 400, "invalid_request");
    }
  });
});
