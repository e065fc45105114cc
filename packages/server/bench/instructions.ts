/**
 * `npm run bench:instructions`: the instructions the broker's request thread runs per execute
 * (JWT) call, counted by valgrind's callgrind. On a shared machine requests/s and CPU time move by
 * ±15 % from run to run; this count moves by 1 – 2 % between runs of one build (a change anywhere
 * in the build can move it a few per cent more), so a smaller step is best counted on its own.
 * It counts user-space instructions only: a step that saves system calls shows in `npm run bench`.
 *
 * Needs valgrind (Debian: `apt-get install -y valgrind`); runs the production build (`npm run build`).
 * Flags: --calls N (counted calls, default 2000), --warmup N (calls before counting, default 5000),
 * --concurrency C (default 16), --idempotency-key (each call with a key of its own), --keep DIR (copy
 * callgrind's files there, for `callgrind_annotate`). SQLite only.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Pool } from "undici";
import { loadConfig } from "../src/config.js";
import { startProcess } from "./processes.js";
import { benchBrokerEnvironment, seedFixture } from "./seed.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values: flags } = parseArgs({ options: { calls: { type: "string" }, warmup: { type: "string" }, concurrency: { type: "string" }, "idempotency-key": { type: "boolean" }, keep: { type: "string" } } });
const calls = Number(flags.calls ?? 2_000);
const warmupCalls = Number(flags.warmup ?? 5_000);
const concurrency = Number(flags.concurrency ?? 16);
const withKeys = flags["idempotency-key"] === true;
const scenario = withKeys ? "execute (JWT, idempotency_key)" : "execute (JWT)";

/** The broker under callgrind, instrumentation off until asked (start-up takes a minute, not ten). */
function startUnderCallgrind(outFile: string, env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const args = ["--tool=callgrind", "--instr-atstart=no", "--separate-threads=yes", `--callgrind-out-file=${outFile}`, "node", join(root, "dist/cli.js"), "serve"];
  const child = spawn("valgrind", args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let output = "";
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) resolve({ child, port: Number(match[1]) });
    });
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the broker under valgrind exited with ${code}:\n${output.slice(-2_000)}`)));
  });
}

/** Instructions counted per thread, the request thread (callgrind's thread 1) first. */
function countsPerThread(outFile: string): number[] {
  const directory = dirname(outFile);
  const prefix = `${outFile.slice(directory.length + 1)}-`;
  return readdirSync(directory)
    .filter((name) => name.startsWith(prefix))
    .sort()
    .map((name) => Number(/^totals:\s+(\d+)/m.exec(readFileSync(join(directory, name), "utf8"))?.[1] ?? 0));
}

const upstream = await startProcess("node", ["--import", "tsx", join(root, "bench/fake-upstream.ts")], {}, /listening (\d+)/);
const dataDir = mkdtempSync(join(tmpdir(), "toolbroker-instructions-"));
const env = { ...benchBrokerEnvironment(dataDir, upstream.port), BROKER_LOG_LEVEL: "info", BROKER_LOG_FORMAT: "json", PORT: "0" };
const outFile = join(dataDir, "callgrind.out");
try {
  const fixture = await seedFixture(loadConfig(env));
  const broker = await startUnderCallgrind(outFile, env);
  const pool = new Pool(`http://127.0.0.1:${broker.port}`, { connections: concurrency });
  const json = { "content-type": "application/json" };
  const minted = await pool.request({ path: "/v1/broker/token", method: "POST", headers: { ...json, authorization: `Bearer ${fixture.controlKey}` }, body: JSON.stringify({ agent_app_id: fixture.agentAppId, env: "test" }) });
  const jwt = ((await minted.body.json()) as { access_token: string }).access_token;
  const call = { tool_name: "scm.get_authenticated_user", arguments: {}, connected_account_id: fixture.connectionId };
  let keys = 0;
  const body = () => JSON.stringify(withKeys ? { ...call, idempotency_key: `instructions-${(keys += 1)}` } : call);
  const execute = async (count: number) => {
    let started = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (started < count) {
          started += 1;
          const response = await pool.request({ path: "/v1/tools/execute", method: "POST", headers: { ...json, authorization: `Bearer ${jwt}` }, body: body() });
          await response.body.text();
          if (response.statusCode !== 200) throw new Error(`execute answered ${response.statusCode}`);
        }
      }),
    );
  };
  process.stderr.write(`warming up (${warmupCalls} calls)…\n`);
  await execute(warmupCalls);
  execFileSync("callgrind_control", ["--instr=on", String(broker.child.pid)], { stdio: "ignore" });
  await execute(calls);
  execFileSync("callgrind_control", ["--instr=off", String(broker.child.pid)], { stdio: "ignore" });
  await pool.close();
  await new Promise((exited) => {
    broker.child.removeAllListeners("exit");
    broker.child.once("exit", exited);
    broker.child.kill("SIGTERM");
  });
  const [requestThread = 0, ...others] = countsPerThread(outFile);
  if (flags.keep) for (const name of readdirSync(dataDir).filter((file) => file.startsWith("callgrind.out"))) cpSync(join(dataDir, name), join(flags.keep, name));
  const all = others.reduce((sum, count) => sum + count, requestThread);
  process.stdout.write(
    `sqlite c=${concurrency} ${scenario}: ${Math.round(requestThread / calls)} instructions per call on the request thread, ` +
      `${Math.round(all / calls)} on all threads (${calls} calls after ${warmupCalls})\n`,
  );
} finally {
  await upstream.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
// The seeding's store and the HTTP pool leave handles behind; the count is all this process is for.
process.exit(0);
