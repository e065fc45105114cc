/**
 * Issue 36, item 13: an oversized body still gets its answer. The broker answers 413 as soon as it
 * knows the body is too large; it then reads and discards what the client still sends (bounded in
 * bytes and time, like nginx's lingering close), so a client that writes its whole body before
 * reading gets the envelope instead of EPIPE.
 */
import { spawn } from "node:child_process";
import { connect, type Socket } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRAIN_MAX_BYTES, DRAIN_MAX_MS } from "../src/http/body-drain.js";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import type { Outcome } from "./support/oversized-body-client.js";

const CLIENT = fileURLToPath(new URL("./support/oversized-body-client.ts", import.meta.url));
const MiB = 1024 * 1024;
const TRIES = 10;

/** Runs the client in its own process: `tries` posts of a `bytes`-byte body. */
function postFromAnotherProcess(url: string, token: string, bytes: number, mode: "fetch" | "http", framing: "length" | "chunked" = "length"): Promise<Outcome[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", CLIENT, url, token, String(bytes), String(TRIES), mode, framing], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(stdout) as Outcome[]) : reject(new Error(`client exited ${code}: ${stderr}`))));
  });
}

/** What every try must have read: the envelope naming the limit. */
const tooLarge = (limit: string) => ({ status: 413, body: expect.stringContaining(`"code":"payload_too_large","message":"the request body is larger than ${limit}, this route's limit"`) });

/** Sends `head` and then `body` in `pieces`, each after the previous one was written, and reads the answer only then. */
async function writeAllThenRead(url: string, head: string, body: Buffer, pieces = 64): Promise<{ answer: string; error?: string }> {
  const { hostname, port } = new URL(url);
  const socket = await new Promise<Socket>((resolve, reject) => {
    const opened = connect(Number(port), hostname, () => resolve(opened));
    opened.once("error", reject);
  });
  socket.pause();
  const write = (data: Buffer | string) => new Promise<void>((resolve, reject) => socket.write(data, (error) => (error ? reject(error) : resolve())));
  try {
    await write(head);
    const size = Math.ceil(body.length / pieces);
    for (let at = 0; at < body.length; at += size) await write(body.subarray(at, at + size));
  } catch (error) {
    socket.destroy();
    return { answer: "", error: (error as NodeJS.ErrnoException).code ?? String(error) };
  }
  return readUntilClosedOrAnswered(socket);
}

