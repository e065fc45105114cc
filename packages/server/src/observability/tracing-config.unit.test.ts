import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../config.js";
import { readTracingConfig } from "./tracing-config.js";

const read = (env: Record<string, string>) => {
  const problems: string[] = [];
  return { config: readTracingConfig(env, "toolbroker", problems), problems };
};

describe("the OTEL_* variables for traces", () => {
  it("leaves tracing off without an endpoint or OTEL_TRACES_EXPORTER=otlp", () => {
    expect(read({})).toEqual({ config: undefined, problems: [] });
    expect(read({ OTEL_SERVICE_NAME: "svc", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" })).toEqual({ config: undefined, problems: [] });
  });

  it("keeps it off with OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none, whatever else is set", () => {
    expect(read({ OTEL_SDK_DISABLED: "TRUE", OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" }).config).toBeUndefined();
    expect(read({ OTEL_TRACES_EXPORTER: "none", OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" }).config).toBeUndefined();
  });

  it("appends /v1/traces to the general endpoint and takes the traces endpoint as it is, protobuf by default", () => {
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318/" }).config?.exporter).toEqual({ url: "http://127.0.0.1:4318/v1/traces", protocol: "http/protobuf", headers: {}, timeoutMillis: 10_000 });
    const own = read({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:1", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://collector.example/custom", OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json", OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf" });
    expect(own.config?.exporter).toMatchObject({ url: "https://collector.example/custom", protocol: "http/json" });
    expect(read({ OTEL_TRACES_EXPORTER: "otlp" }).config?.exporter.url).toBe("http://localhost:4318/v1/traces");
  });

  it("reads headers, resource attributes, the service name, the sampler and the batch settings", () => {
    const { config, problems } = read({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318",
      OTEL_EXPORTER_OTLP_HEADERS: "api-key=a%20b,x-tenant=1",
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: "x-tenant=2",
      OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=prod,service.name=ignored",
      OTEL_SERVICE_NAME: "broker-eu",
      OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
      OTEL_TRACES_SAMPLER_ARG: "0.25",
      OTEL_BSP_SCHEDULE_DELAY: "100",
    });
    expect(problems).toEqual([]);
    expect(config).toMatchObject({
      exporter: { headers: { "api-key": "a b", "x-tenant": "2" } },
      serviceName: "broker-eu",
      resourceAttributes: { "deployment.environment": "prod" },
      sampler: { root: "traceidratio", parentBased: true, ratio: 0.25 },
      batch: { scheduledDelayMillis: 100, maxQueueSize: 2048, maxExportBatchSize: 512 },
    });
  });

  it("refuses to start with one line per invalid value, never quoting a header", () => {
    const env = {
      BROKER_ENV: "test",
      OTEL_EXPORTER_OTLP_ENDPOINT: "grpc://127.0.0.1:4317",
      OTEL_EXPORTER_OTLP_PROTOCOL: "grpc",
      OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer%zzsecret-value",
      OTEL_TRACES_SAMPLER: "jaeger_remote",
      OTEL_TRACES_SAMPLER_ARG: "2",
      OTEL_BSP_SCHEDULE_DELAY: "soon",
    };
    let error: unknown;
    try {
      loadConfig(env);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toEqual([
      "OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL (gRPC is not supported; use OTLP/HTTP)",
      "OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (got \"grpc\"; gRPC is not supported)",
      "OTEL_EXPORTER_OTLP_HEADERS must be comma-separated key=value pairs (values percent-encoded)",
      expect.stringMatching(/^OTEL_TRACES_SAMPLER must be always_on, .* or parentbased_traceidratio \(got "jaeger_remote"\)$/),
      "OTEL_BSP_SCHEDULE_DELAY must be an integer >= 0 and <= 3600000 (got \"soon\")",
    ]);
    expect(problems.join("\n")).not.toContain("secret-value");
  });

  it("refuses an endpoint with credentials in it, and a ratio outside 0 to 1", () => {
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: "https://user:pass@collector.example" }).problems).toEqual(["OTEL_EXPORTER_OTLP_ENDPOINT must not hold credentials; send them with OTEL_EXPORTER_OTLP_HEADERS"]);
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318", OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "1.5" }).problems).toEqual(['OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1 (got "1.5")']);
  });
});
