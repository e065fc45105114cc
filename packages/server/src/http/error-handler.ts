/** The one place where any thrown error becomes the error envelope. */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { BrokerError, type ErrorCode } from "../errors.js";
import { describeIssues, type ValidationIssue } from "../shared/validation-issues.js";
import { databaseUnavailableReason } from "../store/database-errors.js";
import { bodyLimitOf, keepConnectionToDrain } from "./body-drain.js";
import { formatByteLimit } from "../shared/byte-sizes.js";
import { errorPageFor, sendPage, wantsHtml } from "./html-page.js";
import { noteOnRequestLine } from "./request-log.js";

type Envelope = { ok: false; error: { code: string; message: string; details?: Record<string, unknown>; request_id?: string } };

export function sendError(reply: FastifyReply, status: number, code: ErrorCode | string, message: string, details?: Record<string, unknown>) {
  noteOnRequestLine(reply.request, { error_code: code });
  // The same error, as a page, for a person's browser on a browser route (the request id is in the header).
  if (wantsHtml(reply.request)) return sendPage(reply, status, errorPageFor(reply.request, status, code, message));
  const body: Envelope = { ok: false, error: { code, message, ...(details ? { details } : {}), request_id: String(reply.request.id) } };
  return reply.code(status).type("application/json; charset=utf-8").send(body);
}

const FRAMEWORK_ERRORS: Record<string, { status: number; code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: "unsupported_media_type", message: "the body must be application/json" },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: "invalid_request", message: "the Content-Length does not match the body" },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: "invalid_json", message: "the body is empty but declared as JSON" },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: "invalid_json", message: "the body is not valid JSON" },
};

function describeValidation(error: FastifyError & { validation: ValidationIssue[]; validationContext?: string }) {
  const where = error.validationContext ?? "body";
  const fields = describeIssues(error.validation).map(({ field, message }) => ({ location: where, field, message }));
  return { message: `the request ${where} is invalid: ${fields.map((f) => `${f.field} ${f.message}`).join("; ")}`, fields };
}

/**
 * The database being unreachable (or its file unusable) says nothing about the request: 503, and
 * the caller may retry. Checked before anything else, also behind a BrokerError that wraps it
 * (e.g. the vault reporting its storage failed). Logged at warn with the reason code only.
 */
function sendDatabaseUnavailable(request: FastifyRequest, reply: FastifyReply, reason: string) {
  request.log.warn({ code: "service_unavailable", reason }, "the database is unavailable");
  reply.header("retry-after", DATABASE_RETRY_AFTER_SECONDS);
  return sendError(reply, 503, "service_unavailable", "the database is unavailable; retry shortly");
}

const DATABASE_RETRY_AFTER_SECONDS = "2";

/** A path is echoed (without its query) up to this many characters, so no answer repeats a huge URL. */
const MAX_ECHOED_PATH = 200;
const echoedPath = (url: string) => {
  const path = url.split("?")[0]!;
  return path.length > MAX_ECHOED_PATH ? `${path.slice(0, MAX_ECHOED_PATH)}…` : path;
};

/** 413 naming the route's limit; the connection stays open to drain what the client still sends (body-drain.ts). */
function sendBodyTooLarge(request: FastifyRequest, reply: FastifyReply) {
  const limit = bodyLimitOf(request);
  keepConnectionToDrain(request, reply);
  return sendError(reply, 413, "payload_too_large", `the request body is larger than ${formatByteLimit(limit)}, this route's limit`, { limit_bytes: limit });
}

/**
 * A BrokerError of 5xx is an answer the broker chose, not a bug: an upstream answered an error,
 * timed out or could not be reached, the vault is away. None is logged with a stack. An
 * upstream's 4xx (a repository that does not exist, say) is the vendor's expected answer: the
 * request's own line says it (`upstream_status`). Anything else is one warn line besides (code,
 * status, the upstream's status, the reason); only an underlying failure the error wraps
 * (`cause`, e.g. the vault's storage failing) is written with its stack.
 */
function logServerSideAnswer(request: FastifyRequest, error: BrokerError) {
  const { upstream_status: upstreamStatus, reason } = (error.details ?? {}) as { upstream_status?: unknown; reason?: unknown };
  if (upstreamStatus !== undefined) noteOnRequestLine(request, { error_code: error.code, upstream_status: upstreamStatus });
  const vendorsAnswer = typeof upstreamStatus === "number" && upstreamStatus >= 400 && upstreamStatus < 500;
  if (vendorsAnswer && error.cause === undefined) return;
  const fields = {
    code: error.code,
    status: error.status,
    ...(upstreamStatus !== undefined ? { upstream_status: upstreamStatus } : {}),
    ...(reason !== undefined ? { reason } : {}),
    ...(error.cause !== undefined ? { err: error.cause } : {}),
  };
  request.log.warn(fields, error.message);
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) =>
    sendError(reply, 404, "not_found", `no route for ${request.method} ${echoedPath(request.url)}`),
  );

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const databaseDown = !(error instanceof BrokerError) || error.status >= 500 ? databaseUnavailableReason(error) : undefined;
    if (databaseDown) return sendDatabaseUnavailable(request, reply, databaseDown);
    if (error instanceof BrokerError) {
      if (error.headers) reply.headers(error.headers);
      if (error.status >= 500) logServerSideAnswer(request, error);
      return sendError(reply, error.status, error.code, error.message, error.details);
    }
    if ("validation" in error && Array.isArray(error.validation)) {
      const { message, fields } = describeValidation(error as FastifyError & { validation: ValidationIssue[] });
      const override = request.routeOptions.config?.validationError;
      return sendError(reply, override?.status ?? 400, override?.code ?? "invalid_request", message, { fields });
    }
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") return sendBodyTooLarge(request, reply);
    const known = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
    if (known) return sendError(reply, known.status, known.code, known.message);
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return sendError(reply, error.statusCode, "invalid_request", "the request could not be processed");
    }
    request.log.error({ err: error }, "unhandled error");
    return sendError(reply, 500, "internal_error", "internal error");
  });
}
