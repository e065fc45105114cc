/**
 * Reads and validates the environment once. This is the only module that touches `process.env`;
 * everything else receives a `Config`.
 */
import { resolve } from "node:path";
import { parseMasterKeys } from "./vault/master-keys.js";

export type BrokerEnvironment = "development" | "test" | "production";

export type ProviderOverrides = {
  clientId?: string;
  clientSecret?: string;
  authorizeUrl?: string;
  tokenUrl?: string;
  apiBaseUrl?: string;
  revokeUrl?: string;
};

export type OidcConfig = { issuer: string; audience: string; jwksUrl: string };

export type Config = {
  environment: BrokerEnvironment;
  host: string;
  port: number;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** `kid:base64` entries; undefined outside production means "generate into the data dir". */
  masterKeys: string | undefined;
  oidc: OidcConfig | undefined;
  providers: Record<string, ProviderOverrides>;
  redisUrl: string | undefined;
  rateLimits: { executePerMinute: number; tokenPerMinute: number };
  webhookAllowPrivate: boolean;
  /** Total time one webhook attempt may take (connect, headers and body) before it counts as failed. */
  webhookTimeoutMs: number;
  /** Whether `serve` runs the webhook delivery worker in process (`toolbroker worker` runs it alone). */
  webhookWorker: boolean;
  logLevel: string;
  brokerTokenTtlSeconds: number;
  approvalTtlSeconds: number;
  /** How long one upstream SaaS call may take before it fails with upstream_error. */
  upstreamTimeoutMs: number;
  meteringMode: "test" | "off";
};

