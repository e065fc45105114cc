/**
 * The development log format (BROKER_LOG_FORMAT=pretty): every entry pino writes as a JSON line
 * becomes one line a person reads, time, level, message, then its fields as `key=value`, and the
 * request id last. A completed request reads `GET /v1/tools 200 3.1 ms request_id=…`.
 *
 * Entries are formatted from the JSON line pino wrote, after its formatters ran, so whatever the
 * JSON format censors (request-log.ts) is censored here too. One entry is never more than one
 * line, except an error-level entry carrying a stack trace (a bug: an unhandled error, a 500),
 * whose stack follows it, indented, because that is what fixing it needs.
 */
import { prettyFactory } from "pino-pretty";

type LogEntry = Record<string, unknown>;
type Writer = { write(text: string): unknown };

/** Fields the line shows in its own way (or not at all: pid and hostname say nothing in development). */
const SHOWN_APART = new Set(["level", "time", "pid", "hostname", "msg", "reqId", "req", "res", "responseTime", "err"]);
const ERROR_LEVEL = 50;

const oneLine = (text: string) => text.replace(/\r/g, "\\r").replace(/\n/g, "\\n");

/** A bare word stays as it is; anything with spaces, quotes, `=` or structure is written as JSON, which keeps it on one line. */
function formatValue(value: unknown): string {
  if (typeof value === "string") return /^[^\s"=\\]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}

const formatDuration = (milliseconds: unknown) => (typeof milliseconds === "number" ? `${milliseconds.toFixed(1)} ms` : "");

/** `GET /v1/tools 200 3.1 ms` for a request line (request-log.ts writes `req`, `res` and `responseTime`). */
function requestSummary(entry: LogEntry): string | undefined {
  const request = entry.req as { method?: unknown; path?: unknown } | undefined;
  const response = entry.res as { statusCode?: unknown } | undefined;
  if (!request || typeof request !== "object" || !response || typeof response !== "object") return undefined;
  return [request.method, request.path, response.statusCode, formatDuration(entry.responseTime)].filter((part) => part !== undefined && part !== "").join(" ");
}

type LoggedError = { type?: unknown; message?: unknown; stack?: unknown };

function errorSummary(error: LoggedError): string {
  const type = typeof error.type === "string" ? error.type : "Error";
  return typeof error.message === "string" && error.message !== "" ? `${type}: ${error.message}` : type;
}

/** The stack's frames, indented beneath the line; only for an error-level entry (a bug), never for an expected refusal. */
function stackBeneath(entry: LogEntry, error: LoggedError | undefined): string {
  if (!error || typeof error.stack !== "string" || typeof entry.level !== "number" || entry.level < ERROR_LEVEL) return "";
  const frames = error.stack.split("\n").slice(1).map((frame) => `    ${frame.trim()}`);
  return frames.length > 0 ? `\n${frames.join("\n")}` : "";
}

/** The message part of a line: everything after the time and level. */
export function formatEntry(entry: LogEntry): string {
  const message = requestSummary(entry) ?? oneLine(typeof entry.msg === "string" ? entry.msg : "");
  const fields = Object.entries(entry)
    .filter(([key, value]) => !SHOWN_APART.has(key) && value !== undefined)
    .map(([key, value]) => `${key}=${formatValue(value)}`);
  const error = entry.err !== null && typeof entry.err === "object" ? (entry.err as LoggedError) : undefined;
  if (error) fields.push(`err=${formatValue(errorSummary(error))}`);
  if (entry.reqId !== undefined) fields.push(`request_id=${formatValue(entry.reqId)}`);
  return [message, ...fields].filter(Boolean).join(" ") + stackBeneath(entry, error);
}

/**
 * A pino destination writing the readable format to `destination` (standard output by default),
 * synchronously, one `write` per entry. `colorize` unset lets pino-pretty decide from the terminal.
 */
export function readableLogStream(destination: Writer = process.stdout, options: { colorize?: boolean | undefined } = {}): Writer {
  const format = prettyFactory({
    translateTime: "SYS:HH:MM:ss.l",
    ignore: "pid,hostname",
    hideObject: true,
    messageFormat: (entry) => formatEntry(entry),
    ...(options.colorize === undefined ? {} : { colorize: options.colorize }),
  });
  return {
    write(line: string) {
      const text = format(line);
      if (text) destination.write(text);
    },
  };
}
