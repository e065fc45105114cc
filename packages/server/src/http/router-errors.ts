/**
 * Errors raised before a route runs: the router's (a path that is not valid percent-encoding, a
 * path segment over the router's length limit) and Node's HTTP parser's (a request that is not
 * HTTP). Fastify answers both with its own bodies unless told otherwise; here they become the
 * envelope with an `x-request-id`, and never echo the path.
 */
import { randomUUID } from "node:crypto";
import type { Socket } from "node:net";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { sendError } from "./error-handler.js";

/**
 * The router's limit on one path parameter, as sent (percent-encoded): room for an end user id of
 * 255 characters of up to three UTF-8 bytes each (255 × 9 = 2,295).
 */
export const MAX_PARAM_LENGTH = 2300;

/** Fastify's `frameworkErrors` option. */
export function answerRouterError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  // The router calls this before any hook, so the onSend hook that sets this header may not run.
  reply.header("x-request-id", request.id);
  switch (error.code) {
    case "FST_ERR_BAD_URL":
      return sendError(reply, 400, "invalid_request", "the request path is not valid percent-encoded UTF-8");
    case "FST_ERR_MAX_PARAM_LENGTH":
      // No path parameter is this long: the same answer as any other bad id.
      return sendError(reply, 400, "invalid_request", `a path parameter is longer than ${MAX_PARAM_LENGTH} characters`);
    default:
      request.log.error({ err: error }, "router error");
      return sendError(reply, 500, "internal_error", "internal error");
  }
}

/**
 * Fastify's `clientErrorHandler`: the bytes on the socket are not an HTTP request Node can parse
 * (a NUL or other control character in a header, a malformed request line, …), so there is no
 * request object; the answer is still the envelope, with a fresh request id.
 */
export function answerClientError(_error: Error, socket: Socket) {
  if (!socket.writable) return;
  const requestId = randomUUID();
  const body = JSON.stringify({ ok: false, error: { code: "invalid_request", message: "malformed HTTP request", request_id: requestId } });
  socket.end(
    "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\n" +
      `x-request-id: ${requestId}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
