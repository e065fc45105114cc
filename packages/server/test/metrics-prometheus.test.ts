/**
 * Issue 40: a real Prometheus (Debian's `prometheus`) scrapes a broker every second and its HTTP
 * API answers the tool-call counter with the calls this test made. Skipped, saying so, where the
 * binary is missing (apt-get install prometheus).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "./support/broker.js";
import { connect, execute, startToolWorld, type ToolWorld } from "./support/tool-execution.js";

const PROMETHEUS = "/usr/bin/prometheus";
if (!existsSync(PROMETHEUS)) process.stdout.write(`\n[toolbroker] Prometheus scrape test SKIPPED: missing ${PROMETHEUS} (apt-get install prometheus)\n\n`);

type Prometheus = { url: string; process: ChildProcess; output: string[]; directory: string };

async function startPrometheus(target: string): Promise<Prometheus> {
  const directory = mkdtempSync(join(tmpdir(), "toolbroker-prometheus-"));
  const config = join(directory, "prometheus.yml");
  writeFileSync(
    config,
    [
      "global:",
      "  scrape_interval: 1s",
      "  scrape_timeout: 1s",
      "scrape_configs:",
      "  - job_name: toolbroker",
      "    metrics_path: /metrics",
      "    static_configs:",
      `      - targets: ["${target}"]`,
      "",
    ].join("\n"),
  );
  const port = await freePort();
  const child = spawn(PROMETHEUS, [`--config.file=${config}`, `--storage.tsdb.path=${join(directory, "data")}`, `--web.listen-address=127.0.0.1:${port}`, "--log.level=warn"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  child.stdout!.on("data", (chunk) => output.push(String(chunk)));
  child.stderr!.on("data", (chunk) => output.push(String(chunk)));
  return { url: `http://127.0.0.1:${port}`, process: child, output, directory };
}

async function stopPrometheus(prometheus: Prometheus) {
  if (prometheus.process.exitCode === null) {
    const exited = new Promise((resolve) => prometheus.process.once("exit", resolve));
    prometheus.process.kill("SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (prometheus.process.exitCode === null) prometheus.process.kill("SIGKILL");
  }
  rmSync(prometheus.directory, { recursive: true, force: true });
}

/** An instant query's first value, or undefined while Prometheus has none (or is still starting). */
async function queryValue(prometheus: Prometheus, promql: string): Promise<number | undefined> {
  try {
    const response = await fetch(`${prometheus.url}/api/v1/query?query=${encodeURIComponent(promql)}`);
    if (!response.ok) return undefined;
    const body = (await response.json()) as { status: string; data: { result: { value: [number, string] }[] } };
    const first = body.data.result[0];
    return first ? Number(first.value[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Polls until the query answers `expected` (bounded: 40 s), returning what it last answered. */
async function waitForValue(prometheus: Prometheus, promql: string, expected: number): Promise<number | undefined> {
  let last: number | undefined;
  for (const deadline = Date.now() + 40_000; Date.now() < deadline; ) {
    last = await queryValue(prometheus, promql);
    if (last === expected) return last;
    if (prometheus.process.exitCode !== null) throw new Error(`prometheus exited: ${prometheus.output.join("")}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return last;
}

(existsSync(PROMETHEUS) ? describe : describe.skip)("a real Prometheus scraping the broker", { timeout: 90_000 }, () => {
  let world: ToolWorld;
  let prometheus: Prometheus;

  beforeAll(async () => {
    world = await startToolWorld("sqlite");
    const connectionId = await connect(world, "scm");
    for (let i = 0; i < 3; i += 1) {
      const result = await execute(world.broker, world.jwt, { tool_name: "scm.get_authenticated_user", connected_account_id: connectionId });
      expect(result.status, result.text).toBe(200);
    }
    prometheus = await startPrometheus(new URL(world.broker.url).host);
  }, 60_000);
  afterAll(async () => {
    if (prometheus) await stopPrometheus(prometheus);
    await world?.close();
  });

  it("finds the broker up and reads the tool calls it made from Prometheus's query API", async () => {
    expect(await waitForValue(prometheus, 'up{job="toolbroker"}', 1), prometheus.output.join("")).toBe(1);
    const calls = 'sum(toolbroker_tool_calls_total{job="toolbroker",tool="scm.get_authenticated_user",provider="scm",channel="rest",outcome="succeeded"})';
    expect(await waitForValue(prometheus, calls, 3)).toBe(3);
  });

  it("sees later calls at the next scrape, and the upstream's share of their time", async () => {
    const result = await execute(world.broker, world.jwt, { tool_name: "nothing.here" });
    expect(result.status).toBe(404);
    expect(await waitForValue(prometheus, 'sum(toolbroker_tool_calls_total{tool="unknown",outcome="rejected"})', 1)).toBe(1);
    expect(await waitForValue(prometheus, 'sum(toolbroker_tool_call_upstream_duration_seconds_count{provider="scm"})', 3)).toBe(3);
  });
});
