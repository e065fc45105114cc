/**
 * Issue 18: a readable start-up, and one data location whatever the working directory. The default data folder is the
 * server package's `data/`, so `npm start` (run in packages/server) and `npx toolbroker …` from
 * the repository root open the same database and keys.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { startBrokerProcess } from "./support/broker-process.js";

const SERVER = fileURLToPath(new URL("..", import.meta.url));
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const CONFIG = new URL("../src/config.ts", import.meta.url).href;

/** The data folder a process started in `cwd` would use, with BROKER_DATA_DIR unset. */
async function defaultDataDirFrom(cwd: string): Promise<string> {
  const script = `import(${JSON.stringify(CONFIG)}).then((m) => process.stdout.write(m.loadConfig({ BROKER_ENV: "test" }).dataDir))`;
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "-e", script], { cwd, env: { PATH: process.env.PATH ?? "" } });
  return stdout;
}

it("uses packages/server/data from the repository root and from the server package alike", { timeout: 30_000 }, async () => {
  const expected = `${SERVER}data`;
  expect(await defaultDataDirFrom(ROOT)).toBe(expected);
  expect(await defaultDataDirFrom(SERVER)).toBe(expected);
});

it("prints, in development, where it listens, its console and MCP URLs, its data folder, database and providers", { timeout: 60_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "toolbroker-banner-"));
  // The harness listens on port 0; the banner speaks of the public URL.
  const publicUrl = "http://127.0.0.1:18080";
  const broker = await startBrokerProcess({ BROKER_ENV: "development", BROKER_DATA_DIR: dataDir, BROKER_PUBLIC_URL: publicUrl, BROKER_PROVIDER_SCM_CLIENT_ID: "id", BROKER_PROVIDER_SCM_CLIENT_SECRET: "secret" });
  try {
    await expect.poll(() => broker.output(), { timeout: 10_000 }).toContain("Toolbroker is ready (development)");
    const output = broker.output();
    expect(output).toContain(`Toolbroker is ready (development) at ${publicUrl}`);
    expect(output).toContain(`console         ${publicUrl}/console/`);
    expect(output).toContain(`MCP endpoint    ${publicUrl}/mcp`);
    expect(output).toContain(`data folder     ${dataDir}`);
    expect(output).toContain(`database        SQLite in ${dataDir}`);
    // Key-only providers (Trello, Zendesk) need no broker settings: they are ready too.
    expect(output).toMatch(/providers +ready: scm(, [a-z_]+)*; not configured: chat \(set BROKER_PROVIDER_CHAT_CLIENT_ID, BROKER_PROVIDER_CHAT_CLIENT_SECRET\)/);
    expect(output).toContain("valid for 12 hours");
    expect(output).not.toContain("secret\n");
    // Readable log lines in development, not JSON.
    expect(output).toMatch(/INFO.*: Server listening at http:\/\/127\.0\.0\.1:\d+/);
    expect(output).not.toMatch(/^\{"level"/m);
  } finally {
    await broker.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
