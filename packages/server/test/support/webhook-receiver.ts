/**
 * A real webhook receiver on loopback. It records every request, answers as the test says
 * (status, headers, a delay, or never), and verifies deliveries with the official
 * `standardwebhooks` library, as a tenant's receiver would.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { Webhook } from "standardwebhooks";

export type ReceivedWebhook = { headers: Record<string, string>; body: string; receivedAt: number; path: string };
export type ReceiverReply = { status?: number; headers?: Record<string, string>; delayMs?: number; hang?: boolean };
export type Responder = (request: ReceivedWebhook, index: number) => ReceiverReply;

export type WebhookReceiver = {
  url: string;
  port: number;
  received: ReceivedWebhook[];
  /** TCP connections accepted, to prove that a refused URL was never connected to. */
  connections: number;
  /** The most requests that were ever waiting for an answer at once. */
  maxConcurrent: number;
  respond(responder: Responder): void;
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
};

const flatHeaders = (request: IncomingMessage) =>
  Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]));

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let responder: Responder = () => ({ status: 200 });
  const waiters = new Set<() => void>();
  const state = { connections: 0, open: 0, maxConcurrent: 0 };

  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const entry = { headers: flatHeaders(request), body: Buffer.concat(chunks).toString("utf8"), receivedAt: Date.now(), path: request.url ?? "/" };
      received.push(entry);
      const reply = responder(entry, received.length - 1);
      state.open += 1;
      state.maxConcurrent = Math.max(state.maxConcurrent, state.open);
      response.on("close", () => {
        state.open -= 1;
      });
      for (const wake of waiters) wake();
      if (reply.hang) return;
      const send = () => response.writeHead(reply.status ?? 200, reply.headers ?? {}).end("ok");
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  };

  const server = createServer(handle);
  server.on("connection", () => {
    state.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;

  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    get connections() {
      return state.connections;
    },
    get maxConcurrent() {
      return state.maxConcurrent;
    },
    respond(next) {
      responder = next;
    },
    waitFor(count, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(received.slice(0, count));
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${count} webhook(s) within ${timeoutMs} ms, got ${received.length}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Verifies like a receiver: signature and timestamp tolerance (the official library's verify). */
export function verifyWebhook(secret: string, delivery: Pick<ReceivedWebhook, "headers" | "body">): unknown {
  return new Webhook(secret).verify(delivery.body, delivery.headers);
}

/**
 * The signature check alone, for tests whose broker runs on an injected clock far from real time
 * (verify() would reject the timestamp as too old): the official library signs, we compare.
 */
export function signedWith(secret: string, delivery: Pick<ReceivedWebhook, "headers" | "body">): boolean {
  const expected = new Webhook(secret).sign(delivery.headers["webhook-id"]!, new Date(Number(delivery.headers["webhook-timestamp"]) * 1000), delivery.body);
  return (delivery.headers["webhook-signature"] ?? "").split(" ").includes(expected);
}
