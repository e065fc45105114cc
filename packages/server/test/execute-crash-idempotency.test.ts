/**
 * A crash can never send a write twice. Before a write's request leaves under an idempotency key,
 * the broker records that it is being sent; a broker killed with SIGKILL mid-call leaves that mark,
 * and once the claim is stale the same key answers 409 outcome_unknown (the invocation is marked
 * unknown in the audit log) instead of sending the write again. A read may simply run again.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { IN_PROGRESS_STALE_MS } from "../src/invocations/idempotency.js";
import { startSiblingProcess, type BrokerProcess } from "./support/broker-process.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { connect, execute, startToolWorld, tenantRows, type ToolWorld } from "./support/tool-execution.js";

async function waitFor<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describeEachDatabase("idempotency across a broker crash", (kind) => {
  const clock = manualClock(new Date());
  let world: ToolWorld;
  let scm: string;
  let doomed: BrokerProcess;

  beforeAll(async () => {
    world = await startToolWorld(kind, { clock });
    scm = await connect(world, "scm");
    doomed = await startSiblingProcess(world.broker.config, world.fakes.github.env);
  });
  afterAll(async () => {
    await doomed?.stop();
    await world.close();
  });

  const posts = () => world.fakes.github.stats.apiCalls.filter((c) => c.method === "POST").length;
  const keyRow = async (key: string) => (await tenantRows(world.broker, "idempotency_keys", world.tenant.tenantId)).find((row) => row.key === key);

  it("answers 409 outcome_unknown for a write whose broker died while sending it, and never sends it again", async () => {
    const writeKey = `crash-write-${randomUUID()}`;
    const readKey = `crash-read-${randomUUID()}`;
    const write = { tool_name: "scm.create_issue", arguments: { owner: "octocat", repo: "hello-world", title: "Exactly once" }, connected_account_id: scm, idempotency_key: writeKey };
    const read = { tool_name: "scm.get_repository", arguments: { owner: "octocat", repo: "hello-world" }, connected_account_id: scm, idempotency_key: readKey };
    world.fakes.github.setApiDelay(60_000);
    const before = posts();
    const crashedBroker = { ...world.broker, url: doomed.url };
    void execute(crashedBroker, world.jwt, write).catch(() => undefined);
    void execute(crashedBroker, world.jwt, read).catch(() => undefined);

    // The write was announced before its request left; the read was not.
    const sending = await waitFor(async () => ((await keyRow(writeKey))?.status === "sending" && posts() === before + 1 ? await keyRow(writeKey) : undefined), "the write's sending mark");
    const invocation = (await tenantRows(world.broker, "invocations", world.tenant.tenantId)).find((row) => row.id === sending.invocation_id);
    expect(invocation?.status).toBe("sending");
    await waitFor(async () => ((await keyRow(readKey)) ? true : undefined), "the read's claim");
    expect((await keyRow(readKey))?.status).toBe("in_progress");

    doomed.child.kill("SIGKILL");
    await doomed.exited;
    world.fakes.github.setApiDelay(0);

    // While the claim is fresh the request might still be running somewhere: 409 request_in_progress.
    expectError(await execute(world.broker, world.jwt, write), 409, "request_in_progress");

    clock.advance(IN_PROGRESS_STALE_MS + 60_000); // the manual clock stood still while the test set up
    const unknown = await execute(world.broker, world.jwt, write);
    expectError(unknown, 409, "outcome_unknown");
    expect(unknown.body.error.details).toMatchObject({ invocation_id: sending.invocation_id, idempotency_key: writeKey });
    const again = await execute(world.broker, world.jwt, write);
    expectError(again, 409, "outcome_unknown");
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(posts()).toBe(before + 1);

    const settled = (await tenantRows(world.broker, "invocations", world.tenant.tenantId)).find((row) => row.id === sending.invocation_id);
    expect(settled).toMatchObject({ status: "unknown", error_code: "outcome_unknown" });
    const audit = (await tenantRows(world.broker, "audit_events", world.tenant.tenantId)).filter((row) => row.target_id === sending.invocation_id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: "tool.executed", outcome: "unknown" });

    // The read was never announced: it is simply run again.
    const reread = await execute(world.broker, world.jwt, read);
    expect(reread.status, reread.text).toBe(200);
    expect(reread.headers.get("idempotent-replayed")).toBeNull();
  });
});
