/**
 * Idempotency claims that arrive together are inserted by one statement (group commit): on both
 * engines, the first claim of a scope wins, whether the scope was taken before or by an earlier
 * claim of the same statement. The keys a group commit completes are updated by one statement too.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { migrateToLatest, openStore, type Store } from "../../src/store/database.js";
import { createIdempotencyQueries, type ClaimRow, type IdempotencyScope } from "../../src/invocations/idempotency-queries.js";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../support/databases.js";

describeEachDatabase("idempotency claims inserted together", (kind) => {
  let database: TestDatabase;
  let store: Store;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    store = openStore({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
    await migrateToLatest(store.db);
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  const scope = (key: string, endUserId: string | null = null): IdempotencyScope => ({ tenantId: "tenant", env: "test", agentAppId: "app", endUserId, key });
  const row = (invocationId: string): ClaimRow => ({
    request_fingerprint: "fp",
    status: "in_progress",
    invocation_id: invocationId,
    response_status: null,
    response_sealed: null,
    created_at: "2026-11-27T00:00:00.000Z",
    expires_at: "2026-11-28T00:00:00.000Z",
  });

  it("inserts the first claim of each scope and answers which ones made it", async () => {
    const queries = createIdempotencyQueries(store);
    expect(await queries.insertClaims([{ scope: scope("taken"), row: row("inv-before") }])).toEqual(new Set(["inv-before"]));

    const inserted = await queries.insertClaims([
      { scope: scope("a"), row: row("inv-a") },
      { scope: scope("taken"), row: row("inv-taken-again") },
      { scope: scope("b"), row: row("inv-b-first") },
      { scope: scope("b"), row: row("inv-b-second") },
      { scope: scope("a", "end-user"), row: row("inv-a-end-user") },
    ]);
    expect(inserted).toEqual(new Set(["inv-a", "inv-b-first", "inv-a-end-user"]));
    expect((await queries.find(scope("b")))?.invocation_id).toBe("inv-b-first");
    expect((await queries.find(scope("taken")))?.invocation_id).toBe("inv-before");
  });

  it("inserts a batch larger than one statement takes, a key claimed twice across its pieces going to the first", async () => {
    const queries = createIdempotencyQueries(store);
    const claims = Array.from({ length: 150 }, (_, i) => ({ scope: scope(i === 149 ? "big-0" : `big-${i}`), row: row(`inv-big-${i}`) }));
    const inserted = await queries.insertClaims(claims);
    expect(inserted.size).toBe(149);
    expect(inserted.has("inv-big-149")).toBe(false);
    expect((await queries.find(scope("big-0")))?.invocation_id).toBe("inv-big-0");
    expect((await queries.find(scope("big-148")))?.invocation_id).toBe("inv-big-148");
  });

  it("completes many keys in few statements, each with its own invocation and status, and no other key", async () => {
    const queries = createIdempotencyQueries(store);
    await queries.insertClaims(["c1", "c2", "c3"].map((key) => ({ scope: scope(key, key === "c2" ? "end-user" : null), row: row(`claim-${key}`) })));
    const statements = queries.completeStatements([
      { scope: scope("c1"), invocationId: "done-1", responseStatus: 200 },
      { scope: scope("c2", "end-user"), invocationId: "done-2", responseStatus: 502 },
      { scope: scope("never-claimed"), invocationId: "done-x", responseStatus: 200 },
    ]);
    // One statement per key on SQLite, one for any number of keys on PostgreSQL (store/hot-statements.ts).
    expect(statements).toHaveLength(kind === "sqlite" ? 3 : 1);
    for (const statement of statements) await store.db.executeQuery(statement);
    expect(queries.completeStatements([])).toEqual([]);
    expect(await queries.find(scope("c1"))).toMatchObject({ status: "completed", invocation_id: "done-1" });
    expect(await queries.find(scope("c2", "end-user"))).toMatchObject({ status: "completed", invocation_id: "done-2" });
    expect(await queries.find(scope("c3"))).toMatchObject({ status: "in_progress", invocation_id: "claim-c3" });
    expect(await queries.find(scope("never-claimed"))).toBeUndefined();
    const statuses = await store.db.selectFrom("idempotency_keys").select(["invocation_id", "response_status"]).where("invocation_id", "in", ["done-1", "done-2"]).orderBy("invocation_id").execute();
    expect(statuses).toEqual([
      { invocation_id: "done-1", response_status: 200 },
      { invocation_id: "done-2", response_status: 502 },
    ]);
  });
});
