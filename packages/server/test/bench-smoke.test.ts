/**
 * Keeps `npm run bench` working: a tiny --quick run from source. It asserts that the benchmark
 * runs end to end and reports, never how fast anything is.
 */
import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

it("runs the benchmark's quick mode and prints the report with every scenario", async () => {
  const { stdout } = await promisify(execFile)(
    "node",
    ["--import", "tsx", "bench/run.ts", "--quick", "--from-source", "--duration", "1", "--concurrency", "1", "--history", "50"],
    { cwd: root, timeout: 120_000, env: { ...process.env, BROKER_BENCH_POSTGRES_URL: "" } },
  );
  for (const scenario of ["baseline proxy", "framework floor", "broker/token", "execute (JWT)", "execute (JWT, idempotency_key)", "execute (control key)"]) {
    expect(stdout).toContain(`| sqlite | 1 | ${scenario} |`);
  }
  expect(stdout).toMatch(/\| sqlite \| 50 \| \d+ \| \d+ \|/);
  expect(stdout).toMatch(/JSON: .*bench-.*\.json/);
}, 150_000);
