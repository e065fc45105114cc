/**
 * `npm run bench`: the broker's hot path against a bare HTTP hop, on this machine, in one run.
 * Flags: --quick (under a minute), --duration S, --concurrency 1,8,32,128, --history N,
 * --from-source (run the broker through tsx instead of the production build; for the smoke test),
 * --scenarios "execute (JWT),broker/token" (only these, besides the baseline; commas inside a name's parentheses do not split), --no-growth (skip the growth runs),
 * --runs N (measured runs per scenario, after a warm-up; the report gives each figure's median), --warmup S,
 * --node-flags "--max-semi-space-size=32" (Node/V8 flags for the broker process, for experiments),
 * --metrics off (the broker runs with BROKER_METRICS=off, to compare what the metrics cost per call; default on),
 * --no-build (reuse dist/ as the last run built it: for runs in pairs, e.g. metrics on and off),
 * --tracing (each broker scenario once more with traces exported to a local OTLP sink, named "… + tracing").
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import pg from "pg";
import { loadConfig } from "../src/config.js";
import { runLoad, type LoadResult, type LoadSpec } from "./load.js";
import { startProcess, type Child } from "./processes.js";
import { renderReport, type ScenarioResult } from "./report.js";
import { BENCH_ACCESS_TOKEN } from "./fake-upstream.js";
import { benchBrokerEnvironment, seedFixture, seedHistory, type BenchFixture } from "./seed.js";
import { startOtlpSink, tracingEnvironment } from "./otlp-sink.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values: flags } = parseArgs({
  options: {
    quick: { type: "boolean" },
    duration: { type: "string" },
    concurrency: { type: "string" },
    history: { type: "string" },
    "cpu-prof": { type: "boolean" },
    "node-flags": { type: "string" },
    "from-source": { type: "boolean" },
    scenarios: { type: "string" },
    "no-growth": { type: "boolean" },
    runs: { type: "string" },
    warmup: { type: "string" },
    databases: { type: "string" },
    metrics: { type: "string" },
    "no-build": { type: "boolean" },
    tracing: { type: "boolean" },
  },
});
const metricsMode = flags.metrics ?? process.env.BROKER_METRICS ?? "on";
if (metricsMode !== "on" && metricsMode !== "off") throw new Error(`--metrics must be on or off (got "${metricsMode}")`);
const quick = flags.quick === true;
const durationSeconds = Number(flags.duration ?? (quick ? 1 : 10));
const concurrencies = (flags.concurrency ?? (quick ? "1,32" : "1,8,32,128")).split(",").map(Number);
const historySize = Number(flags.history ?? (quick ? 20_000 : 1_000_000));
const onlyScenarios = flags.scenarios ? new Set(["baseline proxy", ...flags.scenarios.split(/,(?![^(]*\))/).map((name) => name.trim())]) : undefined;
const runsPerScenario = Number(flags.runs ?? (quick ? 1 : 3));
const warmupSeconds = Number(flags.warmup ?? (quick ? 0 : 5));
const tsxLoader = ["--import", "tsx"];

type Stack = { upstream: Child; baseline: Child; floor: Child; dataDir: string; env: Record<string, string>; fixture: BenchFixture; databaseUrl?: string };

async function prepareStack(databaseUrl: string | undefined): Promise<Stack> {
  const upstream = await startProcess("node", [...tsxLoader, join(root, "bench/fake-upstream.ts")], {}, /listening (\d+)/);
  const baseline = await startProcess("node", [...tsxLoader, join(root, "bench/baseline-proxy.ts")], { UPSTREAM_URL: `http://127.0.0.1:${upstream.port}` }, /listening (\d+)/);
  const floor = await startProcess("node", [...tsxLoader, join(root, "bench/framework-floor.ts")], { UPSTREAM_URL: `http://127.0.0.1:${upstream.port}`, UPSTREAM_ACCESS_TOKEN: BENCH_ACCESS_TOKEN }, /^listening (\d+)/m);
  const dataDir = mkdtempSync(join(tmpdir(), "toolbroker-bench-"));
  const env: Record<string, string> = { ...benchBrokerEnvironment(dataDir, upstream.port), ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
  const fixture = await seedFixture(loadConfig(env));
  return { upstream, baseline, floor, dataDir, env, fixture, ...(databaseUrl ? { databaseUrl } : {}) };
}

async function startBroker(stack: Stack, extraEnv: Record<string, string> = {}): Promise<Child> {
  const port = "0";
  // --cpu-prof: the broker writes a V8 CPU profile into bench/results/ when it exits.
  const profile = flags["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${join(root, "bench/results")}`] : [];
  const nodeFlags = (flags["node-flags"] ?? "").split(" ").filter(Boolean);
  const entry = flags["from-source"] ? [...nodeFlags, ...profile, ...tsxLoader, join(root, "src/cli.ts"), "serve"] : [...nodeFlags, ...profile, join(root, "dist/cli.js"), "serve"];
  // Logs stay on at info, as JSON lines as in production (development's readable lines cost more).
  return startProcess("node", entry, { ...stack.env, BROKER_METRICS: metricsMode, ...extraEnv, PORT: port, BROKER_LOG_LEVEL: "info", BROKER_LOG_FORMAT: "json" }, /Server listening at http:\/\/127\.0\.0\.1:(\d+)/);
}

async function mintToken(brokerUrl: string, fixture: BenchFixture): Promise<string> {
  const response = await fetch(`${brokerUrl}/v1/broker/token`, {
    method: "POST",
    headers: { authorization: `Bearer ${fixture.controlKey}`, "content-type": "application/json" },
    body: JSON.stringify({ agent_app_id: fixture.agentAppId, env: "test" }),
  });
  if (!response.ok) throw new Error(`token mint failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

function scenarios(brokerUrl: string, stack: Pick<Stack, "baseline" | "floor" | "fixture">, jwt: string): Record<string, Omit<LoadSpec, "connections" | "durationSeconds">> {
  const { fixture } = stack;
  const execute = { tool_name: "scm.get_authenticated_user", arguments: {}, connected_account_id: fixture.connectionId };
  const json = { "content-type": "application/json" };
  return {
    "baseline proxy": { url: `http://127.0.0.1:${stack.baseline.port}/user`, method: "GET", headers: { "x-upstream-authorization": `Bearer ${BENCH_ACCESS_TOKEN}` } },
    "framework floor": { url: `http://127.0.0.1:${stack.floor.port}/v1/tools/execute`, method: "POST", headers: { ...json, authorization: `Bearer ${jwt}` }, body: execute },
    "broker/token": { url: `${brokerUrl}/v1/broker/token`, method: "POST", headers: { ...json, authorization: `Bearer ${fixture.controlKey}` }, body: { agent_app_id: fixture.agentAppId, env: "test" } },
    "execute (JWT)": { url: `${brokerUrl}/v1/tools/execute`, method: "POST", headers: { ...json, authorization: `Bearer ${jwt}` }, body: execute },
    "execute (JWT, idempotency_key)": { url: `${brokerUrl}/v1/tools/execute`, method: "POST", headers: { ...json, authorization: `Bearer ${jwt}` }, body: execute, uniqueIdempotencyKey: true },
    "execute (control key)": { url: `${brokerUrl}/v1/tools/execute`, method: "POST", headers: { ...json, authorization: `Bearer ${fixture.controlKey}` }, body: { ...execute, agent_app_id: fixture.agentAppId } },
  };
}

type MeasuredLoad = LoadResult & { cpuMicrosPerCall: number };

/** Runs a load and divides the CPU time `process` spent meanwhile by the requests it answered. */
async function withCpu(child: Child, spec: LoadSpec): Promise<MeasuredLoad> {
  const before = child.cpuMicros();
  const load = await runLoad(spec);
  const spent = child.cpuMicros() - before;
  return { ...load, cpuMicrosPerCall: load.requests > 0 ? Math.round(spent / load.requests) : 0 };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * A warm-up (JIT, caches, connection pools), then `runsPerScenario` measured runs: each figure is
 * the median of the runs (errors and non-2xx are summed, so no failure hides behind a median).
 */
async function measureScenario(child: Child, spec: LoadSpec): Promise<MeasuredLoad> {
  if (warmupSeconds > 0) await runLoad({ ...spec, durationSeconds: warmupSeconds });
  const runs: MeasuredLoad[] = [];
  for (let i = 0; i < runsPerScenario; i++) runs.push(await withCpu(child, spec));
  if (runs.length > 1) process.stderr.write(`    runs: ${runs.map((run) => `${run.rps} req/s ${run.cpuMicrosPerCall} µs`).join(", ")}\n`);
  const of = (field: keyof MeasuredLoad) => median(runs.map((run) => run[field]));
  const sum = (field: keyof MeasuredLoad) => runs.reduce((total, run) => total + run[field], 0);
  return { rps: of("rps"), p50: of("p50"), p99: of("p99"), max: of("max"), requests: sum("requests"), non2xx: sum("non2xx"), errors: sum("errors"), cpuMicrosPerCall: of("cpuMicrosPerCall") };
}

/** Every scenario against a broker without traces; with --tracing, the broker's scenarios once more with traces on. */
async function measureAll(stack: Stack, database: string): Promise<ScenarioResult[]> {
  const results = await measureBroker(stack, database);
  if (!flags.tracing) return results;
  const sink = await startOtlpSink();
  try {
    results.push(...(await measureBroker(stack, database, { env: tracingEnvironment(sink, process.env.OTEL_EXPORTER_OTLP_PROTOCOL), suffix: " + tracing" })));
    process.stderr.write(`  OTLP sink: ${sink.exports()} exports, ${Math.round(sink.bytes() / 1024)} KiB\n`);
  } finally {
    await sink.close();
  }
  return results;
}

async function measureBroker(stack: Stack, database: string, variant: { env: Record<string, string>; suffix: string } = { env: {}, suffix: "" }): Promise<ScenarioResult[]> {
  const broker = await startBroker(stack, variant.env);
  const brokerUrl = `http://127.0.0.1:${broker.port}`;
  const results: ScenarioResult[] = [];
  try {
    const jwt = await mintToken(brokerUrl, stack.fixture);
    const specs = scenarios(brokerUrl, stack, jwt);
    for (const connections of concurrencies) {
      for (const [name, spec] of Object.entries(specs)) {
        if (onlyScenarios && !onlyScenarios.has(name)) continue;
        // The bare proxy and the floor trace nothing: measured once, in the run without traces.
        if (variant.suffix && (name === "baseline proxy" || name === "framework floor")) continue;
        // CPU per call of the process that answers: the bare proxy, the framework floor or the broker.
        const measured = name === "baseline proxy" ? stack.baseline : name === "framework floor" ? stack.floor : broker;
        const load = await measureScenario(measured, { ...spec, connections, durationSeconds });
        results.push({ database, scenario: `${name}${variant.suffix}`, concurrency: connections, ...load, brokerRssMb: measured === broker ? broker.rssMb() : null });
        process.stderr.write(`  ${database} c=${connections} ${name}${variant.suffix}: ${load.rps} req/s p50 ${load.p50} ms, ${load.cpuMicrosPerCall} CPU µs/call\n`);
      }
    }
  } finally {
    await broker.stop();
  }
  return results;
}

async function measureGrowth(stack: Stack, database: string): Promise<{ database: string; history: number; empty: MeasuredLoad; after: MeasuredLoad }> {
  const connections = 32;
  const measure = async () => {
    const broker = await startBroker(stack);
    try {
      const brokerUrl = `http://127.0.0.1:${broker.port}`;
      const jwt = await mintToken(brokerUrl, stack.fixture);
      return await measureScenario(broker, { ...scenarios(brokerUrl, stack, jwt)["execute (JWT)"]!, connections, durationSeconds });
    } finally {
      await broker.stop();
    }
  };
  const empty = await measure();
  process.stderr.write(`  seeding ${historySize} invocations and audit events…\n`);
  await seedHistory(loadConfig(stack.env), stack.fixture, historySize);
  const after = await measure();
  return { database, history: historySize, empty, after };
}

async function withPostgresDatabase<T>(adminUrl: string, run: (url: string) => Promise<T>): Promise<T> {
  const name = `toolbroker_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    return await run(url.toString());
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

async function benchDatabase(database: string, databaseUrl: string | undefined) {
  const stack = await prepareStack(databaseUrl);
  try {
    // Growth runs on a fresh copy so the main table starts from the same empty store.
    const main = await measureAll(stack, database);
    const growth = flags["no-growth"] ? undefined : await measureGrowth(stack, database);
    return { main, growth };
  } finally {
    await stack.upstream.stop();
    await stack.baseline.stop();
    await stack.floor.stop();
    rmSync(stack.dataDir, { recursive: true, force: true });
  }
}

async function main() {
  if (!flags["from-source"] && !flags["no-build"]) {
    process.stderr.write("building the production bundle (tsc)…\n");
    execFileSync("npx", ["tsc", "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
  }
  const started = Date.now();
  const databases = new Set((flags.databases ?? "sqlite,postgres").split(",").map((name) => name.trim()));
  const postgresUrl = process.env.BROKER_BENCH_POSTGRES_URL;
  if (databases.has("postgres") && !postgresUrl && flags.databases) throw new Error("--databases postgres needs BROKER_BENCH_POSTGRES_URL");
  const runs = databases.has("sqlite") ? [await benchDatabase("sqlite", undefined)] : [];
  if (postgresUrl && databases.has("postgres")) runs.push(await withPostgresDatabase(postgresUrl, (url) => benchDatabase("postgres", url)));
  process.stderr.write(`metrics ${metricsMode} (BROKER_METRICS=${metricsMode} for the broker)\n`);
  const report = { when: new Date().toISOString(), node: process.version, metrics: metricsMode, quick, durationSeconds, runs: runsPerScenario, warmupSeconds, concurrencies, results: runs.flatMap((r) => r.main), growth: runs.flatMap((r) => (r.growth ? [r.growth] : [])), seconds: Math.round((Date.now() - started) / 1000) };
  process.stdout.write(renderReport(report));
  const dir = join(root, "bench/results");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `bench-${report.when.replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, JSON.stringify(report, null, 2));
  process.stdout.write(`\nJSON: ${file}\n`);
  const failed = report.results.some((r) => r.non2xx > 0 || r.errors > 0);
  process.exit(failed ? 1 : 0);
}

await main();
