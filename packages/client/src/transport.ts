/**
 * One HTTP exchange with the broker: bearer credential, JSON in and out, the error envelope turned
 * into typed errors, and bounded retries. Retries happen only where repeating is harmless:
 * network errors and 502/503/504 (writes carry an idempotency key, so the broker replays instead
 * of repeating), and 429 after `Retry-After`. Other 4xx answers are never retried.
 */
import { brokerErrorFor, BrokerError, NetworkError, PayloadTooLargeError } from "./errors.js";
import { backoffDelay, parseRetryAfter, retryPolicy, sleep, type RetryOptions, type RetryPolicy } from "./retry.js";

export type TransportOptions = {
  /** The broker's base URL, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** A `fetch` to use instead of the global one (proxies, instrumentation, tests). */
  fetch?: typeof fetch;
  retry?: RetryOptions;
  /** Abort one attempt after this long and treat it as a network error. Default 60 s. */
  requestTimeoutMs?: number;
};

/** Supplies the bearer credential; `refresh` is asked once per call after a 401. */
export type CredentialSource = {
  current(): Promise<string>;
  refresh?(rejected: string): Promise<string | undefined>;
};

export type BrokerRequest = {
  method: "GET" | "POST";
  path: string;
  query?: Record<string, string | undefined>;
  body?: unknown;
  signal?: AbortSignal | undefined;
};

type Answer = { kind: "answer"; status: number; headers: Headers; text: string };
type Outcome = Answer | { kind: "network"; error: unknown };

const RETRYABLE_STATUSES = new Set([502, 503, 504]);
/** The broker's limit on a JSON body (its 413 names the limit that applied). */
export const BROKER_BODY_LIMIT_BYTES = 1024 * 1024;

export type Transport = { send<T>(request: BrokerRequest): Promise<T> };

export function createTransport(options: TransportOptions, credentials: CredentialSource): Transport {
  const base = brokerBaseUrl(options.baseUrl);
  const policy: RetryPolicy = retryPolicy(options.retry);
  const timeoutMs = options.requestTimeoutMs ?? 60_000;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== "function") throw new TypeError("no global fetch: pass options.fetch (Node >= 20, browsers, Deno and Bun have one)");

  async function attempt(request: BrokerRequest, json: string | undefined, token: string): Promise<Outcome> {
    if (request.signal?.aborted) throw request.signal.reason;
    const controller = new AbortController();
    const forwardAbort = () => controller.abort(request.signal?.reason);
    request.signal?.addEventListener("abort", forwardAbort, { once: true });
    const timer = setTimeout(() => controller.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    try {
      const response = await fetchImpl(urlFor(base, request), { ...init(request.method, json, token), signal: controller.signal });
      return { kind: "answer", status: response.status, headers: response.headers, text: await response.text() };
    } catch (error) {
      if (request.signal?.aborted) throw request.signal.reason;
      return { kind: "network", error };
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener("abort", forwardAbort);
    }
  }

  async function send<T>(request: BrokerRequest): Promise<T> {
    let token = await credentials.current();
    let refreshed = false;
    let mayHaveArrived = false;
    const json = request.body === undefined ? undefined : JSON.stringify(request.body);
    for (let retries = 0; ; ) {
      const outcome = await attempt(request, json, token);
      if (outcome.kind === "network" && json !== undefined) throwIfOverLimit(json, outcome.error);
      if (outcome.kind === "answer" && outcome.status === 401 && credentials.refresh && !refreshed) {
        refreshed = true;
        const fresh = await credentials.refresh(token);
        if (fresh) {
          token = fresh;
          continue;
        }
      }
      if (outcome.kind === "answer" && outcome.status >= 200 && outcome.status < 300) return parseSuccess<T>(outcome);
      const error = outcome.kind === "answer" ? errorOf(outcome) : undefined;
      const delay = retries < policy.maxRetries ? retryDelay(outcome, error, { retry: retries + 1, policy, mayHaveArrived }) : undefined;
      if (delay === undefined) throw error ?? unreachable(base, retries + 1, outcome);
      if (outcome.kind === "network") mayHaveArrived = true;
      retries += 1;
      await sleep(delay, request.signal);
    }
  }

  return { send };
}

function brokerBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError("baseUrl must be an absolute http(s) URL, e.g. http://127.0.0.1:8080");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError("baseUrl must use http or https");
  if (url.username || url.password) throw new TypeError("baseUrl must not carry credentials");
  return url.toString().replace(/\/+$/, "");
}

function urlFor(base: string, request: BrokerRequest): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query ?? {})) if (value !== undefined) query.set(name, value);
  const search = query.toString();
  return `${base}${request.path}${search ? `?${search}` : ""}`;
}

function init(method: BrokerRequest["method"], json: string | undefined, token: string): RequestInit {
  const headers: Record<string, string> = { accept: "application/json", authorization: `Bearer ${token}` };
  if (json === undefined) return { method, headers, redirect: "manual" };
  headers["content-type"] = "application/json";
  return { method, headers, body: json, redirect: "manual" };
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

function parseSuccess<T>(answer: Answer): T {
  const body = parseJson(answer.text);
  if (body === undefined || body === null || typeof body !== "object") {
    throw new BrokerError({ code: "unexpected_response", status: answer.status, message: `the broker answered HTTP ${answer.status} without a JSON body`, requestId: answer.headers.get("x-request-id") ?? undefined });
  }
  return body as T;
}

type Envelope = { ok: false; error: { code: string; message: string; details?: Record<string, unknown>; request_id?: string } };

function isEnvelope(body: unknown): body is Envelope {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  return typeof error === "object" && error !== null && typeof error.code === "string" && typeof error.message === "string";
}

/** The typed error for a non-2xx answer. */
export function errorOf(answer: Answer): BrokerError {
  const body = parseJson(answer.text);
  const headerId = answer.headers.get("x-request-id") ?? undefined;
  if (!isEnvelope(body)) {
    return new BrokerError({ code: "unexpected_response", status: answer.status, message: `the broker answered HTTP ${answer.status} without an error envelope`, requestId: headerId });
  }
  const retryAfterMs = parseRetryAfter(answer.headers.get("retry-after"));
  return brokerErrorFor({
    code: body.error.code,
    status: answer.status,
    message: body.error.message,
    details: body.error.details,
    requestId: body.error.request_id ?? headerId,
    retryAfter: retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000),
  });
}

type RetryContext = { retry: number; policy: RetryPolicy; mayHaveArrived: boolean };

/** How long to wait before trying again, or undefined when this outcome is final. */
function retryDelay(outcome: Outcome, error: BrokerError | undefined, context: RetryContext): number | undefined {
  const backoff = backoffDelay(context.retry, context.policy);
  if (outcome.kind === "network") return backoff;
  if (outcome.status === 429) {
    const wait = parseRetryAfter(outcome.headers.get("retry-after")) ?? backoff;
    return wait <= context.policy.maxRetryAfterMs ? wait : undefined;
  }
  // A replayed answer is the stored outcome of an earlier attempt: asking again changes nothing.
  if (RETRYABLE_STATUSES.has(outcome.status)) return outcome.headers.get("idempotent-replayed") === "true" ? undefined : backoff;
  // Our own earlier attempt (whose answer was lost) may still be running under the same key.
  if (error?.code === "request_in_progress" && context.mayHaveArrived) return backoff;
  return undefined;
}

/**
 * The broker drains a few MB past its limit and then closes, so a connection lost while sending a
 * body over the limit is its refusal, and sending it again cannot succeed.
 */
function throwIfOverLimit(json: string, cause: unknown) {
  const bodyBytes = new TextEncoder().encode(json).length;
  if (bodyBytes <= BROKER_BODY_LIMIT_BYTES) return;
  const error = new PayloadTooLargeError({
    code: "payload_too_large",
    status: 413,
    message: `the request body is ${bodyBytes} bytes, over the broker's limit of 1 MiB; the broker closed the connection while it was being sent`,
    details: { limit_bytes: BROKER_BODY_LIMIT_BYTES, body_bytes: bodyBytes },
  });
  Object.defineProperty(error, "cause", { value: cause, enumerable: false });
  throw error;
}

function unreachable(base: string, attempts: number, outcome: Outcome): NetworkError {
  const cause = outcome.kind === "network" ? outcome.error : undefined;
  return new NetworkError(`could not reach the broker at ${new URL(base).origin} (${attempts} attempt${attempts === 1 ? "" : "s"})`, { cause });
}
