/**
 * Where GET /metrics is served and who may read it (docs/production.md, "Metrics"): open outside
 * production; in production only with BROKER_METRICS_TOKEN (404 while none is configured); on a
 * listener of its own with BROKER_METRICS_PORT (and then not on the main port); nowhere with
 * BROKER_METRICS=off; a tenant label only when BROKER_METRICS_TENANT_LABELS is on.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config.js";
import { createTenant, freePort, startBroker, type TestBroker } from "./support/broker.js";
import { call, mintBrokerToken } from "./support/http.js";
import { parseSamples, scrape, sumOf } from "./support/metrics.js";
import { startOidcIssuer, type OidcIssuer } from "./support/oidc-issuer.js";

const PRODUCTION = { BROKER_ENV: "production", BROKER_PUBLIC_URL: "https://broker.example.test" };
const metricsToken = () => `mt_${randomBytes(24).toString("hex")}`;

/** One call of a tool no catalogue has, as the tenant's agent app: counted as `unknown`, `rejected`. */
async function unknownToolCall(broker: TestBroker) {
  const tenant = await createTenant(broker);
  const jwt = await mintBrokerToken(broker, tenant);
  const result = await call(broker, "POST", "/v1/tools/execute", { token: jwt, body: { tool_name: "nothing.here", arguments: {} } });
  expect(result.status).toBe(404);
  return tenant;
}

describe("GET /metrics in production", () => {
  let idp: OidcIssuer;
  const brokers: TestBroker[] = [];
  const start = async (env: Record<string, string>) => {
    const broker = await startBroker("sqlite", { env: { ...PRODUCTION, ...idp.env, ...env } });
    brokers.push(broker);
    return broker;
  };
  beforeAll(async () => {
    idp = await startOidcIssuer();
  });
  afterAll(async () => {
    for (const broker of brokers) await broker.close();
    await idp.close();
  });

  it("answers 404 with the envelope while no BROKER_METRICS_TOKEN is configured, whatever the request carries", async () => {
    const broker = await start({});
    for (const headers of [{}, { authorization: "Bearer anything-at-all-0123456789abcdef" }] as Record<string, string>[]) {
      const response = await scrape(broker.url, headers);
      expect(response.status).toBe(404);
      expect(JSON.parse(response.text)).toMatchObject({ ok: false, error: { code: "not_found" } });
    }
  });

  it("refuses a missing or wrong bearer with 401 and serves the right one", async () => {
    const token = metricsToken();
    const broker = await start({ BROKER_METRICS_TOKEN: token });
    for (const headers of [{}, { authorization: `Bearer ${metricsToken()}` }, { authorization: token }, { authorization: `Basic ${token}` }] as Record<string, string>[]) {
      const response = await scrape(broker.url, headers);
      expect(response.status).toBe(401);
      const body = JSON.parse(response.text);
      expect(body).toMatchObject({ ok: false, error: { code: "unauthorized" } });
      expect(response.text).not.toContain(token);
    }
    const served = await scrape(broker.url, { authorization: `Bearer ${token}` });
    expect(served.status).toBe(200);
    expect(served.text).toContain("toolbroker_http_requests_total");
    expect(served.text).not.toContain(token);
    expect(broker.logs.some((line) => line.includes(token))).toBe(false);
  });

  it("serves its own listener on a private address, guarded by the token when one is configured", async () => {
    const token = metricsToken();
    const port = await freePort();
    const broker = await start({ BROKER_METRICS_PORT: String(port), BROKER_METRICS_TOKEN: token });
    expect((await scrape(broker.url, { authorization: `Bearer ${token}` })).status).toBe(404);
    const listener = `http://127.0.0.1:${port}`;
    expect((await scrape(listener)).status).toBe(401);
    const served = await scrape(listener, { authorization: `Bearer ${token}` });
    expect(served.status).toBe(200);
    expect(served.text).toContain("toolbroker_tool_calls_total");
  });
});

