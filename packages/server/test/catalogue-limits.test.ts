/**
 * Issue 36: one tenant's catalogue must not stall or crowd out every other tenant. An OpenAPI
 * document whose `$ref`s form a DAG is refused by a budget on a worker thread while other
 * tenants are served; a tenant's own catalogue has documented limits, and an import at the limit
 * is written in one transaction on either engine.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { stringify as stringifyYaml } from "yaml";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call, mintBrokerToken } from "./support/http.js";
import { manyOperations, refDag } from "./support/openapi-documents.js";

/**
 * The longest another tenant's GET /v1/tools waited while `attack` ran. The probe runs in this
 * process, like the broker: a request that arrives while the event loop is held waits until it is
 * free, so each round counts from its start to the end of its pause as well.
 */
async function worstLatencyWhile(attack: Promise<unknown>, probe: () => Promise<void>): Promise<{ worstMs: number; rounds: number }> {
  let settled = false;
  void attack.finally(() => (settled = true));
  let worstMs = 0;
  let rounds = 0;
  while (!settled || rounds < 5) {
    const started = performance.now();
    await probe();
    await new Promise((resolve) => setTimeout(resolve, 20));
    worstMs = Math.max(worstMs, performance.now() - started - 20);
    rounds += 1;
  }
  return { worstMs, rounds };
}

const provider = (id: string) => ({ id, display_name: id, api_base_url: "http://127.0.0.1:9/api", auth: { type: "api_key", in: "header", name: "X-Key" } });

