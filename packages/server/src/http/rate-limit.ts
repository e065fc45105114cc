/**
 * Fixed-window limits of N requests per minute per key, in process by default and shared
 * through Redis when several instances run. Every limited response carries the RateLimit-*
 * headers (IETF draft) and a 429 also carries Retry-After.
 */
import { createRequire } from "node:module";
import type { FastifyReply } from "fastify";
import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { BrokerError } from "../errors.js";

/** `reply` receives the RateLimit-* headers; MCP's tools/call, which answers in a result, passes none. */
export type RateLimiter = { consume(key: string, reply?: FastifyReply): Promise<void> };

/** `onRefused` hears each refusal (the metrics count them by limit name). */
export function createRateLimiter(options: { name: string; perMinute: number; redis?: Redis | undefined; onRefused?: (name: string) => void }): RateLimiter {
  const settings = { keyPrefix: `toolbroker:${options.name}`, points: options.perMinute, duration: 60 };
  const limiter: RateLimiterAbstract = options.redis
    ? new RateLimiterRedis({ ...settings, storeClient: options.redis, insuranceLimiter: new RateLimiterMemory(settings) })
    : new RateLimiterMemory(settings);
  let connecting = options.redis ? firstConnection(options.redis) : undefined;

  const setHeaders = (reply: FastifyReply | undefined, result: RateLimiterRes) => {
    if (!reply) return;
    reply.header("ratelimit-limit", String(options.perMinute));
    reply.header("ratelimit-remaining", String(Math.max(0, result.remainingPoints)));
    reply.header("ratelimit-reset", String(Math.ceil(result.msBeforeNext / 1000)));
  };

  return {
    async consume(key, reply) {
      if (connecting) {
        await connecting;
        connecting = undefined;
      }
      try {
        setHeaders(reply, await limiter.consume(key));
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        options.onRefused?.(options.name);
        setHeaders(reply, rejection);
        const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        throw new BrokerError(
          "rate_limited",
          `rate limit of ${options.perMinute} requests per minute exceeded; retry in ${retryAfter}s`,
          { limit: options.perMinute, retry_after_seconds: retryAfter },
          { headers: { "retry-after": String(retryAfter) } },
        );
      }
    },
  };
}

export function connectRedis(url: string | undefined): Redis | undefined {
  if (!url) return undefined;
  // Loaded only when Redis is configured: a single instance never needs the client's ~2 MB of heap.
  const { Redis } = createRequire(import.meta.url)("ioredis") as typeof import("ioredis");
  return new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
}

/**
 * Right after start the Redis client is still connecting, and without an offline queue every
 * command would fail over to the per-instance insurance limiter. The first requests wait for the
 * connection (at most `timeoutMs`; after that the insurance limiter takes over as designed).
 */
function firstConnection(redis: Redis, timeoutMs = 2_000): Promise<void> | undefined {
  if (redis.status === "ready") return undefined;
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off("ready", done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    timer.unref();
    redis.once("ready", done);
  });
}
