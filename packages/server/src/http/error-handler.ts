/** The one place where any thrown error becomes the SPEC §7 envelope. */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { BrokerError, type ErrorCode } from "../errors.js";

type Envelope = { ok: false; error: { code: string; message: string; details?: Record<string, unknown>; request_id?: string } };

export function sendError(reply: FastifyReply, status: number, code: ErrorCode | string, message: string, details?: Record<string, unknown>) {
  const body: Envelope = { ok: false, error: { code, message, ...(details ? { details } : {}), request_id: String(reply.request.id) } };
  return reply.code(status).type("application/json; charset=utf-8").send(body);
}

const FRAMEWORK_ERRORS: Record<string, { status: number; code: ErrorCode; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: "payload_too_large", message: "the request body is too large" },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: "unsupported_media_type", message: "the body must be application/json" },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: "invalid_request", message: "the Content-Length does not match the body" },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: "invalid_json", message: "the body is empty but declared as JSON" },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: "invalid_json", message: "the body is not valid JSON" },
};

type ValidationIssue = { instancePath?: string; message?: string; params?: Record<string, unknown>; keyword?: string };

function describeValidation(error: FastifyError & { validation: ValidationIssue[]; validationContext?: string }) {
  const where = error.validationContext ?? "body";
  const fields = error.validation.map((issue) => {
    const missing = issue.params?.missingProperty;
    const extra = issue.params?.additionalProperty;
    const base = issue.instancePath ?? "";
    const path = missing ? `${base}/${String(missing)}` : extra ? `${base}/${String(extra)}` : base;
    return {
      location: where,
      field: path || "/",
      message: extra ? "is not an allowed property" : (issue.message ?? "is invalid"),
    };
  });
  return { message: `the request ${where} is invalid: ${fields.map((f) => `${f.field} ${f.message}`).join("; ")}`, fields };
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) =>
    sendError(reply, 404, "not_found", `no route for ${request.method} ${request.url.split("?")[0]}`),
  );

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof BrokerError) {
      if (error.headers) reply.headers(error.headers);
      if (error.status >= 500) request.log.warn({ code: error.code, err: error.cause ?? error }, error.message);
      return sendError(reply, error.status, error.code, error.message, error.details);
    }
    if ("validation" in error && Array.isArray(error.validation)) {
      const { message, fields } = describeValidation(error as FastifyError & { validation: ValidationIssue[] });
      const override = request.routeOptions.config?.validationError;
      return sendError(reply, override?.status ?? 400, override?.code ?? "invalid_request", message, { fields });
    }
    const known = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
    if (known) return sendError(reply, known.status, known.code, known.message);
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return sendError(reply, error.statusCode, "invalid_request", "the request could not be processed");
    }
    request.log.error({ err: error }, "unhandled error");
    return sendError(reply, 500, "internal_error", "internal error");
  });
}