describeEachDatabase("catalogue limits", (kind) => {
  let broker: TestBroker;
  let attacker: TestTenant;
  let victim: TestTenant;

  beforeAll(async () => {
    broker = await startBroker(kind);
    attacker = await createTenant(broker, "Attacker");
    victim = await createTenant(broker, "Victim");
  });
  afterAll(() => broker?.close());

  const post = (tenant: TestTenant, path: string, body: unknown) => call(broker, "POST", path, { ...asOperator(tenant), body });

  it("refuses an OpenAPI document whose $refs form a DAG with 422 naming the budget, while another tenant's GET /v1/tools answers within 1 s", async () => {
    const token = await mintBrokerToken(broker, victim);
    expect((await call(broker, "GET", "/v1/tools", { token })).status).toBe(200);
    // Depth 15 froze the whole broker for 14–17 s when the document was dereferenced as a whole.
    const attack = post(attacker, "/v1/providers/scm/tools/import?dry_run=true", { document: JSON.stringify(refDag(15)) });
    const { worstMs, rounds } = await worstLatencyWhile(attack, async () => expect((await call(broker, "GET", "/v1/tools", { token })).status).toBe(200));
    console.log(`[catalogue-limits ${kind}] other tenant's GET /v1/tools during the attack: at worst ${worstMs.toFixed(0)} ms over ${rounds} requests`);
    expect(worstMs).toBeLessThan(1000);
    const refused = await attack;
    expectError(refused, 422, "invalid_declaration");
    expect(refused.body.error.details).toMatchObject({ path: "/document/paths/~1nodes/post", limit: "schema_nodes_per_tool", max: 10_000 });
    expect(refused.body.error.message).toContain("10000 schema objects");
  }, 60_000);

  it("imports a 1.9 MB YAML document of 1,900 operations on a worker thread, while another tenant's GET /v1/tools answers within 1 s", async () => {
    const document = manyOperations(1900, "page");
    for (const item of Object.values(document.paths) as { get: Record<string, unknown> }[]) item.get.description = "Reads one page of the archive. ".repeat(22);
    const yaml = stringifyYaml(document, { aliasDuplicateObjects: false });
    expect(yaml.length).toBeGreaterThan(1_850_000);
    expect(yaml.length).toBeLessThan(2_000_000);
    const token = await mintBrokerToken(broker, victim);
    const imported = post(attacker, "/v1/providers/scm/tools/import?dry_run=true", { document: yaml });
    const { worstMs, rounds } = await worstLatencyWhile(imported, async () => expect((await call(broker, "GET", "/v1/tools", { token })).status).toBe(200));
    console.log(`[catalogue-limits ${kind}] other tenant's GET /v1/tools while 1.9 MB of YAML is imported: at worst ${worstMs.toFixed(0)} ms over ${rounds} requests`);
    expect(worstMs).toBeLessThan(1000);
    const answer = await imported;
    expect(answer.status, answer.text.slice(0, 300)).toBe(200);
    expect(answer.body.data).toHaveLength(1900);
  }, 60_000);

  it("refuses YAML that needs more memory to parse than the import's thread has, while another tenant's GET /v1/tools answers within 1 s", async () => {
    // 1.9 MB of flow sequences: about 4 s and 340 MB of parsing, which held every tenant's requests on the request thread.
    const line = "  - [alpha, beta, gamma, delta]\n";
    const yaml = `openapi: 3.0.3\ninfo: { title: Filler, version: '1' }\npaths: {}\nx-filler:\n${line.repeat(Math.floor(1_900_000 / line.length))}`;
    const token = await mintBrokerToken(broker, victim);
    const parsed = post(attacker, "/v1/providers/scm/tools/import?dry_run=true", { document: yaml });
    const { worstMs, rounds } = await worstLatencyWhile(parsed, async () => expect((await call(broker, "GET", "/v1/tools", { token })).status).toBe(200));
    console.log(`[catalogue-limits ${kind}] other tenant's GET /v1/tools while 1.9 MB of flow YAML is parsed: at worst ${worstMs.toFixed(0)} ms over ${rounds} requests`);
    expect(worstMs).toBeLessThan(1000);
    const refused = await parsed;
    expectError(refused, 422, "invalid_declaration");
    expect(refused.body.error.details).toEqual({ path: "/document", limit: "import_memory_mb", max: 256 });
  }, 60_000);

  it("still imports a schema shared by many operations, and refuses an import whose shared schemas add up past the import's budget", async () => {
    const shared = refDag(8);
    const paths: Record<string, unknown> = {};
    for (let i = 0; i < 10; i += 1) paths[`/nodes${i}`] = shared.paths["/nodes"];
    const small = await post(attacker, "/v1/providers/scm/tools/import?dry_run=true", { document: { ...shared, paths } });
    expect(small.status, small.text).toBe(200);
    expect(small.body.data).toHaveLength(10);
    // 2^10 - 1 schema objects per operation fits a tool's budget (and 64 kB); 200 of them do not fit one import's.
    const wide = refDag(9);
    const many: Record<string, unknown> = {};
    for (let i = 0; i < 200; i += 1) many[`/nodes${i}`] = wide.paths["/nodes"];
    const refused = await post(attacker, "/v1/providers/scm/tools/import?dry_run=true", { document: { ...wide, paths: many } });
    expectError(refused, 422, "invalid_declaration");
    expect(refused.body.error.details).toMatchObject({ limit: "schema_nodes_per_import", max: 200_000 });
  }, 60_000);

  it("imports 2,000 operations (the tools-per-tenant limit) in one transaction, then refuses one tool more with catalogue_limit_reached", async () => {
    expect((await post(attacker, "/v1/providers", { declaration: provider("bulk") })).status).toBe(201);
    const imported = await post(attacker, "/v1/providers/bulk/tools/import", { document: manyOperations(2000) });
    expect(imported.status, imported.text).toBe(200);
    expect(imported.body.data).toHaveLength(2000);
    const listed = await call(broker, "GET", "/v1/providers/bulk/tools", asOperator(attacker));
    expect(listed.body.data).toHaveLength(2000);

    const declared = { name: "bulk.one_more", description: "One more", arguments_schema: { type: "object" }, risk: "low", side_effect: "read", request: { method: "GET", path: "/more" } };
    const refused = await post(attacker, "/v1/providers/bulk/tools", { declaration: declared });
    expectError(refused, 422, "catalogue_limit_reached");
    expect(refused.body.error.details).toEqual({ limit: "tools_per_tenant", max: 2000, existing: 2000, adding: 1 });
    const more = await post(attacker, "/v1/providers/bulk/tools/import?dry_run=true", { document: manyOperations(1, "extra") });
    expectError(more, 422, "catalogue_limit_reached");
    expect((await call(broker, "GET", "/v1/providers/bulk/tools", asOperator(attacker))).body.data).toHaveLength(2000);

    // The victim's catalogue is unaffected: it lists the built-in tools only, promptly.
    const token = await mintBrokerToken(broker, victim);
    const started = performance.now();
    const victims = await call(broker, "GET", "/v1/tools", { token });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(victims.body.data.some((tool: { name: string }) => tool.name.startsWith("bulk."))).toBe(false);
    // The attacker's own catalogue lists all of them.
    const own = await call(broker, "GET", "/v1/tools?provider=bulk", { token: await mintBrokerToken(broker, attacker) });
    expect(own.body.data).toHaveLength(2000);
  }, 120_000);

  it("refuses a document with more operations than one import may create, storing nothing", async () => {
    expect((await post(victim, "/v1/providers", { declaration: provider("huge") })).status).toBe(201);
    const refused = await post(victim, "/v1/providers/huge/tools/import", { document: manyOperations(2001) });
    expectError(refused, 422, "catalogue_limit_reached");
    expect(refused.body.error.details).toMatchObject({ limit: "tools_per_import", max: 2000 });
    expect((await call(broker, "GET", "/v1/providers/huge/tools", asOperator(victim))).body.data).toEqual([]);
  }, 120_000);

  it("runs one import at a time per tenant, and lets concurrent declarations take the last room only once", async () => {
    const tenant = await createTenant(broker, "Racer");
    expect((await post(tenant, "/v1/providers", { declaration: provider("race") })).status).toBe(201);
    const [first, second] = await Promise.all([
      post(tenant, "/v1/providers/race/tools/import", { document: manyOperations(1200, "left") }),
      post(tenant, "/v1/providers/race/tools/import", { document: manyOperations(1200, "right") }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 429]);
    expectError(first.status === 429 ? first : second, 429, "rate_limited");
    expect((await post(tenant, "/v1/providers/race/tools/import", { document: manyOperations(790, "more") })).status).toBe(200);
    // 1,990 tools: room for ten more, claimed by twenty declarations at once.
    const declared = (i: number) => ({ name: `race.last_${i}`, description: "One of the last", arguments_schema: { type: "object" }, risk: "low", side_effect: "read", request: { method: "GET", path: `/last/${i}` } });
    const created = await Promise.all(Array.from({ length: 20 }, (_, i) => post(tenant, "/v1/providers/race/tools", { declaration: declared(i) })));
    expect(created.filter((response) => response.status === 201)).toHaveLength(10);
    for (const refused of created.filter((response) => response.status !== 201)) expectError(refused, 422, "catalogue_limit_reached");
    expect((await call(broker, "GET", "/v1/providers/race/tools", asOperator(tenant))).body.data).toHaveLength(2000);
  }, 120_000);

  it("refuses the 101st provider of a tenant with catalogue_limit_reached", async () => {
    const tenant = await createTenant(broker, "Many providers");
    for (let i = 0; i < 100; i += 1) {
      const created = await post(tenant, "/v1/providers", { declaration: provider(`p${i}`) });
      expect(created.status, created.text).toBe(201);
    }
    const refused = await post(tenant, "/v1/providers", { declaration: provider("p100") });
    expectError(refused, 422, "catalogue_limit_reached");
    expect(refused.body.error.details).toEqual({ limit: "providers_per_tenant", max: 100, existing: 100, adding: 1 });
  }, 120_000);
});
