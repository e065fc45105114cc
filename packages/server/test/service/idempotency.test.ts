/**
 * Idempotency keys (src/invocations/idempotency.ts over idempotency-queries.ts) on a real
 * database, with an injected clock: of many concurrent claims of one key exactly one claims it,
 * from one broker or two; a finished call's key replays it; a released key is claimable again
 * unless its request was announced as sending; a claim left in progress past
 * IN_PROGRESS_STALE_MS is taken over, a sending one reported as an abandoned send; and of two
 * approved calls starting under one key, exactly one marks it sending.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { manualClock } from "../../src/clock.js";
import { createIdempotency, IDEMPOTENCY_TTL_MS, IN_PROGRESS_STALE_MS, type IdempotencyScope } from "../../src/invocations/idempotency.js";
import { createIdempotencyQueries } from "../../src/invocations/idempotency-queries.js";
import { migrateToLatest, openStore, type Store } from "../../src/store/database.js";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../support/databases.js";

type Outcome = PromiseSettledResult<{ kind: string }>;
const kindOf = (outcome: Outcome) => (outcome.status === "fulfilled" ? outcome.value.kind : (outcome.reason as { code?: string }).code);

describeEachDatabase("idempotency keys on a real database", (kind) => {
  const clock = manualClock(new Date("2026-11-27T00:00:00Z"));
  let database: TestDatabase;
  /**
   * Two stores on one database on PostgreSQL: two broker instances. SQLite is one broker's, on one
   * connection (a second in this process would wait for the first's lock without letting it go on).
   */
  let stores: Store[];
  const other = () => stores.at(-1)!;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    stores = (kind === "postgres" ? [0, 1] : [0]).map(() => openStore({ databaseUrl: database.databaseUrl, dataDir: database.dataDir }));
    await migrateToLatest(stores[0]!.db);
  });
  afterAll(async () => {
    await Promise.all(stores?.map((store) => store.close()) ?? []);
    await database?.drop();
  });

  const idempotencyOn = (store: Store) => createIdempotency({ queries: createIdempotencyQueries(store), clock });
  let keys = 0;
  const freshScope = (): IdempotencyScope => ({ tenantId: "tenant", env: "test", agentAppId: "app", endUserId: null, key: `key-${(keys += 1)}` });
  const stored = (scope: IdempotencyScope) => createIdempotencyQueries(stores[0]!).find(scope);

  it("lets exactly one of many concurrent claims of a key claim it, in one broker or two; the others are told it is in progress", async () => {
    const [first, second] = [idempotencyOn(stores[0]!), idempotencyOn(other())];
    const scope = freshScope();
    const claims = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? first! : second!).claim(scope, "fp", `inv-${i}`));
    const outcomes = await Promise.allSettled(claims);
    const kinds = outcomes.map(kindOf);
    expect(kinds.filter((k) => k === "claimed")).toHaveLength(1);
    expect(kinds.filter((k) => k === "request_in_progress")).toHaveLength(19);
    expect((await stored(scope))?.invocation_id).toBe(`inv-${kinds.indexOf("claimed")}`);
  });

  it("replays a finished call's invocation under its key, and refuses another request under it", async () => {
    const idempotency = idempotencyOn(stores[0]!);
    const scope = freshScope();
    expect(await idempotency.claim(scope, "fp", "inv-done")).toEqual({ kind: "claimed" });
    await stores[0]!.transaction(async (trx) => {
      for (const statement of idempotency.completeStatements([{ scope, invocationId: "inv-done", responseStatus: 200 }])) await trx.executeQuery(statement);
    });
    const again = await Promise.allSettled([idempotency.claim(scope, "fp", "inv-retry"), idempotencyOn(other()).claim(scope, "fp", "inv-retry-2")]);
    expect(again).toEqual([
      { status: "fulfilled", value: { kind: "replay", invocationId: "inv-done" } },
      { status: "fulfilled", value: { kind: "replay", invocationId: "inv-done" } },
    ]);
    await expect(idempotency.claim(scope, "other-fp", "inv-other")).rejects.toMatchObject({ code: "idempotency_key_reused" });
  });

  it("forgets a released key, so the caller may claim it again, but keeps one whose request was announced as sending", async () => {
    const idempotency = idempotencyOn(stores[0]!);
    const released = freshScope();
    await idempotency.claim(released, "fp", "inv-refused");
    await idempotency.release(released);
    expect(await idempotency.claim(released, "fixed-fp", "inv-fixed")).toEqual({ kind: "claimed" });

    const sending = freshScope();
    await idempotency.claim(sending, "fp", "inv-sending");
    await idempotency.markSending(sending, "inv-sending", stores[0]!.db);
    await idempotency.release(sending);
    expect(await stored(sending)).toMatchObject({ status: "sending", invocation_id: "inv-sending" });
    await expect(idempotency.claim(sending, "fp", "inv-duplicate")).rejects.toMatchObject({ code: "request_in_progress" });
  });

  it("takes over a claim left in progress for IN_PROGRESS_STALE_MS (its request died before sending), not sooner", async () => {
    const idempotency = idempotencyOn(stores[0]!);
    const scope = freshScope();
    await idempotency.claim(scope, "fp", "inv-died");
    clock.advance(IN_PROGRESS_STALE_MS - 1_000);
    await expect(idempotency.claim(scope, "fp", "inv-early")).rejects.toMatchObject({ code: "request_in_progress" });
    clock.advance(1_000);
    expect(await idempotency.claim(scope, "fp", "inv-takeover")).toEqual({ kind: "claimed" });
    expect(await stored(scope)).toMatchObject({ status: "in_progress", invocation_id: "inv-takeover" });
  });

  it("answers abandoned_send for a key whose request was sending when it was abandoned, and never takes it over", async () => {
    const idempotency = idempotencyOn(stores[0]!);
    const scope = freshScope();
    await idempotency.claim(scope, "fp", "inv-sent");
    await idempotency.markSending(scope, "inv-sent", stores[0]!.db);
    clock.advance(IN_PROGRESS_STALE_MS);
    const outcomes = await Promise.all([idempotency.claim(scope, "fp", "inv-a"), idempotencyOn(other()).claim(scope, "fp", "inv-b")]);
    expect(outcomes).toEqual([
      { kind: "abandoned_send", invocationId: "inv-sent" },
      { kind: "abandoned_send", invocationId: "inv-sent" },
    ]);
    expect(await stored(scope)).toMatchObject({ status: "sending", invocation_id: "inv-sent" });
  });

  it("claims an expired key afresh", async () => {
    const idempotency = idempotencyOn(stores[0]!);
    const scope = freshScope();
    await idempotency.claim(scope, "fp", "inv-yesterday");
    clock.advance(IDEMPOTENCY_TTL_MS);
    expect(await idempotency.claim(scope, "other-fp", "inv-today")).toEqual({ kind: "claimed" });
    expect((await stored(scope))?.invocation_id).toBe("inv-today");
  });

  it("lets exactly one of two approved calls starting at once under a free key mark it sending", async () => {
    const scope = freshScope();
    const start = (store: Store, invocationId: string) => store.transaction((trx) => idempotencyOn(store).markStarted(scope, { requestFingerprint: "fp", invocationId }, trx));
    const outcomes = await Promise.allSettled([start(stores[0]!, "inv-approved-1"), start(other(), "inv-approved-2")]);
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    const winner = outcomes[0]!.status === "fulfilled" ? "inv-approved-1" : "inv-approved-2";
    expect(outcomes.find((outcome) => outcome.status === "rejected")).toMatchObject({ reason: { code: "idempotency_key_reused" } });
    expect(await stored(scope)).toMatchObject({ status: "sending", invocation_id: winner });
  });

  it("lets an approved call take over its own request's claim, but not another call's", async () => {
    const idempotency = idempotencyOn(stores[0]!);
    const scope = freshScope();
    await idempotency.claim(scope, "fp", "inv-request");
    const start = (invocationId: string, claimedAs?: string) =>
      stores[0]!.transaction((trx) => idempotency.markStarted(scope, { requestFingerprint: "fp", invocationId, ...(claimedAs ? { claimedAs } : {}) }, trx));
    await expect(start("inv-intruder")).rejects.toMatchObject({ code: "request_in_progress" });
    await start("inv-approved", "inv-request");
    expect(await stored(scope)).toMatchObject({ status: "sending", invocation_id: "inv-approved" });
  });
});
