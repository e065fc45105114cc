/**
 * The standard OpenTelemetry variables (OTEL_*) the broker honours for traces, read into one
 * `TracingConfig` by config.ts (the only module that sees process.env). Tracing is off unless an
 * OTLP endpoint is set or OTEL_TRACES_EXPORTER says `otlp`; OTEL_SDK_DISABLED=true or
 * OTEL_TRACES_EXPORTER=none keep it off whatever else is set. Each invalid value is one problem
 * line; a header value is never quoted in one (it is usually an API key).
 */

export type OtlpProtocol = "http/json" | "http/protobuf";

export type SamplerConfig = {
  /** The root decision; `parentBased` follows a caller's sampled flag when the request carried one. */
  root: "always_on" | "always_off" | "traceidratio";
  parentBased: boolean;
  /** For traceidratio: the share of traces kept, 0 to 1. */
  ratio: number;
};

export type TracingConfig = {
  exporter: { url: string; protocol: OtlpProtocol; headers: Record<string, string>; timeoutMillis: number };
  serviceName: string;
  /** OTEL_RESOURCE_ATTRIBUTES, decoded; `service.name` there loses to OTEL_SERVICE_NAME. */
  resourceAttributes: Record<string, string>;
  sampler: SamplerConfig;
  batch: { scheduledDelayMillis: number; maxQueueSize: number; maxExportBatchSize: number; exportTimeoutMillis: number };
};

/** Every OTEL_* variable read here; config-schema.ts declares them so that they reach config.ts. */
export const OTEL_VARIABLES = [
  "OTEL_SDK_DISABLED",
  "OTEL_TRACES_EXPORTER",
  "OTEL_EXPORTER_OTLP_ENDPOINT",
  "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
  "OTEL_EXPORTER_OTLP_PROTOCOL",
  "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
  "OTEL_EXPORTER_OTLP_HEADERS",
  "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
  "OTEL_EXPORTER_OTLP_TIMEOUT",
  "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT",
  "OTEL_SERVICE_NAME",
  "OTEL_RESOURCE_ATTRIBUTES",
  "OTEL_TRACES_SAMPLER",
  "OTEL_TRACES_SAMPLER_ARG",
  "OTEL_BSP_SCHEDULE_DELAY",
  "OTEL_BSP_MAX_QUEUE_SIZE",
  "OTEL_BSP_MAX_EXPORT_BATCH_SIZE",
  "OTEL_BSP_EXPORT_TIMEOUT",
] as const;

export type OtelVariable = (typeof OTEL_VARIABLES)[number];
type OtelEnv = Partial<Record<OtelVariable, string>>;

/** The specification's default endpoint when only OTEL_TRACES_EXPORTER=otlp is set. */
const DEFAULT_BASE_ENDPOINT = "http://localhost:4318";
const SAMPLERS = ["always_on", "always_off", "traceidratio", "parentbased_always_on", "parentbased_always_off", "parentbased_traceidratio"] as const;

/** The variables' values with empty ones as unset, as every other setting of the broker. */
const valueOf = (env: OtelEnv, name: OtelVariable) => (env[name] === undefined || env[name] === "" ? undefined : env[name]!.trim());

function flag(env: OtelEnv, name: OtelVariable, problems: string[]): boolean {
  const raw = valueOf(env, name)?.toLowerCase();
  if (raw === undefined || raw === "false") return false;
  if (raw === "true") return true;
  problems.push(`${name} must be true or false (got "${env[name]}")`);
  return false;
}

function integerSetting(env: OtelEnv, name: OtelVariable, fallback: number, problems: string[], minimum = 0): number {
  const raw = valueOf(env, name);
  if (raw === undefined) return fallback;
  if (/^\d+$/.test(raw) && Number(raw) >= minimum && Number(raw) <= 3_600_000) return Number(raw);
  problems.push(`${name} must be an integer >= ${minimum} and <= 3600000 (got "${env[name]}")`);
  return fallback;
}

/** An http(s) URL without credentials in it (they would be written to logs and errors by the exporter). */
function endpointUrl(name: OtelVariable, raw: string, problems: string[]): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    problems.push(`${name} must be an http:// or https:// URL`);
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") problems.push(`${name} must be an http:// or https:// URL (gRPC is not supported; use OTLP/HTTP)`);
  else if (url.username || url.password) problems.push(`${name} must not hold credentials; send them with OTEL_EXPORTER_OTLP_HEADERS`);
  else return url.href;
  return undefined;
}

/** OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is used as given; the general endpoint gets `/v1/traces` appended. */
function tracesEndpoint(env: OtelEnv, problems: string[]): string | undefined {
  const own = valueOf(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
  if (own !== undefined) return endpointUrl("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", own, problems);
  const base = valueOf(env, "OTEL_EXPORTER_OTLP_ENDPOINT") ?? DEFAULT_BASE_ENDPOINT;
  const checked = endpointUrl("OTEL_EXPORTER_OTLP_ENDPOINT", base, problems);
  return checked && `${checked.replace(/\/+$/, "")}/v1/traces`;
}

function protocol(env: OtelEnv, problems: string[]): OtlpProtocol {
  const name: OtelVariable = valueOf(env, "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") !== undefined ? "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL" : "OTEL_EXPORTER_OTLP_PROTOCOL";
  const raw = valueOf(env, name);
  if (raw === undefined || raw === "http/protobuf") return "http/protobuf";
  if (raw === "http/json") return "http/json";
  problems.push(`${name} must be http/protobuf or http/json (got "${env[name]}"; gRPC is not supported)`);
  return "http/protobuf";
}

/**
 * `key=value` pairs separated by commas, values percent-decoded (the W3C Baggage format the
 * specification uses for both variables). Undefined when malformed; the caller words the problem.
 */
export function parseKeyValueList(raw: string): Record<string, string> | undefined {
  const pairs: Record<string, string> = {};
  for (const member of raw.split(",")) {
    if (member.trim() === "") continue;
    const at = member.indexOf("=");
    if (at <= 0) return undefined;
    const key = member.slice(0, at).trim();
    if (!/^[A-Za-z0-9!#$%&'*+\-.^_`|~]+$/.test(key)) return undefined;
    try {
      pairs[key] = decodeURIComponent(member.slice(at + 1).trim());
    } catch {
      return undefined;
    }
  }
  return pairs;
}

function headers(env: OtelEnv, problems: string[]): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const name of ["OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS"] as const) {
    const raw = valueOf(env, name);
    if (raw === undefined) continue;
    const parsed = parseKeyValueList(raw);
    // Never quoted: a header value is usually the collector's API key.
    if (!parsed || Object.values(parsed).some((value) => /[\r\n]/.test(value))) problems.push(`${name} must be comma-separated key=value pairs (values percent-encoded)`);
    else Object.assign(merged, parsed);
  }
  return merged;
}

function sampler(env: OtelEnv, problems: string[]): SamplerConfig {
  const raw = valueOf(env, "OTEL_TRACES_SAMPLER") ?? "parentbased_always_on";
  const known = (SAMPLERS as readonly string[]).includes(raw);
  if (!known) problems.push(`OTEL_TRACES_SAMPLER must be ${SAMPLERS.slice(0, -1).join(", ")} or ${SAMPLERS.at(-1)} (got "${env.OTEL_TRACES_SAMPLER}")`);
  const name = known ? raw : "parentbased_always_on";
  const argument = valueOf(env, "OTEL_TRACES_SAMPLER_ARG");
  let ratio = 1;
  if (name.endsWith("traceidratio") && argument !== undefined) {
    ratio = Number(argument);
    if (!/^(0(\.\d+)?|1(\.0+)?|\.\d+)$/.test(argument)) {
      problems.push(`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1 (got "${env.OTEL_TRACES_SAMPLER_ARG}")`);
      ratio = 1;
    }
  }
  return { root: name.replace(/^parentbased_/, "") as SamplerConfig["root"], parentBased: name.startsWith("parentbased_"), ratio };
}

function isRequested(env: OtelEnv, problems: string[]): boolean {
  if (flag(env, "OTEL_SDK_DISABLED", problems)) return false;
  const exporters = (valueOf(env, "OTEL_TRACES_EXPORTER") ?? "").split(",").map((name) => name.trim()).filter(Boolean);
  const unknown = exporters.filter((name) => name !== "otlp" && name !== "none");
  if (unknown.length > 0) problems.push(`OTEL_TRACES_EXPORTER must be otlp or none (got "${env.OTEL_TRACES_EXPORTER}")`);
  if (exporters.includes("none")) return false;
  // Off unless configured (DESIGN §7): the specification's default exporter is not assumed.
  return exporters.includes("otlp") || valueOf(env, "OTEL_EXPORTER_OTLP_ENDPOINT") !== undefined || valueOf(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") !== undefined;
}

/** The tracing settings, or undefined when tracing is off; problems are appended to `problems`. */
export function readTracingConfig(env: OtelEnv, serviceName: string, problems: string[]): TracingConfig | undefined {
  const before = problems.length;
  const requested = isRequested(env, problems);
  if (!requested) return undefined;
  const url = tracesEndpoint(env, problems);
  const rawResource = valueOf(env, "OTEL_RESOURCE_ATTRIBUTES");
  const resourceAttributes = rawResource === undefined ? {} : parseKeyValueList(rawResource);
  if (!resourceAttributes) problems.push("OTEL_RESOURCE_ATTRIBUTES must be comma-separated key=value pairs (values percent-encoded)");
  const timeoutMillis = integerSetting(env, valueOf(env, "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT") !== undefined ? "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT" : "OTEL_EXPORTER_OTLP_TIMEOUT", 10_000, problems, 1);
  const config: TracingConfig = {
    exporter: { url: url ?? "", protocol: protocol(env, problems), headers: headers(env, problems), timeoutMillis },
    serviceName: valueOf(env, "OTEL_SERVICE_NAME") ?? resourceAttributes?.["service.name"] ?? serviceName,
    resourceAttributes: resourceAttributes ?? {},
    sampler: sampler(env, problems),
    batch: {
      scheduledDelayMillis: integerSetting(env, "OTEL_BSP_SCHEDULE_DELAY", 5_000, problems),
      maxQueueSize: integerSetting(env, "OTEL_BSP_MAX_QUEUE_SIZE", 2_048, problems, 1),
      maxExportBatchSize: integerSetting(env, "OTEL_BSP_MAX_EXPORT_BATCH_SIZE", 512, problems, 1),
      exportTimeoutMillis: integerSetting(env, "OTEL_BSP_EXPORT_TIMEOUT", 30_000, problems, 1),
    },
  };
  if (config.batch.maxExportBatchSize > config.batch.maxQueueSize) problems.push("OTEL_BSP_MAX_EXPORT_BATCH_SIZE must not exceed OTEL_BSP_MAX_QUEUE_SIZE");
  return problems.length > before ? undefined : config;
}
