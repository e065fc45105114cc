/**
 * A client in its own process that posts one oversized JSON body several times and prints what
 * each try saw, as JSON on stdout. Its own process, as for a real client: in the test's process
 * the broker and the client share one event loop, which hides when the answer is lost.
 *
 *   node --import tsx oversized-body-client.ts <url> <token> <bytes> <tries> <fetch|http> [chunked]
 */
import { request } from "node:http";

export type Outcome = { status: number; body: string } | { error: string };

const [url, token, bytes, tries, mode, framing] = process.argv.slice(2) as [string, string, string, string, "fetch" | "http", string | undefined];
const chunked = framing === "chunked";
const body = Buffer.from(JSON.stringify({ padding: "x".repeat(Number(bytes)) }));
const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };

/** The body as a stream of 64 KiB pieces, so fetch sends it chunked (no Content-Length). */
const streamed = () =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < body.length; at += 64 * 1024) controller.enqueue(body.subarray(at, at + 64 * 1024));
      controller.close();
    },
  });

async function withFetch(): Promise<Outcome> {
  try {
    const init = chunked ? { body: streamed(), duplex: "half" } : { body };
    const response = await fetch(url, { method: "POST", headers, ...init } as RequestInit);
    return { status: response.status, body: await response.text() };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { error: cause?.code ?? cause?.message ?? String(error) };
  }
}

function withHttpRequest(): Promise<Outcome> {
  return new Promise((resolve) => {
    const framingHeaders = chunked ? { "transfer-encoding": "chunked" } : { "content-length": String(body.length) };
    const sent = request(url, { method: "POST", headers: { ...headers, ...framingHeaders } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      response.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    });
    sent.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    sent.end(body);
  });
}

const outcomes: Outcome[] = [];
for (let i = 0; i < Number(tries); i += 1) outcomes.push(mode === "fetch" ? await withFetch() : await withHttpRequest());
process.stdout.write(JSON.stringify(outcomes));
