/**
 * The environment variables of DESIGN §5 as one TypeBox schema, validated by env-schema (Ajv).
 * Names, defaults and allowed ranges are declared here once, and problems are worded from the
 * schema. Variables with open-ended names (`BROKER_PROVIDER_<NAME>_…`) are read by config.ts.
 */
import { Type, type Static, type TOptional, type TSchema, type TString } from "@sinclair/typebox";
import envSchema from "env-schema";
import { OTEL_VARIABLES, type OtelVariable } from "./observability/tracing-config.js";

export const DEFAULT_RATE_LIMITS = { executePerMinute: 600, tokenPerMinute: 60 };
export const MAX_BROKER_TOKEN_TTL_SECONDS = 3600;

const oneOf = <const T extends string>(values: readonly T[], fallback: T) =>
  Type.Union(
    values.map((value) => Type.Literal(value)),
    { default: fallback },
  );

/** The standard OpenTelemetry variables, passed through as text: observability/tracing-config.ts reads them. */
const OtelVariables = Object.fromEntries(OTEL_VARIABLES.map((name) => [name, Type.Optional(Type.String())])) as Record<OtelVariable, TOptional<TString>>;

export const EnvSchema = Type.Object(
  {
    BROKER_ENV: oneOf(["development", "test", "production"], "development"),
    PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
    BROKER_HOST: Type.String({ default: "127.0.0.1" }),
    BROKER_PUBLIC_URL: Type.Optional(Type.String()),
    BROKER_DATA_DIR: Type.Optional(Type.String()),
    DATABASE_URL: Type.Optional(Type.String()),
    BROKER_MASTER_KEYS: Type.Optional(Type.String()),
    BROKER_OIDC_ISSUER: Type.Optional(Type.String()),
    BROKER_OIDC_AUDIENCE: Type.Optional(Type.String()),
    BROKER_OIDC_JWKS_URL: Type.Optional(Type.String()),
    BROKER_REDIS_URL: Type.Optional(Type.String()),
    BROKER_CONSOLE_CLIENT_ID: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    BROKER_RATE_LIMIT_EXECUTE: Type.Integer({ minimum: 1, default: DEFAULT_RATE_LIMITS.executePerMinute }),
    BROKER_RATE_LIMIT_TOKEN: Type.Integer({ minimum: 1, default: DEFAULT_RATE_LIMITS.tokenPerMinute }),
    // No default here: it follows BROKER_ENV (allowed everywhere but production).
    BROKER_WEBHOOK_ALLOW_PRIVATE: Type.Optional(Type.Boolean()),
    BROKER_WEBHOOK_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 60_000, default: 10_000 }),
    BROKER_WEBHOOK_WORKER: Type.Boolean({ default: true }),
    BROKER_LOG_LEVEL: Type.String({ default: "info" }),
    BROKER_LOG_FORMAT: Type.Optional(Type.Union([Type.Literal("json"), Type.Literal("pretty")])),
    BROKER_TOKEN_TTL_SECONDS: Type.Integer({ minimum: 30, maximum: MAX_BROKER_TOKEN_TTL_SECONDS, default: 900 }),
    BROKER_APPROVAL_TTL_SECONDS: Type.Integer({ minimum: 60, default: 86_400 }),
    BROKER_APPROVAL_LINK_TTL_SECONDS: Type.Integer({ minimum: 60, maximum: 604_800, default: 3600 }),
    // Checked in config.ts, whose problem does not quote it: the URL may hold the SMTP password.
    BROKER_SMTP_URL: Type.Optional(Type.String()),
    BROKER_SMTP_FROM: Type.String({ minLength: 3, maxLength: 300, default: "Toolbroker <toolbroker@localhost>" }),
    BROKER_APPROVAL_WORKER: Type.Boolean({ default: true }),
    BROKER_APPROVAL_WORKER_INTERVAL_MS: Type.Integer({ minimum: 10, maximum: 600_000, default: 1000 }),
    // The Slack app's signing secret: it verifies button presses on approval messages (unset: no Slack interactivity).
    BROKER_SLACK_SIGNING_SECRET: Type.Optional(Type.String({ minLength: 8, maxLength: 200 })),
    BROKER_UPSTREAM_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 120_000, default: 15_000 }),
    BROKER_SHUTDOWN_GRACE_MS: Type.Integer({ minimum: 0, maximum: 600_000, default: 10_000 }),
    BROKER_SHUTDOWN_DELAY_MS: Type.Integer({ minimum: 0, maximum: 600_000, default: 0 }),
    BROKER_METERING_MODE: oneOf(["test", "off"], "test"),
    BROKER_HEAP_GROWTH_PERCENT: Type.Integer({ minimum: 0, maximum: 400, default: 25 }),
    // Prometheus metrics (docs/production.md, "Metrics"): on by default; `off` for the bench's comparison.
    BROKER_METRICS: oneOf(["on", "off"], "on"),
    BROKER_METRICS_PORT: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
    BROKER_METRICS_HOST: Type.String({ default: "127.0.0.1" }),
    // Checked in config.ts, whose problem does not quote it: it is a secret.
    BROKER_METRICS_TOKEN: Type.Optional(Type.String()),
    BROKER_METRICS_TENANT_LABELS: Type.Boolean({ default: false }),
    ...OtelVariables,
  },
  // env-schema imposes this anyway (Ajv then drops undeclared variables); stated so the schema reads true.
  { additionalProperties: false },
);

