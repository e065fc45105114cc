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

    it("lets a viewer list members and set their own email and Slack identity, but not names, groups or anyone else's fields (403)", async () => {
      expect((await call(broker, "GET", "/v1/members", viewer.auth)).status).toBe(200);
      expectError(await patch(viewer.auth, viewer.memberId, { display_name: "Me" }), 403, "forbidden");
      expectError(await patch(viewer.auth, viewer.memberId, { groups: ["finance"] }), 403, "forbidden");
      expectError(await patch(viewer.auth, admin.memberId, { email: "taken@example.com" }), 403, "forbidden");
      const own = await patch(viewer.auth, viewer.memberId, { email: "viewer@example.com", slack_user_id: "T01ABC:U0VIEWER" });
      expect(own.status, own.text).toBe(200);
      expect(own.body).toMatchObject({ email: "viewer@example.com", slack_user_id: "T01ABC:U0VIEWER", groups: [] });
      expect((await patch(viewer.auth, viewer.memberId, { email: null, slack_user_id: null })).status).toBe(200);
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

  const auditOf = async (memberId: string) =>
    (await broker.services.store.db.selectFrom("audit_events").selectAll().where("tenant_id", "=", tenant.tenantId).where("action", "=", "member.updated").where("target_id", "=", memberId).orderBy("seq").execute()).map((row) => ({ actor: row.actor_id, data: JSON.parse(row.data) }));

  it("changes only the fields sent, deduplicates groups, clears a field with null, and audits who changed what (contact fields old → new)", async () => {
    const member = await addMember(broker, tenant, "viewer");
    const named = await patch(admin.auth, member.memberId, { display_name: "Ana", groups: ["ops", "finance", "ops"] });
    expect(named.status, named.text).toBe(200);
    const first = await patch(member.auth, member.memberId, { email: "ana@example.com", slack_user_id: "T01ABC:U02DEF" });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ id: member.memberId, role: "viewer", email: "ana@example.com", display_name: "Ana", slack_user_id: "T01ABC:U02DEF", groups: ["finance", "ops"] });
    const second = await patch(member.auth, member.memberId, { email: null });
    expect(second.body).toMatchObject({ email: null, display_name: "Ana", slack_user_id: "T01ABC:U02DEF", groups: ["finance", "ops"] });
    const audit = await auditOf(member.memberId);
    expect(audit.map((entry) => entry.data)).toEqual([
      { changed: ["display_name", "groups"] },
      { changed: ["email", "slack_user_id"], email: { from: null, to: "ana@example.com" }, slack_user_id: { from: null, to: "T01ABC:U02DEF" } },
      { changed: ["email"], email: { from: "ana@example.com", to: null } },
    ]);
    expect(audit[0]!.actor).not.toBe(audit[1]!.actor);
  });

  it("refuses another member's email or Slack identity even to an admin (403), changing nothing, not even the fields sent with it", async () => {
    const bo = await addMember(broker, tenant, "admin", { display_name: "Bo" });
    expect((await patch(bo.auth, bo.memberId, { email: "bo@example.com" })).status).toBe(200);
    for (const body of [{ email: "mallory@example.com" }, { slack_user_id: "T01ABC:U0MALLORY" }, { email: null }, { display_name: "Bob", email: "mallory@example.com" }]) {
      const refused = await patch(admin.auth, bo.memberId, body);
      expectError(refused, 403, "forbidden");
      expect(refused.body.error.message).toContain("set their own");
    }
    const stored = (await call(broker, "GET", "/v1/members", asOperator(tenant))).body.data.find((m: { id: string }) => m.id === bo.memberId);
    expect(stored).toMatchObject({ email: "bo@example.com", display_name: "Bo", slack_user_id: null });
    expect((await auditOf(bo.memberId)).map((entry) => entry.data.changed)).toEqual([["display_name"], ["email"]]);
  });

  it("refuses a Slack identity another member of the tenant has (409 conflict), but not one a member of another tenant has", async () => {
    const [a, b] = [await addMember(broker, tenant, "admin"), await addMember(broker, tenant, "admin")];
    expect((await patch(a.auth, a.memberId, { slack_user_id: "T01ABC:U0SAME" })).status).toBe(200);
    expectError(await patch(b.auth, b.memberId, { slack_user_id: "T01ABC:U0SAME" }), 409, "conflict");
    expect((await patch(a.auth, a.memberId, { slack_user_id: "T01ABC:U0SAME" })).status).toBe(200);
    const outsider = await adminOf(broker, other);
    expect((await patch(asOperator(other), outsider.memberId, { slack_user_id: "T01ABC:U0SAME" })).status).toBe(200);
  });

  it("validates the body (400): empty, unknown fields, a malformed email, Slack id or group name, too many groups", async () => {
    for (const body of [{}, { role: "admin" }, { email: "not an email" }, { slack_user_id: "U02DEF" }, { groups: ["has space"] }, { groups: Array.from({ length: 51 }, (_, i) => `g${i}`) }, { display_name: "" }]) {
      expectError(await patch(admin.auth, viewer.memberId, body), 400, "invalid_request");
    }
  });
});
