/**
 * The only way the broker talks to a SaaS API: keep-alive pools per origin, a timeout, no
 * redirects, and a refusal to leave the provider's configured base URL.
 */
import { Agent, fetch as undiciFetch, type Dispatcher } from "undici";
import { BrokerError } from "../errors.js";
import { localhostFirstLookup, type LookupFunction } from "../shared/loopback.js";
import { formatByteLimit } from "../shared/byte-sizes.js";
import { memoizeByKey } from "../shared/memo.js";
import type { UrlSafety } from "../shared/url-safety.js";

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
  /** `guarded`: a tenant-defined URL, whose every connection is checked like a webhook's. */
  send(baseUrl: string, req: UpstreamRequest, options?: { timeoutMs?: number; guarded?: boolean }): Promise<UpstreamResponse>;
  /** `fetch` for OAuth requests to a tenant-defined provider, through the same checks. */
  guardedFetch: typeof fetch;
  close(): Promise<void>;
};

/** A provider's base URL, parsed once rather than on every call (the URL is only read, never changed). */
const parsedBase = memoizeByKey((baseUrl) => new URL(baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`), { maxEntries: 1_000, maxKeyLength: 2_048 });

/**
 * A path that resolves against a base by plain concatenation: characters a URL path keeps as they
 * are, no query or fragment, no ":" (a first segment with one would read as a scheme), no "\"
 * (read as "/"), and no "." or ".." segment, encoded or not. Declared tools' paths are like this.
 */
const PLAIN_PATH = /^[A-Za-z0-9\-._~!$&'()*+,;=@%/]*$/;
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;

export type UpstreamTarget = { origin: string; /** Path and query, as sent. */ path: string; href: string };

export function buildUpstreamUrl(baseUrl: string, req: Pick<UpstreamRequest, "path" | "query">): UpstreamTarget {
  const base = parsedBase(baseUrl);
  const relative = req.path.replace(/^\/+/, "");
  const query = Object.entries(req.query ?? {}).filter(([, value]) => value !== undefined);
  // Joined without parsing a URL per call when that is what the parser would answer: a plain path,
  // no query to add, and a base that ends in its path (no query or fragment in the configured URL).
  const plain = req.path !== "" && query.length === 0 && base.search === "" && base.hash === "" && PLAIN_PATH.test(relative) && !DOT_SEGMENT.test(relative);
  if (plain) return { origin: base.origin, path: `${base.pathname}${relative}`, href: `${base.href}${relative}` };
  // An empty path means the configured URL itself (e.g. a vendor's revocation endpoint).
  const url = req.path === "" ? new URL(baseUrl) : new URL(relative, base);
  // A path like "../../other" or an absolute URL must not escape the configured API.
  if (url.origin !== base.origin || (req.path !== "" && !url.pathname.startsWith(base.pathname))) {
    throw new RequestNotSentError("invalid_tool_args", "the request would leave the provider's API base URL");
  }
  for (const [key, value] of query) url.searchParams.set(key, String(value));
  return { origin: url.origin, path: `${url.pathname}${url.search}`, href: url.href };
}

type UpstreamClientOptions = {
  timeoutMs?: number;
  dispatcher?: Dispatcher;
  urlSafety?: UrlSafety;
  /** How names other than localhost ones are resolved for the operator-configured providers (default: the system's). */
  lookup?: LookupFunction;
};

export function createUpstreamClient(options: UpstreamClientOptions = {}): UpstreamClient {
  const timeoutMs = options.timeoutMs ?? UPSTREAM_TIMEOUT_MS;
  // `*.localhost` base URLs reach this machine without a DNS query (RFC 6761).
  const agent = options.dispatcher ?? new Agent({ keepAliveTimeout: 30_000, connections: 128, pipelining: 1, connect: { lookup: localhostFirstLookup(options.lookup) } });
  const { urlSafety } = options;
  // Tenant-defined hosts get their own pool, whose every connect checks the addresses it is about to use.
  const guardedAgent = urlSafety ? new Agent({ keepAliveTimeout: 30_000, connections: 32, pipelining: 1, connect: { lookup: urlSafety.connectLookup } }) : agent;
  const refusedAsNotSent = (error: unknown) =>
    new RequestNotSentError("upstream_error", error instanceof Error ? error.message : "refused to connect", { reason: "address_refused" });

  return {
    guardedFetch: (async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
      urlSafety?.assertSendable(String(input instanceof Request ? input.url : input));
      return undiciFetch(input as string, { ...(init as object), dispatcher: guardedAgent }) as unknown as Response;
    }) as typeof fetch,

    async send(baseUrl, req, perCall = {}) {
      const url = buildUpstreamUrl(baseUrl, req);
      if (perCall.guarded && urlSafety) {
        try {
          urlSafety.assertSendable(url.href);
        } catch (error) {
          throw refusedAsNotSent(error);
        }
      }
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
        const response = await exchange(perCall.guarded ? guardedAgent : agent, {
          origin: url.origin,
          path: url.path,
          method: req.method,
          headers,
          body,
          headersTimeout: timeout,
          bodyTimeout: timeout,
        }, timeout);
        return { status: response.status, headers: response.headers, body: parseBody(response.text), latencyMs: performance.now() - started };
      } catch (error) {
        if (error instanceof BrokerError) throw error;
        const code = (error as { code?: string } | null)?.code ?? (error as { cause?: { code?: string } } | null)?.cause?.code;
        if (code === "ERR_WEBHOOK_ADDRESS_REFUSED") throw refusedAsNotSent((error as { cause?: unknown }).cause ?? error);
        if (code && CONNECT_ERRORS.has(code)) throw new RequestNotSentError("upstream_error", "the upstream could not be reached", { reason: "network" });
        const timedOut = error instanceof Error && /timeout|abort/i.test(`${error.name} ${error.message}`);
        throw new BrokerError("upstream_error", timedOut ? `the upstream did not answer within ${timeout} ms` : "the upstream could not be reached", {
          reason: timedOut ? "timeout" : "network",
        });
      }
    },
    close: async () => {
      await agent.close();
      if (guardedAgent !== agent) await guardedAgent.close();
    },
  };
}

type Exchanged = { status: number; headers: Record<string, string | string[] | undefined>; text: string };

/**
 * One request through `dispatcher`, its body collected as text and refused past
 * MAX_UPSTREAM_RESPONSE_BYTES; the whole exchange, headers and body, must end within `timeoutMs`.
 * A handler of our own rather than undici's `request`: no response stream, no abort signal and no
 * async resource per call, which were a tenth of the request thread's time.
 */
function exchange(dispatcher: Dispatcher, options: Dispatcher.DispatchOptions, timeoutMs: number): Promise<Exchanged> {
  return new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let failure: Error | undefined;
    let status = 0;
    let headers: Exchanged["headers"] = {};
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = (error: Error) => {
      if (failure) return;
      failure = error;
      clearTimeout(timer);
      controller?.abort(error);
      reject(error);
    };
    // Aborted before the request was handed to a connection: it is aborted there, before a byte is written.
    const timer = setTimeout(() => fail(new BrokerError("upstream_error", `the upstream did not answer within ${timeoutMs} ms`, { reason: "timeout" })), timeoutMs);
    dispatcher.dispatch(options, {
      onRequestStart(started) {
        controller = started;
        if (failure) started.abort(failure);
      },
      onResponseStart(_controller, statusCode, responseHeaders) {
        if (statusCode < 200) return;
        status = statusCode;
        headers = responseHeaders as Exchanged["headers"];
      },
      onResponseData(_controller, chunk) {
        size += chunk.length;
        if (size > MAX_UPSTREAM_RESPONSE_BYTES) fail(new BrokerError("upstream_error", `the upstream response is larger than ${formatByteLimit(MAX_UPSTREAM_RESPONSE_BYTES)}, the most the broker reads`, { reason: "too_large", limit_bytes: MAX_UPSTREAM_RESPONSE_BYTES }));
        else chunks.push(chunk);
      },
      onResponseEnd() {
        if (failure) return;
        clearTimeout(timer);
        resolve({ status, headers, text: Buffer.concat(chunks, size).toString("utf8") });
      },
      onResponseError(_controller, error) {
        fail(error);
      },
    });
  });
}

function parseBody(text: string): unknown {
  if (text === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