export type EnvSettings = Static<typeof EnvSchema>;
type SettingName = keyof EnvSettings;
type ProcessEnv = Record<string, string | undefined>;

const SETTING_NAMES = Object.keys(EnvSchema.properties) as SettingName[];
const schemaOf = (name: SettingName): TSchema => EnvSchema.properties[name];

/**
 * Validates the declared variables. An invalid one is reported and then falls back to its
 * default, so the checks that span several variables (production's) still run and every problem
 * is reported in one go.
 */
export function readSettings(env: ProcessEnv): { settings: EnvSettings; problems: string[] } {
  const given = declaredValues(env);
  // Ajv's coercion takes whatever Number() takes (" 80", "1e3", "0x50"); the contract is decimal digits.
  const invalid = new Set<string>(
    SETTING_NAMES.filter((name) => schemaOf(name).type === "integer" && name in given && !/^\d+$/.test(given[name]!)),
  );
  // A second pass without the refused variables fills in their defaults.
  const settings = validate(given, invalid) ?? validate(given, invalid);
  if (!settings) throw new Error("configuration schema rejected its own defaults");
  const problems = SETTING_NAMES.filter((name) => invalid.has(name)).map((name) => problemWith(name, env[name]!));
  return { settings, problems };
}

/**
 * The declared variables that are set. Empty counts as unset (so `PORT=` means the default), and
 * a flag may be written 1/0 as well as true/false (Ajv itself coerces only "true" and "false").
 */
function declaredValues(env: ProcessEnv): Record<string, string> {
  const given: Record<string, string> = {};
  for (const name of SETTING_NAMES) {
    const raw = env[name];
    if (raw === undefined || raw === "") continue;
    const isFlag = schemaOf(name).type === "boolean";
    given[name] = isFlag && raw === "1" ? "true" : isFlag && raw === "0" ? "false" : raw;
  }
  return given;
}

/** Settings with defaults filled in, or undefined after adding the variables Ajv refused to `invalid`. */
function validate(given: Record<string, string>, invalid: Set<string>): EnvSettings | undefined {
  const data = Object.fromEntries(Object.entries(given).filter(([name]) => !invalid.has(name)));
  try {
    return envSchema<EnvSettings>({ schema: EnvSchema, data, env: false });
  } catch (error) {
    const refused = (error as { errors?: { instancePath: string }[] }).errors;
    if (!refused) throw error;
    for (const { instancePath } of refused) invalid.add(instancePath.split("/")[1] ?? "");
    return undefined;
  }
}

/** One line naming the variable, what it accepts and what it got. */
function problemWith(name: SettingName, raw: string): string {
  return `${name} must be ${expectation(schemaOf(name))} (got "${raw}")`;
}

function expectation(schema: TSchema): string {
  if (schema.type === "integer") {
    const bounds = [schema.minimum !== undefined ? `>= ${schema.minimum}` : "", schema.maximum !== undefined ? `<= ${schema.maximum}` : ""];
    return ["an integer", bounds.filter(Boolean).join(" and ")].filter(Boolean).join(" ");
  }
  if (schema.type === "boolean") return "true or false";
  if (Array.isArray(schema.anyOf)) {
    const values = (schema.anyOf as TSchema[]).map((choice) => String(choice.const));
    return values.length > 1 ? `${values.slice(0, -1).join(", ")} or ${values.at(-1)}` : values.join("");
  }
  return `a ${schema.type ?? "valid value"}`;
}
