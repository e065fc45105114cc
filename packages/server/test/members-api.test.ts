/** GET /v1/members and PATCH /v1/members/{id}: what approvals know of members (email, name, Slack identity, groups). */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call, mintBrokerToken } from "./support/http.js";
import { addMember, adminOf, type TestMember } from "./support/approval-votes.js";

describeEachDatabase("members API", (kind) => {
  let broker: TestBroker;
  let tenant: TestTenant;
  let other: TestTenant;
  let admin: TestMember;
  let viewer: TestMember;

  beforeAll(async () => {
    broker = await startBroker(kind);
    tenant = await createTenant(broker, "Acme");
    other = await createTenant(broker, "Other");
    admin = await adminOf(broker, tenant);
    viewer = await addMember(broker, tenant, "viewer");
  });
  afterAll(() => broker.close());

  const patch = (auth: { token: string; tenant: string }, id: string, body: unknown) => call(broker, "PATCH", `/v1/members/${id}`, { ...auth, body });

  describe("authentication and tenant isolation", () => {
    it("refuses both routes without an operator session (401), including for control keys and broker JWTs", async () => {
      for (const token of [undefined, tenant.testKey, await mintBrokerToken(broker, tenant)]) {
        const auth = token ? { token } : {};
        expectError(await call(broker, "GET", "/v1/members", auth), 401, "unauthorized");
        expectError(await call(broker, "PATCH", `/v1/members/${viewer.memberId}`, { ...auth, body: { display_name: "x" } }), 401, "unauthorized");
      }
    });

    it("lets a viewer list members but not change them (403)", async () => {
      expect((await call(broker, "GET", "/v1/members", viewer.auth)).status).toBe(200);
      expectError(await patch(viewer.auth, viewer.memberId, { display_name: "Me" }), 403, "forbidden");
    });

    it("neither lists nor changes another tenant's member (404), which stays as it was", async () => {
      const listed = await call(broker, "GET", "/v1/members", asOperator(other));
      expect(listed.body.data.map((m: { id: string }) => m.id)).not.toContain(viewer.memberId);
      expectError(await patch(asOperator(other), viewer.memberId, { groups: ["finance"] }), 404, "not_found");
      expectError(await patch(asOperator(tenant), randomUUID(), { groups: ["finance"] }), 404, "not_found");
      const mine = (await call(broker, "GET", "/v1/members", asOperator(tenant))).body.data.find((m: { id: string }) => m.id === viewer.memberId);
      expect(mine.groups).toEqual([]);
    });
  });

  it("lists the tenant's members with role and profile, oldest first", async () => {
    const listed = await call(broker, "GET", "/v1/members", asOperator(tenant));
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((m: { id: string }) => m.id).slice(0, 2)).toEqual([admin.memberId, viewer.memberId]);
    expect(listed.body.data[0]).toMatchObject({ role: "admin", subject: tenant.operatorSubject, email: null, display_name: null, slack_user_id: null, groups: [] });
  });

  it("changes only the fields sent, deduplicates groups, clears a field with null, and audits who changed what", async () => {
    const member = await addMember(broker, tenant, "viewer");
    const first = await patch(admin.auth, member.memberId, { email: "ana@example.com", display_name: "Ana", slack_user_id: "T01ABC:U02DEF", groups: ["ops", "finance", "ops"] });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ id: member.memberId, role: "viewer", email: "ana@example.com", display_name: "Ana", slack_user_id: "T01ABC:U02DEF", groups: ["finance", "ops"] });
    const second = await patch(admin.auth, member.memberId, { email: null });
    expect(second.body).toMatchObject({ email: null, display_name: "Ana", groups: ["finance", "ops"] });
    const audit = await broker.services.store.db.selectFrom("audit_events").selectAll().where("tenant_id", "=", tenant.tenantId).where("action", "=", "member.updated").where("target_id", "=", member.memberId).execute();
    expect(audit.map((row) => JSON.parse(row.data))).toEqual([{ changed: ["display_name", "email", "groups", "slack_user_id"] }, { changed: ["email"] }]);
  });

  it("refuses a Slack identity another member of the tenant has (409 conflict), but not one a member of another tenant has", async () => {
    const [a, b] = [await addMember(broker, tenant, "admin"), await addMember(broker, tenant, "admin")];
    expect((await patch(admin.auth, a.memberId, { slack_user_id: "T01ABC:U0SAME" })).status).toBe(200);
    expectError(await patch(admin.auth, b.memberId, { slack_user_id: "T01ABC:U0SAME" }), 409, "conflict");
    expect((await patch(admin.auth, a.memberId, { slack_user_id: "T01ABC:U0SAME" })).status).toBe(200);
    const outsider = await adminOf(broker, other);
    expect((await patch(asOperator(other), outsider.memberId, { slack_user_id: "T01ABC:U0SAME" })).status).toBe(200);
  });

  it("validates the body (400): empty, unknown fields, a malformed email, Slack id or group name, too many groups", async () => {
    for (const body of [{}, { role: "admin" }, { email: "not an email" }, { slack_user_id: "U02DEF" }, { groups: ["has space"] }, { groups: Array.from({ length: 51 }, (_, i) => `g${i}`) }, { display_name: "" }]) {
      expectError(await patch(admin.auth, viewer.memberId, body), 400, "invalid_request");
    }
  });
});
