/**
 * The only way the broker talks to a SaaS API: keep-alive pools per origin, a timeout, no
 * redirects, and a refusal to leave the provider's configured base URL.
 */
import { Agent, request, type Dispatcher } from "undici";
import { BrokerError } from "../errors.js";

export type UpstreamRequest = {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  /** Sent as JSON unless `form` is set. */
  body?: unknown;
  form?: Record<string, string>;
};

export type UpstreamResponse = { status: number; headers: Record<string, string | string[] | undefined>; body: unknown; latencyMs: number };

export const UPSTREAM_TIMEOUT_MS = 15_000;

/**
 * An upstream failure that happened before any byte of the request was written (the URL was
 * refused, or no connection could be opened): the provider cannot have acted on it.
 */
export class RequestNotSentError extends BrokerError {}

/** Errors of opening a connection: the request itself was never written. */
const CONNECT_ERRORS = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"]);
export const MAX_UPSTREAM_RESPONSE_BYTES = 5 * 1024 * 1024;

export type UpstreamClient = {
  send(baseUrl: string, req: UpstreamRequest, options?: { timeoutMs?: number }): Promise<UpstreamResponse>;
  close(): Promise<void>;
};

export function buildUpstreamUrl(baseUrl: string, req: Pick<UpstreamRequest, "path" | "query">): URL {
  const base = new URL(baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`);
  // An empty path means the configured URL itself (e.g. a vendor's revocation endpoint).
  const url = req.path === "" ? new URL(baseUrl) : new URL(req.path.replace(/^\/+/, ""), base);
  // A path like "../../other" or an absolute URL must not escape the configured API.
  if (url.origin !== base.origin || (req.path !== "" && !url.pathname.startsWith(base.pathname))) {
    throw new RequestNotSentError("invalid_tool_args", "the request would leave the provider's API base URL");
  }
  for (const [key, value] of Object.entries(req.query ?? {})) {
    if (value !== undefined) url.searchParams.set(key, String(value));
  }
  return url;
}

export function createUpstreamClient(options: { timeoutMs?: number; dispatcher?: Dispatcher } = {}): UpstreamClient {
  const timeoutMs = options.timeoutMs ?? UPSTREAM_TIMEOUT_MS;
  const agent = options.dispatcher ?? new Agent({ keepAliveTimeout: 30_000, connections: 128, pipelining: 1 });

  return {
    async send(baseUrl, req, perCall = {}) {
      const url = buildUpstreamUrl(baseUrl, req);
      const headers: Record<string, string> = { accept: "application/json", ...req.headers };
      let body: string | undefined;
      if (req.form) {
        body = new URLSearchParams(req.form).toString();
        headers["content-type"] = "application/x-www-form-urlencoded";
      } else if (req.body !== undefined) {
        body = JSON.stringify(req.body);
        headers["content-type"] ??= "application/json; charset=utf-8";
      }
      const started = performance.now();
      const timeout = perCall.timeoutMs ?? timeoutMs;
      try {
        const response = await request(url, {
          method: req.method,
          headers,
          body,
          dispatcher: agent,
          headersTimeout: timeout,
          bodyTimeout: timeout,
          signal: AbortSignal.timeout(timeout),
        });
        const text = await readLimited(response.body);
        return { status: response.statusCode, headers: response.headers, body: parseBody(text), latencyMs: performance.now() - started };
      } catch (error) {
        if (error instanceof BrokerError) throw error;
        const code = (error as { code?: string } | null)?.code;
        if (code && CONNECT_ERRORS.has(code)) throw new RequestNotSentError("upstream_error", "the upstream could not be reached", { reason: "network" });
        const timedOut = error instanceof Error && /timeout|abort/i.test(`${error.name} ${error.message}`);
        throw new BrokerError("upstream_error", timedOut ? `the upstream did not answer within ${timeout} ms` : "the upstream could not be reached", {
          reason: timedOut ? "timeout" : "network",
        });
      }
    },
    close: () => agent.close(),
  };
}

async function readLimited(body: Dispatcher.ResponseData["body"]): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > MAX_UPSTREAM_RESPONSE_BYTES) {
      body.destroy();
      throw new BrokerError("upstream_error", `the upstream response exceeded ${MAX_UPSTREAM_RESPONSE_BYTES} bytes`, { reason: "too_large" });
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function parseBody(text: string): unknown {
  if (text === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