describe("GET /metrics on its own listener (BROKER_METRICS_PORT)", () => {
  let broker: TestBroker;
  let listener: string;
  beforeAll(async () => {
    const port = await freePort();
    broker = await startBroker("sqlite", { env: { BROKER_METRICS_PORT: String(port), BROKER_METRICS_HOST: "127.0.0.1" } });
    listener = `http://127.0.0.1:${port}`;
    await unknownToolCall(broker);
  });
  afterAll(() => broker?.close());

  it("is not served on the broker's port", async () => {
    const response = await scrape(broker.url);
    expect(response.status).toBe(404);
    expect(JSON.parse(response.text)).toMatchObject({ ok: false, error: { code: "not_found" } });
  });

  it("serves the same registry there, open, counting the main port's traffic", async () => {
    const served = await scrape(listener);
    expect(served.status).toBe(200);
    expect(served.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    const samples = parseSamples(served.text);
    expect(sumOf(samples, "toolbroker_tool_calls_total", { tool: "unknown", outcome: "rejected", channel: "rest" })).toBe(1);
    expect(sumOf(samples, "toolbroker_http_requests_total", { route: "/v1/tools/execute", status_code: "404" })).toBe(1);
  });

  it("answers anything but GET /metrics with the envelope", async () => {
    const other = await fetch(`${listener}/v1/tools`);
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ ok: false, error: { code: "not_found" } });
    const post = await fetch(`${listener}/metrics`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    expect(await post.json()).toMatchObject({ ok: false, error: { code: "invalid_request" } });
  });

  it("stops listening when the broker closes", async () => {
    const port = await freePort();
    const short = await startBroker("sqlite", { env: { BROKER_METRICS_PORT: String(port) } });
    expect((await scrape(`http://127.0.0.1:${port}`)).status).toBe(200);
    await short.close();
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });
});

describe("BROKER_METRICS=off", () => {
  let broker: TestBroker;
  beforeAll(async () => {
    broker = await startBroker("sqlite", { env: { BROKER_METRICS: "off" } });
    await unknownToolCall(broker);
  });
  afterAll(() => broker?.close());

  it("serves no /metrics and records nothing", async () => {
    expect((await scrape(broker.url)).status).toBe(404);
    expect(broker.services.metrics.enabled).toBe(false);
    expect((await broker.services.metrics.registry.metrics()).trim()).toBe("");
  });
});

describe("BROKER_METRICS_TENANT_LABELS=true", () => {
  let broker: TestBroker;
  let tenantId: string;
  beforeAll(async () => {
    broker = await startBroker("sqlite", { env: { BROKER_METRICS_TENANT_LABELS: "true" } });
    tenantId = (await unknownToolCall(broker)).tenantId;
  });
  afterAll(() => broker?.close());

  it("adds the tenant to the tool-call metrics, and to nothing else", async () => {
    const samples = parseSamples((await scrape(broker.url)).text);
    expect(sumOf(samples, "toolbroker_tool_calls_total", { tenant: tenantId, outcome: "rejected" })).toBe(1);
    expect(sumOf(samples, "toolbroker_tool_call_duration_seconds_count", { tenant: tenantId })).toBe(1);
    const withTenant = new Set(samples.filter((sample) => "tenant" in sample.labels).map((sample) => sample.name.replace(/_(bucket|sum|count)$/, "")));
    expect([...withTenant].sort()).toEqual(["toolbroker_tool_call_broker_duration_seconds", "toolbroker_tool_call_duration_seconds", "toolbroker_tool_calls_total"]);
  });
});

describe("metrics configuration", () => {
  const base = { BROKER_ENV: "test", BROKER_DATA_DIR: "/tmp/toolbroker-metrics-config" };
  const problemsOf = (env: Record<string, string>) => {
    try {
      loadConfig({ ...base, ...env });
      return [];
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      return error.problems;
    }
  };

  it("refuses a short token without quoting it, a metrics port equal to PORT, and an unknown BROKER_METRICS", () => {
    const short = "too-short-token";
    const problems = problemsOf({ BROKER_METRICS_TOKEN: short });
    expect(problems).toEqual(["BROKER_METRICS_TOKEN must be at least 24 characters"]);
    expect(problems.join(" ")).not.toContain(short);
    expect(problemsOf({ PORT: "9400", BROKER_METRICS_PORT: "9400" })).toEqual(["BROKER_METRICS_PORT must differ from PORT"]);
    expect(problemsOf({ BROKER_METRICS: "maybe" })).toEqual(['BROKER_METRICS must be on or off (got "maybe")']);
  });

  it("defaults to on, on the main port, no tenant label", () => {
    expect(loadConfig(base).metrics).toEqual({ enabled: true, port: undefined, host: "127.0.0.1", token: undefined, tenantLabels: false });
  });
});
