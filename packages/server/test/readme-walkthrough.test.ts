/**
 * Issue 41, "done when": the README's walk-through, run as written (its code block, extracted from
 * README.md, through bash, from the repository root, with `npx toolbroker`) against the broker of
 * `npm run demo` on a loopback port. `toolbroker login` replaces the hand-copied exports: the
 * block needs nothing but the demo running. Its login lands in a temporary config file.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freePort } from "./support/broker.js";
import { startBrokerProcess, type BrokerProcess } from "./support/broker-process.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

/** The first ```sh block under the README's "## Walk-through" heading. */
function walkThroughBlock(): string {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("\n## Walk-through\n"));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error("README.md has no ```sh block under ## Walk-through");
  return block;
}

let demo: BrokerProcess;
let dataDir: string;
let home: string;
let port: number;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "toolbroker-walkthrough-"));
  // The CLI's default broker URL is the server's, http://127.0.0.1:$PORT: the demo gets a port named beforehand.
  for (let attempt = 1; ; attempt += 1) {
    port = await freePort();
    try {
      demo = await startBrokerProcess({ BROKER_ENV: "development", BROKER_DATA_DIR: dataDir, PORT: String(port) }, "demo");
      break;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
  for (let waited = 0; !demo.output().includes("Sandbox providers") && waited < 30_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
  home = mkdtempSync(join(tmpdir(), "toolbroker-walkthrough-home-"));
}, 120_000);
afterAll(async () => {
  await demo?.stop();
  for (const dir of [dataDir, `${dataDir}-demo`, home]) if (dir) rmSync(dir, { recursive: true, force: true });
});

function runBlock(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-euo", "pipefail", "-c", script], {
      cwd: ROOT,
      // What a newcomer's shell has, and no more: no BROKER_* variables, no exports to copy.
      env: { PATH: process.env.PATH ?? "", HOME: home, PORT: String(port), npm_config_update_notifier: "false", npm_config_offline: "true" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

it("runs the README's walk-through as written against npm run demo: login, tools, connect, execute, approve, continue", { timeout: 600_000 }, async () => {
  const script = walkThroughBlock();
  expect(script).toContain("npx toolbroker login");
  expect(script).not.toMatch(/export |<[a-z _]+>/);

  const result = await runBlock(script);
  expect(result.code, `${result.stdout}\n${result.stderr}\n${demo.output().slice(-3000)}`).toBe(0);
  const out = result.stdout;
  expect(out).toMatch(/^Logged in to http:\/\/127\.0\.0\.1:\d+ as demo-operator \(urn:toolbroker:dev-issuer\), tenant "Demo tenant"/m);
  expect(out).toMatch(/^scm\.list_repositories$/m);
  expect(out).toMatch(/\{"connected_account_id":"[0-9a-f-]{36}"\}/);
  expect(out).toContain('"full_name": "octocat/hello-world"');
  expect(out).toMatch(/"status": "approved"/);
  expect(out).toMatch(/"deleted": true/);
  // The 409 is step 4's expected answer, reported on stderr; nothing else failed.
  expect(result.stderr.trim().split("\n").filter((line) => line.startsWith("HTTP "))).toEqual(["HTTP 409"]);

  // The login is owner-only and the operator token it holds never reached the output.
  const configFile = join(home, ".config", "toolbroker", "config.json");
  expect(statSync(configFile).mode & 0o777).toBe(0o600);
  const stored = JSON.parse(readFileSync(configFile, "utf8"));
  for (const secret of [stored.operator_token, stored.control_keys.test.key]) {
    expect(out + result.stderr).not.toContain(secret);
    expect(demo.output()).not.toContain(secret);
  }
});
