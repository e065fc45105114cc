/**
 * Issue 36, item 9: an end user deleted while their OAuth callback is exchanging the code never
 * gains the connection. The fake provider holds its token answer until the delete has answered;
 * the callback then stores nothing, revokes the grant it just obtained, and says why.
 */
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { outboxEvents } from "./support/approvals.js";
import { describeEachDatabase } from "./support/databases.js";
import { sleep } from "./support/races.js";
import { expectError } from "./support/expect.js";
import { startOnConnectPage } from "./support/connect.js";
import { asOperator, call } from "./support/http.js";
import { startToolWorld, type ToolWorld } from "./support/tool-execution.js";

describeEachDatabase("deleting an end user during their OAuth callback", (kind) => {
  let world: ToolWorld;

  beforeAll(async () => {
    world = await startToolWorld(kind);
  });
  afterAll(() => world.close());

  /** A connect session for the end user, followed as a browser up to the provider's redirect back. */
  async function approvedAtProvider(endUserId: string) {
    const session = await call(world.broker, "POST", "/v1/connect-sessions", { token: world.tenant.testKey, body: { end_user_id: endUserId, providers: ["scm"] } });
    expect(session.status, session.text).toBe(201);
    return startOnConnectPage(world.broker, session.body.connect_url as string, "scm");
  }

  const connectionsOf = async (endUserId: string) =>
    (await call(world.broker, "GET", `/v1/connections?end_user_id=${endUserId}`, asOperator(world.tenant))).body.data as { status: string }[];

  it("stores nothing for a callback whose token answer arrives after the delete, revokes that grant and answers oauth_state_invalid", async () => {
    const { callbackPath, cookie } = await approvedAtProvider("erin");
    const held = world.fakes.github.holdNextTokenRequest();
    const callback = call(world.broker, "GET", callbackPath, { headers: { cookie } });
    await held.arrived;

    const deleted = await call(world.broker, "DELETE", "/v1/end-users/erin", asOperator(world.tenant));
    expect(deleted.body).toEqual({ end_user_id: "erin", connections_revoked: 0, secret_items_deleted: 0 });
    const revocationsBefore = world.fakes.github.stats.revocations;
    held.release();

    const answer = await callback;
    expectError(answer, 400, "oauth_state_invalid");
    expect(answer.body.error).toMatchObject({ message: "the end user was deleted while this connection was being made; nothing was stored", details: { reason: "end_user_deleted" } });
    expect(await connectionsOf("erin")).toEqual([]);
    expect(world.fakes.github.stats.revocations).toBe(revocationsBefore + 1);
    const created = await outboxEvents(world.broker, world.tenant.tenantId, "connection.created");
    expect(created.filter((event) => event.data.end_user_id === "erin")).toEqual([]);
  });

  it("counts and revokes a connection whose callback stored it before the delete", async () => {
    const { callbackPath, cookie } = await approvedAtProvider("frank");
    const stored = await call(world.broker, "GET", callbackPath, { headers: { cookie } });
    expect(stored.status, stored.text).toBe(200);
    const deleted = await call(world.broker, "DELETE", "/v1/end-users/frank", asOperator(world.tenant));
    expect(deleted.body).toEqual({ end_user_id: "frank", connections_revoked: 1, secret_items_deleted: 0 });
    expect((await connectionsOf("frank")).map((connection) => connection.status)).toEqual(["revoked"]);
  });

  // PostgreSQL runs the callback's store and the delete side by side; SQLite runs one writer at a time.
  (kind === "postgres" ? it : it.skip)("makes a delete that arrives while a callback stores its connection wait for it, then count and revoke it", async () => {
    const { callbackPath, cookie } = await approvedAtProvider("grace");
    // The callback's transaction stops at the audit chain lock, holding the flow's state.
    const blocker = new pg.Client({ connectionString: world.broker.database.databaseUrl });
    await blocker.connect();
    /** Polls `probe` until it answers, failing (and so releasing the blocker below) instead of hanging. */
    const pollUntil = async <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const answer = await probe();
        if (answer !== undefined) return answer;
        if (Date.now() > deadline) {
          const { rows } = await blocker.query("select pid, state, wait_event_type, wait_event, left(query, 120) as query from pg_stat_activity where datname = current_database()");
          throw new Error(`gave up waiting for ${what}: ${JSON.stringify(rows)}`);
        }
        await sleep(10);
      }
    };
    // Backends are told apart by the locks they hold, not by counting waiters: under load another
    // audited write (a connect session's, say) may be waiting for the same audit chain lock.
    const waiters = async () => {
      const { rows } = await blocker.query<{ callback: number; delete_at_row: number; delete_at_chain: number }>(
        `select
           count(*) filter (where w.locktype = 'advisory' and h.mode = 'RowShareLock')::int as callback,
           count(*) filter (where w.locktype = 'transactionid' and h.mode = 'RowExclusiveLock')::int as delete_at_row,
           count(*) filter (where w.locktype = 'advisory' and h.mode = 'RowExclusiveLock')::int as delete_at_chain
         from pg_locks w join pg_locks h on h.pid = w.pid and h.granted and h.locktype = 'relation' and h.relation = 'oauth_states'::regclass
         where not w.granted and h.database = (select oid from pg_database where datname = current_database())`,
      );
      return rows[0]!;
    };
    /** The callback holds its flow's state row (FOR UPDATE) and waits for the audit chain lock. */
    const callbackWaiting = () => pollUntil("the callback to wait for the audit chain lock", async () => ((await waiters()).callback > 0 ? true : undefined));
    /** The delete waits for the state row the callback holds, or (had it not) went past it to the audit chain. */
    const deleteBlockedOn = () =>
      pollUntil("the delete to wait for a lock", async () => {
        const found = await waiters();
        if (found.delete_at_row > 0) return "state row" as const;
        if (found.delete_at_chain > 0) return "audit chain" as const;
        return undefined;
      });
    const inFlight: Promise<unknown>[] = [];
    try {
      await blocker.query("begin");
      await blocker.query("select pg_advisory_xact_lock(hashtextextended('audit:' || $1::text, 0))", [world.tenant.tenantId]);
      const callback = call(world.broker, "GET", callbackPath, { headers: { cookie } });
      inFlight.push(callback);
      await callbackWaiting();
      const deleting = call(world.broker, "DELETE", "/v1/end-users/grace", asOperator(world.tenant));
      inFlight.push(deleting);
      // The delete waits for the state the callback holds, instead of finding no connection and moving on to its audit entry.
      expect(await deleteBlockedOn()).toBe("state row");
      await blocker.query("rollback");
      expect((await callback).status).toBe(200);
      expect((await deleting).body).toEqual({ end_user_id: "grace", connections_revoked: 1, secret_items_deleted: 0 });
      expect((await connectionsOf("grace")).map((connection) => connection.status)).toEqual(["revoked"]);
    } finally {
      // Let the requests finish (the lock goes with the blocker's session) before the broker closes.
      await blocker.end();
      await Promise.allSettled(inFlight);
    }
  });
});
