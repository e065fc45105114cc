/**
 * How requests are logged: what a request line shows and hides, and when it is written. Shared
 * by the broker (app.ts) and the benchmark's framework floor, which must log as the broker does.
 */
import { LogController, type FastifyReply, type FastifyRequest } from "fastify";

/** A connect link's token is the session's only credential: logs keep its prefix only. */
const CONNECT_TOKEN = /^\/connect\/cs_[^/]*/;

function requestLogSerializer(request: FastifyRequest) {
  // Query strings can carry OAuth codes and state: log the path only.
  return { id: request.id, method: request.method, path: request.url.split("?")[0]!.replace(CONNECT_TOKEN, "/connect/cs_…") };
}

/**
 * One info line per request, when it completes: request id (the child logger's `reqId`), method,
 * path, status and duration. Fastify's own "incoming request" line is dropped (a request that
 * fails still logs Fastify's "request errored" line).
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (error) return super.requestCompleted(error, request, reply);
    reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, "request completed");
  }
}

/** Pino options of the request log: credentials and tokens are redacted wherever they appear. */
export const REQUEST_LOG_OPTIONS = {
  redact: { paths: ["req.headers.authorization", "headers.authorization", "*.access_token", "*.refresh_token"], censor: "[redacted]" },
  serializers: { req: requestLogSerializer },
};
