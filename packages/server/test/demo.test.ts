/**
 * Issue 18: `npm run demo` — the broker with sandbox providers on loopback, pre-configured — takes
 * a newcomer from nothing to a connected account, a tool call and an approval in the console's
 * queue, using only what the start-up printed. Never in production.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { testMasterKey } from "./support/broker.js";
import { startBrokerProcess, type BrokerProcess } from "./support/broker-process.js";
import { runToolbroker } from "./support/cli.js";
import { completeAuthorization } from "./support/fake-upstreams/index.js";

let demo: BrokerProcess;
let dataDir: string;
const printed = (label: string) => new RegExp(`${label} +(\\S+)`).exec(demo.output())?.[1];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "toolbroker-demo-"));
  demo = await startBrokerProcess({ BROKER_ENV: "development", BROKER_DATA_DIR: dataDir }, "demo");
  for (let waited = 0; !demo.output().includes("Sandbox providers") && waited < 30_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
}, 90_000);
afterAll(async () => {
  await demo?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(`${dataDir}-demo`, { recursive: true, force: true });
});

const api = async (method: string, path: string, token: string, body?: unknown, tenant?: string) => {
  const response = await fetch(`${demo.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(tenant ? { "x-broker-tenant-id": tenant } : {}), ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    redirect: "manual",
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, text };
};

it("connects a sandbox GitHub account through the real redirects, calls a tool and queues an approval", { timeout: 30_000 }, async () => {
  const [tenantId, agentAppId, key, operatorToken] = [printed("tenant id"), printed("agent app id"), printed("bk_test_ key"), printed("operator token")];
  expect(demo.output()).toMatch(/scm +GitHub-like +http:\/\/127\.0\.0\.1:\d+ +user octocat/);

  const start = await api("POST", "/v1/connections/oauth/start", operatorToken!, { provider: "scm" }, tenantId);
  expect(start.status, start.text).toBe(200);
  const authorization = await completeAuthorization(start.body.authorize_url);
  const callbackUrl = new URL(authorization.location!);
  const callback = await fetch(`${demo.url}${callbackUrl.pathname}${callbackUrl.search}`);
  expect(callback.status).toBe(200);

  const minted = await api("POST", "/v1/broker/token", key!, { agent_app_id: agentAppId, env: "test" });
  const jwt = minted.body.access_token as string;
  const listed = await api("POST", "/v1/tools/execute", jwt, { tool_name: "scm.list_repositories", arguments: {} });
  expect(listed.status, listed.text).toBe(200);
  expect(JSON.stringify(listed.body.result)).toContain("hello-world");

  const deletion = await api("POST", "/v1/tools/execute", jwt, { tool_name: "scm.delete_repository", arguments: { owner: "octocat", repo: "hello-world" } });
  expect(deletion.status).toBe(409);
  const queue = await api("GET", "/v1/approvals", operatorToken!, undefined, tenantId);
  expect(queue.body.data.map((approval: { approval_id: string }) => approval.approval_id)).toContain(deletion.body.error.details.approval_id);
});

it("prints a described sandbox for every other built-in provider, with an API key to store for the key-only ones", () => {
  expect(demo.output()).toMatch(/^ {2}gmail +vendored +http:\/\/127\.0\.0\.1:\d+$/m);
  expect(demo.output()).toMatch(/^ {2}zendesk +authored +http:\/\/127\.0\.0\.1:\d+ +API key for a secret item: \S+$/m);
});

it("keeps its data in its own folder beside serve's, says so, and never opens serve's database (issue 41)", () => {
  expect(demo.output()).toContain(`data folder     ${dataDir}-demo`);
  expect(demo.output()).toContain(`Demo data: ${dataDir}-demo (its own, SQLite; \`npm start\` uses ${dataDir} and never sees the demo's connections)`);
  expect(existsSync(join(`${dataDir}-demo`, "toolbroker.sqlite"))).toBe(true);
  expect(existsSync(join(dataDir, "toolbroker.sqlite"))).toBe(false);
});

it("refuses a second demo on the same data while it runs", { timeout: 60_000 }, async () => {
  const second = await runToolbroker(["demo"], { BROKER_ENV: "development", BROKER_DATA_DIR: dataDir, PORT: "0" });
  expect(second.code).toBe(1);
  expect(second.stderr).toContain(`(pid ${demo.child.pid}, toolbroker demo, since`);
  expect(second.stderr).toContain(`on the SQLite database ${join(`${dataDir}-demo`, "toolbroker.sqlite")}`);
});

it("refuses to run in production", { timeout: 30_000 }, async () => {
  const result = await runToolbroker(["demo"], {
    BROKER_ENV: "production",
    BROKER_DATA_DIR: dataDir,
    BROKER_MASTER_KEYS: testMasterKey(),
    BROKER_OIDC_ISSUER: "https://idp.example.test",
    BROKER_OIDC_AUDIENCE: "toolbroker",
    BROKER_PUBLIC_URL: "https://broker.example.test",
  });
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/demo never runs in production/);
});
