/**
 * One MCP server instance per HTTP request (the SDK's stateless serving): it knows the caller the
 * route authenticated and the protocol era, and answers `tools/list` and `tools/call`. Nothing
 * lives between requests, so any broker instance behind a load balancer serves any request.
 */
import { ProtocolError, ProtocolErrorCode, Server, type McpServerFactory } from "@modelcontextprotocol/server";
import type { FastifyBaseLogger } from "fastify";
import { BrokerError } from "../errors.js";
import { databaseUnavailableReason } from "../store/database-errors.js";
import { rateLimitBucket, type AgentCaller } from "../invocations/caller.js";
import type { RateLimiter } from "../http/rate-limit.js";
import type { McpCalls } from "./mcp-calls.js";
import type { McpTools } from "./mcp-tools.js";

export const MCP_SERVER_INFO = { name: "toolbroker", title: "Toolbroker", version: "1.0.0" };

const INSTRUCTIONS =
  "Tools of the SaaS accounts connected to this broker. The broker holds the credentials and applies the " +
  "tenant's policy: some calls need a person's approval or a connected account first, and then answer with a link.";

/** What the route hands the factory through the SDK's `authInfo`. */
export type McpAuthExtra = { caller: AgentCaller; log: FastifyBaseLogger };

/** JSON-RPC's implementation-defined server error range: the broker's rate limit. */
const RATE_LIMITED = -32029;

/**
 * What the client hears when a request fails for a reason of ours: never the raw message (a
 * database driver's names hosts and users), always a log line with the cause.
 */
function asProtocolError(error: unknown, log: FastifyBaseLogger): ProtocolError {
  if (error instanceof ProtocolError) return error;
  if (error instanceof BrokerError && error.code === "rate_limited") return new ProtocolError(RATE_LIMITED, `rate_limited: ${error.message}`, error.details);
  const databaseDown = databaseUnavailableReason(error);
  if (databaseDown) {
    log.warn({ code: "service_unavailable", reason: databaseDown }, "the database is unavailable");
    return new ProtocolError(ProtocolErrorCode.InternalError, "service_unavailable: the database is unavailable; retry shortly");
  }
  log.error({ err: error }, "MCP request failed");
  return new ProtocolError(ProtocolErrorCode.InternalError, error instanceof BrokerError ? `${error.code}: ${error.message}` : "internal error");
}

type FactoryDeps = { tools: McpTools; calls: McpCalls; limiter: RateLimiter };

/** How often a call that asked for progress hears that it is still running (a slow provider, a refresh). */
export const PROGRESS_INTERVAL_MS = 2000;

/**
 * While a call runs, tells a client that sent a `progressToken` it is still running, so its
 * request timeout can restart instead of giving up on a slow provider. Answers the stop function.
 */
function reportProgress(notify: (notification: { method: string; params: Record<string, unknown> }) => Promise<void>, progressToken: string | number | undefined): () => void {
  if (progressToken === undefined) return () => {};
  let progress = 0;
  const timer = setInterval(() => {
    progress += 1;
    notify({ method: "notifications/progress", params: { progressToken, progress, message: "waiting for the provider's answer" } }).catch(() => {});
  }, PROGRESS_INTERVAL_MS);
  return () => clearInterval(timer);
}

export function mcpServerFactory({ tools, calls, limiter }: FactoryDeps): McpServerFactory {
  return ({ era, authInfo }) => {
    const { caller, log } = authInfo?.extra as McpAuthExtra;
    const guarded = <T>(work: () => Promise<T>) =>
      work().catch((error: unknown) => {
        throw asProtocolError(error, log);
      });
    // 2025 clients get links in error results instead (the legacy shim would send real
    // server-to-client requests, which a stateless endpoint cannot carry across instances).
    const server = new Server(MCP_SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS, inputRequired: { legacyShim: false } });
    server.setRequestHandler("tools/list", () =>
      guarded(async () => {
        // Listing counts like a call: a batch of listings is not a free way to make the broker work.
        await limiter.consume(rateLimitBucket(caller, caller.agentAppId));
        return { tools: await tools.list(caller) };
      }),
    );
    server.setRequestHandler("tools/call", async (request, ctx) => {
      const state = ctx.mcpReq.requestState();
      const meta = (ctx.mcpReq._meta ?? request.params._meta) as Record<string, unknown> | undefined;
      const progressToken = meta?.progressToken as string | number | undefined;
      const stopProgress = reportProgress(ctx.mcpReq.notify, progressToken);
      try {
        return await guarded(() =>
          calls.call({
            caller,
            name: request.params.name,
            arguments: request.params.arguments,
            requestState: typeof state === "string" ? state : undefined,
            inputResponses: ctx.mcpReq.inputResponses,
            canElicitUrl: era === "modern" && server.getClientCapabilities()?.elicitation?.url !== undefined,
            meta,
          }),
        );
      } finally {
        stopProgress();
      }
    });
    return server;
  };
}
