/**
 * Issue 41: `toolbroker listen --forward-to URL` tails the tenant's events like `stripe listen`:
 * events produced by real calls (an OAuth connect, a revoke) after it started arrive at a local
 * receiver, signed with Standard Webhooks headers under the `whsec_` secret it printed, and verify
 * with the official `standardwebhooks` library; earlier events and other tenants' never arrive.
 * Also `login --token` and the refusals of `listen` and `api`. Real CLI processes throughout.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { runToolbroker } from "./support/cli.js";
import { connectAccount } from "./support/connect.js";
import { startFakeUpstreams, type FakeUpstreams } from "./support/fake-upstreams/index.js";
import { asOperator, call } from "./support/http.js";
import { startWebhookReceiver, type WebhookReceiver } from "./support/webhook-receiver.js";

const BIN = fileURLToPath(new URL("../bin/toolbroker.js", import.meta.url));
const SLOW = { timeout: 180_000 };

describe("toolbroker listen", SLOW, () => {
  let broker: TestBroker;
  let fakes: FakeUpstreams;
  let acme: TestTenant;
  let globex: TestTenant;
  let receiver: WebhookReceiver;
  let home: string;
  let env: Record<string, string>;
  let listener: ChildProcess | undefined;
  let listened = "";
  let before: string;

  beforeAll(async () => {
    fakes = await startFakeUpstreams();
    broker = await startBroker("sqlite", { env: fakes.github.env });
    [acme, globex] = [await createTenant(broker, "Acme"), await createTenant(broker, "Globex")];
    receiver = await startWebhookReceiver();
    home = mkdtempSync(join(tmpdir(), "toolbroker-listen-"));
    env = { TOOLBROKER_CONFIG: join(home, "config.json") };
    before = await connectAccount(broker, acme, "scm");
    const login = await runToolbroker(["login", "--url", broker.url, "--token", acme.operatorToken], env);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain(`tenant "Acme" (${acme.tenantId}, admin)`);
  }, SLOW.timeout);
  afterAll(async () => {
    listener?.kill("SIGKILL");
    await broker?.close();
    await fakes?.close();
    await receiver?.close();
    rmSync(home, { recursive: true, force: true });
  });

  const waitForOutput = async (pattern: RegExp, timeoutMs = 60_000) => {
    for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
      const match = pattern.exec(listened);
      if (match) return match;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`listen did not print ${pattern}:\n${listened}`);
  };

  it("forwards events of real calls made after it started, signed under the secret it printed, verifiable with standardwebhooks", async () => {
    listener = spawn(process.execPath, [BIN, "listen", "--forward-to", receiver.url], { env: { PATH: process.env.PATH ?? "", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    listener.stdout!.on("data", (chunk) => (listened += chunk));
    listener.stderr!.on("data", (chunk) => (listened += chunk));
    const secret = (await waitForOutput(/signed \(Standard Webhooks\) with (whsec_\S+)/))[1]!;
    expect(listened).toContain(`Listening for events of tenant "Acme" (${acme.tenantId})`);

    const connected = await connectAccount(broker, acme, "scm");
    expect((await call(broker, "DELETE", `/v1/connections/${connected}`, asOperator(acme))).status).toBe(200);
    await connectAccount(broker, globex, "scm");
    const deliveries = await receiver.waitFor(2, 60_000);

    const verified = deliveries.map((delivery) => new Webhook(secret).verify(delivery.body, delivery.headers) as { type: string; data: { connected_account_id: string } });
    expect(verified.map((event) => event.type)).toEqual(["connection.created", "connection.revoked"]);
    expect(verified.map((event) => event.data.connected_account_id)).toEqual([connected, connected]);
    expect(deliveries.map((delivery) => delivery.path)).toEqual(["/hooks", "/hooks"]);
    for (const delivery of deliveries) expect(delivery.headers["webhook-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString("base64")}`).verify(deliveries[0]!.body, deliveries[0]!.headers)).toThrow();

    await waitForOutput(/connection\.revoked +\S+ +-> 200/);
    expect(listened).toMatch(/connection\.created +[0-9a-f-]{36} +-> 200/);
    // Neither the connection made before it started nor another tenant's.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(receiver.received).toHaveLength(2);
    expect(JSON.stringify(receiver.received)).not.toContain(before);
    expect(listened).not.toContain(acme.operatorToken);
  });

  it("refuses a forward target off this machine and an api path that is a URL, before any request", async () => {
    const [remote, absolute] = await Promise.all([
      runToolbroker(["listen", "--forward-to", "https://hooks.example.com/x"], env),
      runToolbroker(["api", "GET", "//evil.example/v1/me"], env),
    ]);
    expect(remote.code).toBe(2);
    expect(remote.stderr).toMatch(/^toolbroker: --forward-to must be a URL on this machine/);
    expect(absolute.code).toBe(2);
    expect(absolute.stderr).toMatch(/^toolbroker: the path must start with \//);
  });

  it("token mints a broker JWT with a control key the CLI made once, and logout revokes that key and removes the login", async () => {
    const [first, second] = [await runToolbroker(["token"], env), await runToolbroker(["token"], env)];
    for (const minted of [first, second]) expect(minted.code, minted.stderr).toBe(0);
    const jwt = first.stdout.trim();
    expect((await call(broker, "GET", "/v1/tools?limit=1", { token: jwt })).status).toBe(200);
    const cliKeys = async () => ((await call(broker, "GET", "/v1/keys", asOperator(acme))).body.data as { name: string; status: string }[]).filter((key) => key.name === "toolbroker CLI");
    expect((await cliKeys()).map((key) => key.status)).toEqual(["active"]);

    const out = await runToolbroker(["logout"], env);
    expect(out).toMatchObject({ code: 0, stdout: `Logged out: removed ${env.TOOLBROKER_CONFIG}\n` });
    expect((await cliKeys()).map((key) => key.status)).toEqual(["revoked"]);
    expect(existsSync(env.TOOLBROKER_CONFIG!)).toBe(false);
  });

  it("login refuses a plain-http broker on another machine, and a token the broker does not accept", async () => {
    const other = { TOOLBROKER_CONFIG: join(home, "other.json") };
    const [plain, refused] = await Promise.all([
      runToolbroker(["login", "--url", "http://broker.example.com", "--token", "x"], other),
      runToolbroker(["login", "--url", broker.url, "--token", "eyJhbGciOiJub25lIn0.e30."], other),
    ]);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(/must be https:\/\/ for a broker on another machine/);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/does not accept this operator token \(401\)/);
    const whoami = await runToolbroker(["whoami"], other);
    expect(whoami.code).toBe(2);
    expect(whoami.stderr).toMatch(/^toolbroker: not logged in: run toolbroker login first/);
  });
});
