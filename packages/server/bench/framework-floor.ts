/**
 * The framework floor: what a broker built on the same stack costs before it does any broker
 * work. A Fastify app with the broker's logger settings (one JSON line per request at info, the
 * same censoring), a JSON body validated against a schema, one upstream call on an undici pool,
 * the upstream's JSON parsed and answered inside an envelope. No authentication, policy, vault,
 * database, audit or scrubbing: the distance from here to the broker is the broker's own work.
 */
import { randomUUID } from "node:crypto";
import Fastify from "fastify";
import { Pool } from "undici";
import { censorChildBindings, OneLinePerRequest, REQUEST_LOG_OPTIONS } from "../src/http/request-log.js";

const upstream = new Pool(process.env.UPSTREAM_URL!, { connections: 128, keepAliveTimeout: 60_000, pipelining: 1 });
const accessToken = process.env.UPSTREAM_ACCESS_TOKEN!;

const app = Fastify({
  genReqId: () => randomUUID(),
  logger: { level: "info", ...REQUEST_LOG_OPTIONS },
  logController: new OneLinePerRequest(),
});
censorChildBindings(app.log);

const body = {
  type: "object",
  required: ["tool_name"],
  additionalProperties: false,
  properties: { tool_name: { type: "string", minLength: 1 }, arguments: { type: "object" }, connected_account_id: { type: "string" }, agent_app_id: { type: "string" } },
} as const;

app.post("/v1/tools/execute", { schema: { body } }, async (request) => {
  const started = Date.now();
  const response = await upstream.request({ method: "GET", path: "/user", headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" } });
  const data = (await response.body.json()) as unknown;
  return { invocation_id: randomUUID(), status: "succeeded", upstream_status: response.statusCode, latency_ms: Date.now() - started, data };
});

const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: "127.0.0.1" });
process.stdout.write(`listening ${new URL(address).port}\n`);
