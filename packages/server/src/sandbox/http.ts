/** Minimal node:http plumbing shared by the fake vendor servers. */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import type { FakeFailure } from "./types.js";

export type FakeRequest = {
  method: string;
  path: string;
  query: Record<string, string>;
  /** Every query parameter in order, repeated names kept. */
  queryEntries: [string, string][];
  headers: IncomingMessage["headers"];
  /** Raw body text. */
  text: string;
  /** Form fields (x-www-form-urlencoded bodies) or the top-level fields of a JSON object body. */
  fields: Record<string, string>;
  /** Parsed body: JSON value, form fields as an object, or undefined when empty/unparseable. */
  body: unknown;
  /** The body claimed to be JSON but did not parse. */
  invalidJson: boolean;
};

export type FakeRoute = (req: FakeRequest, res: ServerResponse) => Promise<void> | void;

export type RunningServer = { url: string; close(): Promise<void> };

export async function startServer(route: FakeRoute): Promise<RunningServer> {
  const server = createServer((incoming, res) => {
    readRequest(incoming)
      .then((req) => route(req, res))
      .catch((error: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { message: `fake upstream crashed: ${String(error)}` });
        else res.end();
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function readRequest(incoming: IncomingMessage): Promise<FakeRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  const url = new URL(incoming.url ?? "/", "http://fake.invalid");
  const contentType = String(incoming.headers["content-type"] ?? "").toLowerCase();
  let body: unknown;
  let fields: Record<string, string> = {};
  let invalidJson = false;
  if (text && contentType.includes("application/json")) {
    try {
      body = JSON.parse(text);
      fields = stringFields(body);
    } catch {
      invalidJson = true;
    }
  } else if (text) {
    fields = Object.fromEntries(new URLSearchParams(text));
    body = fields;
  }
  return {
    method: incoming.method ?? "GET",
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    queryEntries: [...url.searchParams],
    headers: incoming.headers,
    text,
    fields,
    body,
    invalidJson,
  };
}

function stringFields(value: unknown): Record<string, string> {
  if (!value || typeof value !== "object" || Array.isArray(value)) return {};
  const fields: Record<string, string> = {};
  for (const [key, field] of Object.entries(value)) {
    if (typeof field === "string") fields[key] = field;
    else if (typeof field === "number" || typeof field === "boolean") fields[key] = String(field);
  }
  return fields;
}

export function header(req: FakeRequest, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...lowerCaseKeys(headers) });
  res.end(JSON.stringify(body));
}

export function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...lowerCaseKeys(headers) });
  res.end(text);
}

export function sendEmpty(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(status, lowerCaseKeys(headers));
  res.end();
}

/** Header names in one case, so a caller's `Content-Type` replaces the default instead of doubling it. */
function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

export function redirect(res: ServerResponse, location: string): void {
  sendEmpty(res, 302, { location });
}

export function sendFailure(res: ServerResponse, failure: FakeFailure): void {
  const headers = { ...failure.headers };
  if (failure.body === undefined) return sendEmpty(res, failure.status, headers);
  if (typeof failure.body === "string") return sendText(res, failure.status, failure.body, headers);
  sendJson(res, failure.status, failure.body, headers);
}

/** Client credentials from HTTP Basic (RFC 6749 §2.3.1, form-encoded parts) or the body. */
export function clientCredentials(req: FakeRequest): { clientId?: string; clientSecret?: string; viaBasic: boolean } {
  const authorization = header(req, "authorization");
  if (authorization?.toLowerCase().startsWith("basic ")) {
    const decoded = Buffer.from(authorization.slice(6).trim(), "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon > 0) {
      return {
        clientId: decodeURIComponent(decoded.slice(0, colon)),
        clientSecret: decodeURIComponent(decoded.slice(colon + 1)),
        viaBasic: true,
      };
    }
  }
  return { clientId: req.fields.client_id, clientSecret: req.fields.client_secret, viaBasic: false };
}

/** `Bearer x` → `x`; anything else → undefined. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  return match?.[1];
}

export async function delay(ms: number): Promise<void> {
  if (ms > 0) await sleep(ms);
}
