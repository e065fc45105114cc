/** Runs one autocannon load and reduces it to the numbers the report needs. */
import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
// autocannon ships no types; its result shape is documented in its README.
const autocannon = require("autocannon") as (options: Record<string, unknown>) => Promise<AutocannonResult>;

type AutocannonResult = {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; max: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  "2xx": number;
};

export type LoadSpec = {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: Record<string, unknown>;
  /** Adds a fresh idempotency_key to every request. */
  uniqueIdempotencyKey?: boolean;
  connections: number;
  durationSeconds: number;
};

export type LoadResult = { rps: number; p50: number; p99: number; max: number; requests: number; non2xx: number; errors: number };

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const body = spec.body ? JSON.stringify(spec.body) : undefined;
  const result = await autocannon({
    url: spec.url,
    method: spec.method,
    headers: spec.headers,
    body,
    connections: spec.connections,
    pipelining: 1,
    duration: spec.durationSeconds,
    ...(spec.uniqueIdempotencyKey
      ? { requests: [{ setupRequest: (request: Record<string, unknown>) => ({ ...request, body: JSON.stringify({ ...spec.body, idempotency_key: randomUUID() }) }) }] }
      : {}),
  });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}