function readUntilClosedOrAnswered(socket: Socket): Promise<{ answer: string; error?: string }> {
  return new Promise((resolve) => {
    let answer = "";
    const done = (error?: string) => {
      socket.destroy();
      resolve(error === undefined ? { answer } : { answer, error });
    };
    socket.on("data", (chunk) => {
      answer += chunk;
      if (/\r\n\r\n[\s\S]*\}$/.test(answer)) done();
    });
    socket.on("end", () => done());
    socket.on("error", (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
    socket.resume();
  });
}

describe("oversized request bodies", () => {
  let broker: TestBroker;
  let tenant: TestTenant;
  const mintUrl = () => `${broker.url}/v1/broker/token`;

  beforeAll(async () => {
    broker = await startBroker("sqlite");
    tenant = await createTenant(broker);
  });
  afterAll(() => broker.close());

  it(`answers every one of ${TRIES} tries of Node's fetch from another process with the 413 envelope naming the limit`, async () => {
    const outcomes = await postFromAnotherProcess(mintUrl(), tenant.testKey, 6 * MiB, "fetch");
    expect(outcomes).toEqual(Array.from({ length: TRIES }, () => tooLarge("1 MiB (1,048,576 bytes)")));
  });

  it(`answers every one of ${TRIES} tries of http.request from another process with the 413 envelope`, async () => {
    const outcomes = await postFromAnotherProcess(mintUrl(), tenant.testKey, 6 * MiB, "http");
    expect(outcomes).toEqual(Array.from({ length: TRIES }, () => tooLarge("1 MiB (1,048,576 bytes)")));
  });

  it("answers a body sent chunked (no Content-Length) with the 413 envelope, with fetch and with http.request", async () => {
    const [fetched, requested] = await Promise.all([
      postFromAnotherProcess(mintUrl(), tenant.testKey, 6 * MiB, "fetch", "chunked"),
      postFromAnotherProcess(mintUrl(), tenant.testKey, 6 * MiB, "http", "chunked"),
    ]);
    expect(fetched).toEqual(Array.from({ length: TRIES }, () => tooLarge("1 MiB (1,048,576 bytes)")));
    expect(requested).toEqual(Array.from({ length: TRIES }, () => tooLarge("1 MiB (1,048,576 bytes)")));
  });

  it("lets a client that writes its whole body before reading read the 413", async () => {
    const body = Buffer.alloc(6 * MiB, "x");
    const head = `POST /v1/broker/token HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${tenant.testKey}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const { answer, error } = await writeAllThenRead(broker.url, head, body);
    expect(error).toBeUndefined();
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('"code":"payload_too_large"');
    expect(answer).toContain(`"limit_bytes":${MiB}`);
  });

  it("names the route's own limit", async () => {
    const created = await fetch(`${broker.url}/v1/providers/scm/tools/import`, {
      method: "POST",
      headers: { authorization: `Bearer ${tenant.operatorToken}`, "x-broker-tenant-id": tenant.tenantId, "content-type": "application/json" },
      body: JSON.stringify({ document: "x".repeat(4 * MiB + 1) }),
    });
    expect(created.status).toBe(413);
    expect(await created.json()).toMatchObject({ error: { code: "payload_too_large", message: "the request body is larger than 4 MiB (4,194,304 bytes), this route's limit", details: { limit_bytes: 4 * MiB } } });
  });

  it("closes the connection at once when the declared length is past what it would drain", async () => {
    const declared = MiB + DRAIN_MAX_BYTES + 1;
    const socket = connect(Number(new URL(broker.url).port), "127.0.0.1");
    socket.write(`POST /v1/broker/token HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${tenant.testKey}\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`);
    const { answer } = await readUntilClosedOrAnswered(socket);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.toLowerCase()).toContain("connection: close");
  });

  it("bounds the body read after any early answer too: an unauthenticated body that never ends is cut after the drain time", async () => {
    const socket = connect(Number(new URL(broker.url).port), "127.0.0.1");
    socket.write("POST /v1/broker/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk));
    const started = Date.now();
    const trickle = setInterval(() => socket.write(`10000\r\n${"x".repeat(0x10000)}\r\n`), 100);
    await new Promise<void>((resolve) => socket.once("close", () => resolve()).once("error", () => undefined));
    clearInterval(trickle);
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(Date.now() - started).toBeLessThan(DRAIN_MAX_MS + 3_000);
  }, 30_000);

  it("closes a connection that keeps trickling its body once the drain time is over (slow loris)", async () => {
    for (const framing of ["Content-Length: 2000000", "Transfer-Encoding: chunked"]) {
      const socket = connect(Number(new URL(broker.url).port), "127.0.0.1");
      socket.write(`POST /v1/broker/token HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${tenant.testKey}\r\nContent-Type: application/json\r\n${framing}\r\n\r\n`);
      const chunked = framing.startsWith("Transfer");
      // A chunked body is only known to be too large once more than the limit has arrived.
      if (chunked) socket.write(`${(MiB + 1).toString(16)}\r\n${"x".repeat(MiB + 1)}\r\n`);
      let answer = "";
      socket.on("data", (chunk) => (answer += chunk));
      const started = Date.now();
      const trickle = setInterval(() => socket.write(chunked ? "1\r\nx\r\n" : "x"), 100);
      await new Promise<void>((resolve) => socket.once("close", () => resolve()).once("error", () => undefined));
      clearInterval(trickle);
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(Date.now() - started).toBeLessThan(DRAIN_MAX_MS + 3_000);
    }
  }, 30_000);
});
