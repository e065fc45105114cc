/**
 * Durability: `toolbroker worker` runs as a real child process, is killed with SIGKILL in the
 * middle of an attempt, and a new one sends what the dead one left: the lapsed attempt (same
 * webhook-id) and an event committed while no worker ran.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startBroker, createTenant, type TestBroker, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { startWebhookReceiver, verifyWebhook, type WebhookReceiver } from "./support/webhook-receiver.js";
import { emitEvent, listDeliveries, registerEndpoint } from "./support/webhooks.js";

const BIN = fileURLToPath(new URL("../bin/toolbroker.js", import.meta.url));

function startWorker(broker: TestBroker): { child: ChildProcess; output: string[] } {
  const output: string[] = [];
  const child = spawn(process.execPath, [BIN, "worker"], {
    env: {
      ...process.env,
      BROKER_ENV: "test",
      BROKER_DATA_DIR: broker.config.dataDir,
      DATABASE_URL: broker.config.databaseUrl ?? "",
      BROKER_MASTER_KEYS: broker.config.masterKeys!,
      BROKER_WEBHOOK_TIMEOUT_MS: "1000",
      BROKER_LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk) => output.push(String(chunk)));
  child.stderr!.on("data", (chunk) => output.push(String(chunk)));
  return { child, output };
}

const exited = (child: ChildProcess) =>
  new Promise<NodeJS.Signals | number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.signalCode ?? child.exitCode);
    child.once("exit", (code, signal) => resolve(signal ?? code));
  });

describeEachDatabase("webhook delivery across a worker crash", (kind) => {
  let broker: TestBroker;
  let tenant: TestTenant;
  let receiver: WebhookReceiver;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    broker = await startBroker(kind, { env: { BROKER_WEBHOOK_WORKER: "false" } });
    tenant = await createTenant(broker);
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await receiver.close();
    await broker.close();
  });

  it("sends a pending delivery after its worker is killed with SIGKILL mid-attempt and a new one starts", { timeout: 60_000 }, async () => {
    receiver.respond((_request, index) => (index === 0 ? { hang: true } : { status: 200 }));
    const endpoint = await registerEndpoint(broker, tenant, { url: receiver.url });
    const first = await emitEvent(broker, tenant.tenantId, "connection.revoked", { n: 1 });

    const crashing = startWorker(broker);
    children.push(crashing.child);
    await receiver.waitFor(1, 20_000).catch((error) => {
      throw new Error(`${error}\nworker output:\n${crashing.output.join("")}`);
    });
    crashing.child.kill("SIGKILL");
    expect(await exited(crashing.child)).toBe("SIGKILL");
    const [held] = await listDeliveries(broker, tenant, endpoint.id);
    expect(held).toMatchObject({ status: "pending", attempt_count: 0 });

    const second = await emitEvent(broker, tenant.tenantId, "connection.revoked", { n: 2 });
    const restarted = startWorker(broker);
    children.push(restarted.child);
    const received = await receiver.waitFor(3, 30_000).catch((error) => {
      throw new Error(`${error}\nworker output:\n${restarted.output.join("")}`);
    });

    const ids = received.map((r) => r.headers["webhook-id"]);
    expect(ids[0]).toBe(first);
    expect(ids.slice(1).sort()).toEqual([first, second].sort());
    for (const delivery of received.slice(1)) expect(verifyWebhook(endpoint.secret, delivery)).toMatchObject({ type: "connection.revoked" });

    await expect.poll(async () => (await listDeliveries(broker, tenant, endpoint.id)).map((d) => d.status), { timeout: 5000 }).toEqual(["succeeded", "succeeded"]);
    restarted.child.kill("SIGTERM");
    expect(await exited(restarted.child)).toBe(0);
  });
});