export const DEFAULT_RATE_LIMITS = { executePerMinute: 600, tokenPerMinute: 60 };
export const MAX_BROKER_TOKEN_TTL_SECONDS = 3600;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  }
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const environment = parseEnvironment(env.BROKER_ENV, problems);
  const port = parseInteger(env, "PORT", 8080, problems, { min: 0, max: 65535 });
  const host = env.BROKER_HOST || "127.0.0.1";
  const publicUrl = (env.BROKER_PUBLIC_URL || `http://127.0.0.1:${port}`).replace(/\/+$/, "");
  const oidc = parseOidc(env, problems);
  const config: Config = {
    environment,
    host,
    port,
    publicUrl,
    dataDir: resolve(env.BROKER_DATA_DIR || "./data"),
    databaseUrl: env.DATABASE_URL || undefined,
    masterKeys: env.BROKER_MASTER_KEYS || undefined,
    oidc,
    providers: parseProviderOverrides(env),
    redisUrl: env.BROKER_REDIS_URL || undefined,
    rateLimits: {
      executePerMinute: parseInteger(env, "BROKER_RATE_LIMIT_EXECUTE", DEFAULT_RATE_LIMITS.executePerMinute, problems, { min: 1 }),
      tokenPerMinute: parseInteger(env, "BROKER_RATE_LIMIT_TOKEN", DEFAULT_RATE_LIMITS.tokenPerMinute, problems, { min: 1 }),
    },
    webhookAllowPrivate: parseBoolean(env, "BROKER_WEBHOOK_ALLOW_PRIVATE", environment !== "production", problems),
    webhookTimeoutMs: parseInteger(env, "BROKER_WEBHOOK_TIMEOUT_MS", 10_000, problems, { min: 100, max: 60_000 }),
    webhookWorker: parseBoolean(env, "BROKER_WEBHOOK_WORKER", true, problems),
    logLevel: env.BROKER_LOG_LEVEL || "info",
    brokerTokenTtlSeconds: parseInteger(env, "BROKER_TOKEN_TTL_SECONDS", 900, problems, {
      min: 30,
      max: MAX_BROKER_TOKEN_TTL_SECONDS,
    }),
    upstreamTimeoutMs: parseInteger(env, "BROKER_UPSTREAM_TIMEOUT_MS", 15_000, problems, { min: 100, max: 120_000 }),
    approvalTtlSeconds: parseInteger(env, "BROKER_APPROVAL_TTL_SECONDS", 86_400, problems, { min: 60 }),
    meteringMode: env.BROKER_METERING_MODE === "off" ? "off" : "test",
  };
  if (env.BROKER_METERING_MODE && !["off", "test"].includes(env.BROKER_METERING_MODE)) {
    problems.push("BROKER_METERING_MODE must be `test` or `off`");
  }
  if (config.masterKeys) {
    try {
      parseMasterKeys(config.masterKeys);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  if (environment === "production") problems.push(...productionProblems(config));
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** Settings that are fine on a laptop and unsafe on the internet. */
export function productionProblems(config: Config): string[] {
  const problems: string[] = [];
  if (!config.masterKeys) problems.push("BROKER_MASTER_KEYS is required in production (kid:base64 of 32 bytes)");
  if (!config.oidc) problems.push("BROKER_OIDC_ISSUER is required in production (the development issuer is refused)");
  if (config.oidc && config.oidc.issuer.startsWith("urn:toolbroker:dev")) {
    problems.push("BROKER_OIDC_ISSUER names the development issuer, which production refuses");
  }
  if (!config.publicUrl.startsWith("https://")) problems.push("BROKER_PUBLIC_URL must be https:// in production");
  return problems;
}

function parseEnvironment(value: string | undefined, problems: string[]): BrokerEnvironment {
  if (value === undefined || value === "") return "development";
  if (value === "development" || value === "test" || value === "production") return value;
  problems.push(`BROKER_ENV must be development, test or production (got "${value}")`);
  return "development";
}

function parseOidc(env: Env, problems: string[]): OidcConfig | undefined {
  const issuer = env.BROKER_OIDC_ISSUER;
  if (!issuer) return undefined;
  const audience = env.BROKER_OIDC_AUDIENCE;
  if (!audience) problems.push("BROKER_OIDC_AUDIENCE is required when BROKER_OIDC_ISSUER is set");
  const jwksUrl = env.BROKER_OIDC_JWKS_URL || `${issuer.replace(/\/+$/, "")}/.well-known/jwks.json`;
  if (!/^https?:\/\//.test(jwksUrl)) problems.push("BROKER_OIDC_JWKS_URL must be an http(s) URL");
  return { issuer, audience: audience ?? "", jwksUrl };
}

const PROVIDER_FIELDS: Record<string, keyof ProviderOverrides> = {
  CLIENT_ID: "clientId",
  CLIENT_SECRET: "clientSecret",
  AUTHORIZE_URL: "authorizeUrl",
  TOKEN_URL: "tokenUrl",
  API_BASE_URL: "apiBaseUrl",
  REVOKE_URL: "revokeUrl",
};

function parseProviderOverrides(env: Env): Record<string, ProviderOverrides> {
  const providers: Record<string, ProviderOverrides> = {};
  for (const [name, value] of Object.entries(env)) {
    const match = /^BROKER_PROVIDER_([A-Z0-9]+)_([A-Z_]+)$/.exec(name);
    if (!match || !value) continue;
    const field = PROVIDER_FIELDS[match[2]!];
    if (!field) continue;
    const provider = match[1]!.toLowerCase();
    providers[provider] = { ...providers[provider], [field]: value };
  }
  return providers;
}

function parseInteger(
  env: Env,
  name: string,
  fallback: number,
  problems: string[],
  range: { min?: number; max?: number } = {},
): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = /^\d+$/.test(raw.trim()) && raw.trim() === raw ? Number(raw) : Number.NaN;
  const outOfRange = (range.min !== undefined && value < range.min) || (range.max !== undefined && value > range.max);
  if (!Number.isInteger(value) || outOfRange) {
    const bounds = [range.min !== undefined ? `>= ${range.min}` : "", range.max !== undefined ? `<= ${range.max}` : ""]
      .filter(Boolean)
      .join(" and ");
    problems.push(`${name} must be an integer${bounds ? ` ${bounds}` : ""} (got "${raw}")`);
    return fallback;
  }
  return value;
}

function parseBoolean(env: Env, name: string, fallback: boolean, problems: string[]): boolean {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (raw === "true" || raw === "1") return true;
  if (raw === "false" || raw === "0") return false;
  problems.push(`${name} must be true or false (got "${raw}")`);
  return fallback;
}
