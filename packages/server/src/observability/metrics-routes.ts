/**
 * GET /metrics (Prometheus text format) and the HTTP request metrics (docs/production.md,
 * "Metrics"). Where it is served:
 *
 * - On the broker's port, unless BROKER_METRICS_PORT is set. Outside production it is open; in
 *   production it needs `Authorization: Bearer <BROKER_METRICS_TOKEN>` and answers 404 while no
 *   token is configured, so a broker on the internet never shows its traffic to anyone.
 * - On a listener of its own at BROKER_METRICS_HOST:BROKER_METRICS_PORT (127.0.0.1 by default),
 *   meant for a private network: open, unless a token is configured, which is then required there too.
 *
 * BROKER_METRICS=off serves neither and records nothing.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { Type } from "@sinclair/typebox";
import type { FastifyInstance } from "fastify";
import type { Registry } from "prom-client";
import type { MetricsConfig } from "./metrics.js";
import { BrokerError } from "../errors.js";
import { errorResponses } from "../http/schemas.js";
import type { Metrics } from "./metrics.js";

export type MetricsRouteDeps = {
  metrics: Pick<Metrics, "enabled" | "registry" | "httpRequest">;
  config: MetricsConfig;
  production: boolean;
};

const PrometheusText = { description: "Prometheus text exposition format 0.0.4", content: { "text/plain": { schema: Type.String() } } };

/** The token of `Authorization: Bearer <token>`, if the header has that form. */
const bearerOf = (header: string | undefined) => (header ? /^Bearer +(\S+)\s*$/i.exec(header)?.[1] : undefined);

/** Constant-time comparison of a presented bearer token with the configured one. */
function tokenMatches(header: string | undefined, expected: string): boolean {
  const presented = bearerOf(header);
  if (presented === undefined) return false;
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

export function registerMetricsRoutes(app: FastifyInstance, deps: MetricsRouteDeps) {
  const { metrics, config } = deps;
  if (!metrics.enabled) return;
  // The route pattern, never the path: ids in paths would make every request a series of its own.
  app.addHook("onResponse", (request, reply, done) => {
    metrics.httpRequest(request.method, request.routeOptions?.url ?? "unmatched", reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  if (config.port !== undefined) {
    registerMetricsListener(app, metrics.registry, config);
    return;
  }
  app.get(
    "/metrics",
    {
      schema: {
        tags: ["system"],
        summary: "Prometheus metrics",
        description:
          "The broker's metrics in Prometheus text format (docs/production.md lists them). Served here unless BROKER_METRICS_PORT gives them a listener of their own. " +
          "Open outside production; in production `Authorization: Bearer <BROKER_METRICS_TOKEN>` is required (401 unauthorized without it or with another token), " +
          "and the route answers 404 while no token is configured. Wherever a token is configured it is required. Absent with BROKER_METRICS=off.",
        response: { 200: PrometheusText, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      if (config.token === undefined && deps.production) return reply.callNotFound();
      if (config.token !== undefined && !tokenMatches(request.headers.authorization, config.token)) {
        throw new BrokerError("unauthorized", "GET /metrics needs Authorization: Bearer <BROKER_METRICS_TOKEN>");
      }
      const text = await metrics.registry.metrics();
      return reply.type(metrics.registry.contentType).send(text);
    },
  );
}

/** The metrics' own listener, started when the app is ready and closed with it. */
function registerMetricsListener(app: FastifyInstance, registry: Registry, config: MetricsConfig) {
  const server = createServer((request, response) => {
    answerScrape(registry, config, request, response).catch((error: unknown) => {
      app.log.error({ err: error }, "metrics listener: the scrape failed");
      if (!response.headersSent) sendEnvelope(response, 500, "internal_error", "the metrics could not be gathered");
    });
  });
  app.addHook("onReady", () => listen(server, config));
  app.addHook("onClose", () => new Promise<void>((resolve) => server.close(() => resolve())));
}

function listen(server: Server, config: MetricsConfig): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

async function answerScrape(registry: Registry, config: MetricsConfig, request: IncomingMessage, response: ServerResponse) {
  const path = (request.url ?? "").split("?")[0];
  if (path !== "/metrics") return sendEnvelope(response, 404, "not_found", "only GET /metrics is served here");
  if (request.method !== "GET" && request.method !== "HEAD") return sendEnvelope(response, 405, "invalid_request", "only GET /metrics is served here");
  if (config.token !== undefined && !tokenMatches(request.headers.authorization, config.token)) {
    return sendEnvelope(response, 401, "unauthorized", "GET /metrics needs Authorization: Bearer <BROKER_METRICS_TOKEN>");
  }
  const text = await registry.metrics();
  response.writeHead(200, { "content-type": registry.contentType });
  response.end(request.method === "HEAD" ? undefined : text);
}

function sendEnvelope(response: ServerResponse, status: number, code: string, message: string) {
  response.writeHead(status, { "content-type": "application/json; charset=utf-8", ...(status === 405 ? { allow: "GET, HEAD" } : {}) });
  response.end(JSON.stringify({ ok: false, error: { code, message } }));
}
