/**
 * Issue 41: one broker process per SQLite file. A second `serve` (or `worker`, or `demo`) on the
 * file of a running broker refuses to start with one line naming the file, the holder's pid and
 * what to do; the short commands keep working beside it; a broker killed with SIGKILL leaves
 * nothing that blocks the next one. Real processes throughout.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testMasterKey } from "./support/broker.js";
import { bootstrapThroughCli, startBrokerProcess, type BrokerProcess } from "./support/broker-process.js";
import { runToolbroker } from "./support/cli.js";

const SLOW = { timeout: 90_000 };

describe("one broker per SQLite file", SLOW, () => {
  let dataDir: string;
  let env: Record<string, string>;
  let first: BrokerProcess | undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "toolbroker-lock-"));
    env = { BROKER_ENV: "test", BROKER_DATA_DIR: dataDir, BROKER_MASTER_KEYS: testMasterKey(), BROKER_LOG_LEVEL: "info" };
    first = await startBrokerProcess(env);
  }, SLOW.timeout);
  afterAll(async () => {
    await first?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("refuses a second serve, and a worker, on the same file with one line: the file, the holder's pid, what to do", async () => {
    const [serve, worker] = await Promise.all([runToolbroker(["serve"], { ...env, PORT: "0" }), runToolbroker(["worker"], env)]);
    for (const [result, name] of [[serve, "serve"], [worker, "worker"]] as const) {
      expect(result.code, name).toBe(1);
      const lines = result.stderr.trim().split("\n");
      expect(lines, name).toHaveLength(1);
      expect(lines[0]).toContain(`toolbroker: another broker (pid ${first!.child.pid}, toolbroker serve, since `);
      expect(lines[0]).toContain(`on the SQLite database ${join(dataDir, "toolbroker.sqlite")}`);
      expect(lines[0]).toMatch(/Stop that one first, or give this one its own BROKER_DATA_DIR/);
    }
    expect(first!.alive()).toBe(true);
  });

  it("lets the short commands work on the running broker's file", async () => {
    const tenant = await bootstrapThroughCli(env);
    const [keys, migrate] = await Promise.all([
      runToolbroker(["keys", "create", "--tenant", tenant.tenantId, "--env", "test", "--json"], env),
      runToolbroker(["migrate"], env),
    ]);
    expect(keys.code, keys.stderr).toBe(0);
    expect(JSON.parse(keys.stdout).key).toMatch(/^bk_test_/);
    expect(migrate).toMatchObject({ code: 0, stdout: "schema is up to date\n" });
  });

  it("starts a new broker on the file once the holder was killed with SIGKILL", async () => {
    first!.child.kill("SIGKILL");
    await first!.exited;
    first = await startBrokerProcess(env);
    expect((await fetch(`${first.url}/health`)).status).toBe(200);
    const again = await runToolbroker(["serve"], { ...env, PORT: "0" });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`(pid ${first.child.pid}, toolbroker serve,`);
  });
});
