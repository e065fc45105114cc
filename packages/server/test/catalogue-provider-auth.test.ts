/**
 * Issue 36, item 8: a provider `auth` that is not an object ("x", 7, []) is refused with 422
 * invalid_declaration at /auth; one stored before that check (read straight into the table here)
 * is left out of what callers see and flagged to its tenant, never a 500 for every listing.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call, mintBrokerToken } from "./support/http.js";
import { execute } from "./support/tool-execution.js";

const API_BASE_URL = "http://127.0.0.1:9/api";
const provider = (id: string, auth: unknown) => ({ id, display_name: id, api_base_url: API_BASE_URL, auth });
const API_KEY_AUTH = { type: "api_key", in: "header", name: "X-Api-Key" };
const readTool = (providerId: string) => ({
  name: `${providerId}.read`,
  description: "Reads.",
  arguments_schema: { type: "object", properties: {} },
  risk: "low",
  side_effect: "read",
  request: { method: "GET", path: "/read" },
});

describeEachDatabase("a provider auth that is not an object", (kind) => {
  let broker: TestBroker;
  let tenant: TestTenant;

  beforeAll(async () => {
    broker = await startBroker(kind);
    tenant = await createTenant(broker);
  });
  afterAll(() => broker?.close());

  const operator = () => asOperator(tenant);
  const providerIds = async () => (await call(broker, "GET", "/v1/providers", operator())).body.data.map((p: { id: string }) => p.id);

  it.each([["a string", "x"], ["a number", 7], ["an array", []], ["null", null]])("refuses an auth that is %s with 422 at /auth, and stores nothing", async (_, auth) => {
    const refused = await call(broker, "POST", "/v1/providers", { ...operator(), body: { declaration: provider("broken", auth) } });
    expectError(refused, 422, "invalid_declaration");
    expect(refused.body.error.details.path).toBe("/auth");
    expect(await providerIds()).not.toContain("broken");
  });

  it("refuses a patch that makes auth something other than an object", async () => {
    expect((await call(broker, "POST", "/v1/providers", { ...operator(), body: { declaration: provider("patched", API_KEY_AUTH) } })).status).toBe(201);
    const refused = await call(broker, "PATCH", "/v1/providers/patched", { ...operator(), body: { declaration: { auth: "x" } } });
    expectError(refused, 422, "invalid_declaration");
    expect(refused.body.error.details.path).toBe("/auth");
    expect((await call(broker, "GET", "/v1/providers/patched", operator())).body.auth_modes).toEqual(["api_key"]);
  });

  it("flags a provider stored before the check, leaves it and its tools out of what agents see, and takes a repair", async () => {
    // A tool declared under it while its row was sound, then the row as an older broker could store it.
    expect((await call(broker, "POST", "/v1/providers", { ...operator(), body: { declaration: provider("legacy", API_KEY_AUTH) } })).status).toBe(201);
    expect((await call(broker, "POST", "/v1/providers/legacy/tools", { ...operator(), body: { declaration: readTool("legacy") } })).status).toBe(201);
    await broker.services.store.db
      .updateTable("catalogue_providers")
      .set({ declaration: JSON.stringify(provider("legacy", "x")), updated_at: new Date().toISOString() })
      .where("tenant_id", "=", tenant.tenantId)
      .where("provider_id", "=", "legacy")
      .execute();
    // Any write through the API makes this instance read the tenant's declarations again.
    expect((await call(broker, "POST", "/v1/providers", { ...operator(), body: { declaration: { ...provider("sound", API_KEY_AUTH), id: "sound" } } })).status).toBe(201);

    const listed = await call(broker, "GET", "/v1/providers", operator());
    expect(listed.status, listed.text).toBe(200);
    const legacy = listed.body.data.find((p: { id: string }) => p.id === "legacy");
    expect(legacy).toMatchObject({ auth_modes: [], declaration_problem: { path: "/auth", message: expect.any(String) } });
    expect(listed.body.data.find((p: { id: string }) => p.id === "sound")).not.toHaveProperty("declaration_problem");
    const one = await call(broker, "GET", "/v1/providers/legacy", operator());
    expect(one.status, one.text).toBe(200);
    expect(one.body.declaration_problem.path).toBe("/auth");

    const token = await mintBrokerToken(broker, tenant);
    const tools = await call(broker, "GET", "/v1/tools", { token });
    expect(tools.status, tools.text).toBe(200);
    expect(tools.body.data.map((t: { name: string }) => t.name)).not.toContain("legacy.read");
    expectError(await execute(broker, token, { tool_name: "legacy.read" }), 404, "not_found");
    expect((await call(broker, "GET", "/v1/tools", asOperator(tenant))).status).toBe(200);

    const repaired = await call(broker, "PATCH", "/v1/providers/legacy", { ...operator(), body: { declaration: { auth: API_KEY_AUTH } } });
    expect(repaired.status, repaired.text).toBe(200);
    expect(repaired.body).not.toHaveProperty("declaration_problem");
    expect((await call(broker, "GET", "/v1/tools", { token })).body.data.map((t: { name: string }) => t.name)).toContain("legacy.read");
  });

  it("lets its tenant delete a flagged provider", async () => {
    await broker.services.store.db
      .insertInto("catalogue_providers")
      .values({ id: randomUUID(), tenant_id: tenant.tenantId, provider_id: "stale", env: "both", declaration: JSON.stringify(provider("stale", [])), created_at: new Date().toISOString(), updated_at: new Date().toISOString() })
      .execute();
    expect((await call(broker, "DELETE", "/v1/providers/stale", operator())).status).toBe(204);
    expect(await providerIds()).not.toContain("stale");
  });
});
