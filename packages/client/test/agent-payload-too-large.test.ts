/**
 * Issue 36, item 13, through the client: a body over the broker's limit is a typed
 * `PayloadTooLargeError` (code `payload_too_large`), never a network error, whether the client
 * read the broker's 413 or the broker closed the connection past what it drains.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentClient, isPayloadTooLarge, PayloadTooLargeError } from "../src/index.js";
import { startTestBed, type ClientTestBed } from "./support/broker-setup.js";
import type { Thrown } from "./support/oversized-execute.js";
import { recordingFetch } from "./support/recording-fetch.js";

const AGENT = fileURLToPath(new URL("./support/oversized-execute.ts", import.meta.url));
const MiB = 1024 * 1024;
const TRIES = 10;

function executeFromAnotherProcess(bed: ClientTestBed, token: string, bytes: number): Promise<Thrown[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", AGENT, bed.broker.url, token, bed.accountId, String(bytes), String(TRIES)], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(stdout) as Thrown[]) : reject(new Error(`agent exited ${code}: ${stderr}`))));
  });
}

describe("AgentClient and bodies over the broker's limit", () => {
  let bed: ClientTestBed;
  let token: string;
  const oversized = (bytes: number) => ({ tool_name: "scm.get_authenticated_user", arguments: { padding: "x".repeat(bytes) }, connected_account_id: bed.accountId });

  beforeAll(async () => {
    bed = await startTestBed();
    token = await bed.mintToken();
  });
  afterAll(() => bed.close());

  it(`throws the broker's 413 as PayloadTooLargeError on every one of ${TRIES} tries from an agent in its own process`, async () => {
    const thrown = await executeFromAnotherProcess(bed, token, 6 * MiB);
    const fromBroker = { name: "PayloadTooLargeError", code: "payload_too_large", status: 413, message: "the request body is larger than 1 MiB (1,048,576 bytes), this route's limit", requestId: expect.stringMatching(/^[0-9a-f-]{36}$/), limitBytes: MiB };
    expect(thrown).toEqual(Array.from({ length: TRIES }, () => fromBroker));
  });

  it("throws PayloadTooLargeError, once and without retrying, for a body past what the broker drains", async () => {
    const recorder = recordingFetch();
    const client = new AgentClient({ baseUrl: bed.broker.url, token, fetch: recorder.fetch, retry: { baseDelayMs: 20, maxDelayMs: 100 } });
    const error = await client.execute(oversized(40 * MiB)).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(PayloadTooLargeError);
    expect(error).toMatchObject({ code: "payload_too_large", status: 413, limitBytes: MiB });
    expect(recorder.exchanges).toHaveLength(1);
  });

  it("reads a connection lost while sending a body over 1 MiB as PayloadTooLargeError naming both sizes, not a NetworkError", async () => {
    const recorder = recordingFetch({ failBeforeSending: () => true });
    const client = new AgentClient({ baseUrl: bed.broker.url, token, fetch: recorder.fetch, retry: { baseDelayMs: 20, maxDelayMs: 100 } });
    const error = await client.execute(oversized(2 * MiB)).catch((thrown: unknown) => thrown);
    expect(isPayloadTooLarge(error)).toBe(true);
    const { details, message } = error as PayloadTooLargeError;
    expect(details).toEqual({ limit_bytes: MiB, body_bytes: expect.any(Number) });
    expect(details!.body_bytes).toBeGreaterThan(2 * MiB);
    expect(message).toMatch(/^the request body is \d+ bytes, over the broker's limit of 1 MiB/);
    expect(recorder.exchanges).toHaveLength(1);
  });
});
