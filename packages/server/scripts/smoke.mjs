#!/usr/bin/env node
/**
 * A smoke scenario against the built server (dist/), for another Node version than the suite's:
 * `toolbroker demo` (broker + sandbox providers) → read the printed tenant → register a webhook →
 * connect a GitHub-like account through the OAuth redirects → mint a broker JWT → execute → an
 * approval, decided and continued → the webhook delivered → an OpenAPI import (on the build's worker
 * thread). Plain Node, no test framework.
 *
 *   node packages/server/scripts/smoke.mjs
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), "toolbroker-smoke-"));

function check(condition, message) {
  if (!condition) throw new Error(`smoke failed: ${message}`);
  console.log(`ok  ${message}`);
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startReceiver() {
  const received = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body });
      response.writeHead(200).end();
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}/hooks`, received, close: () => new Promise((resolve) => server.close(resolve)) };
}

async function waitFor(predicate, what, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`smoke failed: timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const broker = spawn(process.execPath, [CLI, "demo"], {
  env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", BROKER_ENV: "development", BROKER_DATA_DIR: dataDir, PORT: String(port) },
  stdio: ["ignore", "pipe", "pipe"],
});
let output = "";
broker.stdout.on("data", (chunk) => (output += chunk));
broker.stderr.on("data", (chunk) => (output += chunk));
const receiver = await startReceiver();

try {
  await waitFor(() => output.includes("Sandbox providers") || broker.exitCode !== null, "the demo to start");
  check(broker.exitCode === null, `the broker runs on Node ${process.version}`);
  const printed = (label) => new RegExp(`${label} +(\\S+)`).exec(output)?.[1];
  const [tenantId, agentAppId, key, operatorToken] = ["tenant id", "agent app id", "bk_test_ key", "operator token"].map(printed);
  check(tenantId && agentAppId && key && operatorToken, "the demo tenant is printed");

  const api = async (method, path, token, body, tenant) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(tenant ? { "x-broker-tenant-id": tenant } : {}), ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };

  const webhook = await api("POST", "/v1/webhooks", operatorToken, { url: receiver.url }, tenantId);
  check(webhook.status === 201, "a webhook endpoint is registered");

  const start = await api("POST", "/v1/connections/oauth/start", operatorToken, { provider: "scm" }, tenantId);
  check(start.status === 200, "an OAuth connect starts");
  const authorize = await fetch(start.body.authorize_url, { redirect: "manual" });
  const callback = await fetch(authorize.headers.get("location"));
  check(callback.status === 200, "the provider redirects back and the account is connected");

  const minted = await api("POST", "/v1/broker/token", key, { agent_app_id: agentAppId, env: "test" });
  check(minted.status === 200, "a broker JWT is minted");
  const jwt = minted.body.access_token;
  const listed = await api("POST", "/v1/tools/execute", jwt, { tool_name: "scm.list_repositories", arguments: {} });
  check(listed.status === 200, "a tool call succeeds");

  const asked = await api("POST", "/v1/tools/execute", jwt, { tool_name: "scm.delete_repository", arguments: { owner: "octocat", repo: "hello-world" } });
  check(asked.status === 409 && asked.body.error.code === "approval_required", "a risky call waits for an approval");
  const { approval_id: approvalId, invocation_id: invocationId } = asked.body.error.details;
  const decided = await api("POST", `/v1/approvals/${approvalId}/decide`, operatorToken, { decision: "approve" }, tenantId);
  check(decided.status === 200, "an operator approves it");
  const continued = await api("POST", `/v1/tools/invocations/${invocationId}/continue`, jwt);
  check(continued.status === 200, "the approved call runs");

  await waitFor(() => receiver.received.some((delivery) => delivery.body.includes("approval.decided")), "the approval.decided webhook");
  check(receiver.received.every((delivery) => delivery.headers["webhook-signature"]), "webhooks arrive signed");
  const document = { openapi: "3.1.0", info: { title: "Smoke", version: "1" }, paths: { "/ping": { get: { operationId: "ping", responses: { 200: { description: "ok" } } } } } };
  const imported = await api("POST", "/v1/providers/scm/tools/import?dry_run=true", operatorToken, { document }, tenantId);
  check(imported.status === 200 && imported.body.data[0]?.name === "scm.ping", "an OpenAPI document is imported on a worker thread");
  console.log(`smoke passed on Node ${process.version}`);
} catch (error) {
  console.error(output.split("\n").slice(-40).join("\n"));
  throw error;
} finally {
  broker.kill("SIGTERM");
  await receiver.close();
  rmSync(dataDir, { recursive: true, force: true });
}
