/**
 * How requests are logged: what a request line shows and hides, and when it is written. Shared
 * by the broker (app.ts) and the benchmark's framework floor, which must log as the broker does.
 */
import { LogController, type FastifyReply, type FastifyRequest } from "fastify";

/**
 * A connect link's token is the session's only credential, and so is an approval link's
 * (approvals/approval-links.ts): logs keep the connect token's prefix only, and none of the other.
 */
const LINK_TOKEN = /^\/(connect\/cs_|approve\/)[^/]*/;

function requestLogSerializer(request: FastifyRequest) {
  // Query strings can carry OAuth codes and state: log the path only.
  return { id: request.id, method: request.method, path: request.url.split("?")[0]!.replace(LINK_TOKEN, "/$1…") };
}

/** What a request's line says beyond the usual fields, noted while it was answered. */
const NOTED = new WeakMap<FastifyRequest, Record<string, unknown>>();

/**
 * Adds fields to the request's one line: the error code it answered with, an upstream's status.
 * An expected refusal is said there rather than in a line of its own.
 */
export function noteOnRequestLine(request: FastifyRequest, fields: Record<string, unknown>) {
  NOTED.set(request, { ...NOTED.get(request), ...fields });
}

/**
 * One info line per request, when it completes: request id (the child logger's `reqId`), method,
 * path, status and duration, and what was noted (the error code of an error answer). Fastify's
 * own "incoming request" line is dropped. A response that could not be written (the client went
 * away mid-answer) is one warn line naming why, without a stack: the socket's failure is not a
 * fault of the broker's to debug.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (error) {
      reply.log.warn({ req: request, res: reply, responseTime: reply.elapsedTime, ...NOTED.get(request), error: error.message }, "request errored");
      return;
    }
    reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime, ...NOTED.get(request) }, "request completed");
  }
}

export const CENSOR = "[redacted]";
const TOKEN_FIELDS = ["access_token", "refresh_token"] as const;
const HEADER_FIELDS = ["authorization", "Authorization"] as const;

const isPlainObject = (value: object) => {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
};

/**
 * `value` with each of `fields` it has censored, in a copy; `value` itself when it has none. An
 * error or other class instance keeps its prototype and every own field in the copy, so that it
 * is still written as one (an error's type, message and stack).
 */
function censorFields(value: object, fields: readonly string[]): object {
  const present = (field: string) => Object.hasOwn(value, field) && (value as Record<string, unknown>)[field] !== undefined;
  // Checked before anything is built: almost every value logged has none of them.
  if (!fields.some(present)) return value;
  const found = fields.filter(present);
  if (isPlainObject(value)) {
    const copy: Record<string, unknown> = { ...value };
    for (const field of found) copy[field] = CENSOR;
    return copy;
  }
  const descriptors = Object.getOwnPropertyDescriptors(value);
  for (const field of found) descriptors[field] = { value: CENSOR, enumerable: true, writable: true, configurable: true };
  return Object.create(Object.getPrototypeOf(value) as object | null, descriptors) as object;
}

function censorLogValue(key: string, value: unknown): unknown {
  if ((TOKEN_FIELDS as readonly string[]).includes(key) && value !== undefined) return CENSOR;
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  let censored = censorFields(value, TOKEN_FIELDS);
  if (key === "headers") censored = censorFields(censored, HEADER_FIELDS);
  // A Fastify request logged as `req` is left whole: its serializer writes no header.
  const headers = key === "req" && isPlainObject(value) ? (censored as { headers?: unknown }).headers : undefined;
  if (headers !== null && typeof headers === "object") {
    const censoredHeaders = censorFields(headers, HEADER_FIELDS);
    if (censoredHeaders !== headers) censored = { ...censored, headers: censoredHeaders };
  }
  return censored;
}

/**
 * What no log line shows, whatever is logged: the `authorization` (or `Authorization`) of
 * `headers`, at the top or under a plain `req`, and an `access_token` or `refresh_token` at the top
 * or in any object there.
 * Pino's own `redact` option clones every value of every line, and of every child logger's
 * bindings, to look (about half the request line's cost); this copies only what it censors.
 */
export function censorLogObject<T extends object>(object: T): T {
  const fields = object as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const key in fields) {
    if (!Object.hasOwn(fields, key)) continue;
    const value = fields[key];
    const censored = censorLogValue(key, value);
    if (censored !== value) (copy ??= { ...fields })[key] = censored;
  }
  return (copy ?? object) as T;
}

/** Pino options of the request log: credentials and tokens are censored wherever they appear. */
export const REQUEST_LOG_OPTIONS = {
  formatters: { log: censorLogObject },
  serializers: { req: requestLogSerializer },
};

type BindingLogger = {
  child(bindings: Record<string, unknown>, options?: object): unknown;
  /** Pino's; Fastify's logger type does not declare it. */
  setBindings?(bindings: Record<string, unknown>): void;
};

/**
 * A child logger's bindings are censored like a line. Pino applies a `bindings` formatter to the
 * root logger only (and rebuilds its formatters for every child when one is set), so the root's
 * `child` and `setBindings` do it; children are made from their parent, so they inherit both.
 */
export function censorChildBindings(root: BindingLogger) {
  const { child, setBindings } = root;
  root.child = function censoredChild(this: BindingLogger, bindings, options) {
    return child.call(this, censorLogObject(bindings), options);
  };
  if (setBindings) {
    root.setBindings = function censoredBindings(this: BindingLogger, bindings) {
      setBindings.call(this, censorLogObject(bindings));
    };
  }
}
