/**
 * Reads and validates the environment once. This is the only module that touches `process.env`;
 * everything else receives a `Config`. The variables are declared in config-schema.ts; here they
 * become a `Config`, and the rules that span several variables are checked.
 */
import { fileURLToPath } from "node:url";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { readSettings, type EnvSettings } from "./config-schema.js";
import { parseMasterKeys } from "./vault/master-keys.js";
import type { MetricsConfig } from "./observability/metrics.js";
import { readTracingConfig, type TracingConfig } from "./observability/tracing-config.js";
import { SERVICE_NAME } from "./version.js";

export { DEFAULT_RATE_LIMITS, MAX_BROKER_TOKEN_TTL_SECONDS } from "./config-schema.js";

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
  /** The console's public OIDC client (authorization code + PKCE) at the identity provider. */
  consoleClientId: string | undefined;
  rateLimits: { executePerMinute: number; tokenPerMinute: number };
  webhookAllowPrivate: boolean;
  /** Total time one webhook attempt may take (connect, headers and body) before it counts as failed. */
  webhookTimeoutMs: number;
  /** Whether `serve` runs the webhook delivery worker in process (`toolbroker worker` runs it alone). */
  webhookWorker: boolean;
  logLevel: string;
  /** One readable line per entry (development's default) or JSON lines (everywhere else). */
  logFormat: "json" | "pretty";
  brokerTokenTtlSeconds: number;
  approvalTtlSeconds: number;
  /** How long an approval email's Approve / Deny links work (never past the approval's expiry). */
  approvalLinkTtlSeconds: number;
  /** Where approval emails go out (`BROKER_SMTP_URL`) and who they are from; undefined: no email channel. */
  smtp: { url: string; from: string } | undefined;
  /** Whether `serve` runs the approval outbox (channel deliveries, expiry, reminders) in process; `toolbroker worker` always does. */
  approvalWorker: boolean;
  /** How often the approval outbox sweeps for expiries and reminders and looks for due deliveries. */
  approvalWorkerIntervalMs: number;
  /** Verifies the Slack app's interaction requests (approval buttons); undefined: Slack interactivity is off. */
  slackSigningSecret: string | undefined;
  /** How long one upstream SaaS call may take before it fails with upstream_error. */
  upstreamTimeoutMs: number;
  /** After SIGTERM, how long requests in flight may take before their connections are closed. */
  shutdownGraceMs: number;
  /** After SIGTERM, how long new connections are still taken (with /health/ready at 503) before the drain begins. */
  shutdownDelayMs: number;
  meteringMode: "test" | "off";
  /**
   * How far V8 lets the heap grow past what the last full collection kept, in percent (serve and
   * worker); 0 leaves V8's own choice, which under load lets garbage pile up to several times that.
   */
  heapGrowthPercent: number;
  metrics: MetricsConfig;
  /** Traces over OTLP/HTTP from the standard OTEL_* variables (observability/tracing-config.ts); undefined: tracing is off. */
  tracing: TracingConfig | undefined;
};

export type { MetricsConfig } from "./observability/metrics.js";

/** A metrics token shorter than this is refused: it guards the broker's traffic figures. */
export const MIN_METRICS_TOKEN_LENGTH = 24;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  }
}

type ProcessEnv = Record<string, string | undefined>;

export function loadConfig(env: ProcessEnv = process.env): Config {
  const { settings, problems } = readSettings(env);
  const oidc = parseOidc(settings, problems);
  const tracing = readTracingConfig(settings, SERVICE_NAME, problems);
  const config: Config = { ...configFrom(settings, oidc, parseProviderOverrides(env)), tracing };
  if (config.masterKeys) {
    try {
      parseMasterKeys(config.masterKeys);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  if (config.smtp && !isSmtpUrl(config.smtp.url)) problems.push("BROKER_SMTP_URL must be an smtp:// or smtps:// URL (smtp://user:password@host:587)");
  if (config.metrics.token !== undefined && config.metrics.token.length < MIN_METRICS_TOKEN_LENGTH) {
    problems.push(`BROKER_METRICS_TOKEN must be at least ${MIN_METRICS_TOKEN_LENGTH} characters`);
  }
  if (config.metrics.port !== undefined && config.metrics.port === config.port) problems.push("BROKER_METRICS_PORT must differ from PORT");
  if (config.environment === "production") problems.push(...productionProblems(config));
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function isSmtpUrl(url: string): boolean {
  try {
    return ["smtp:", "smtps:"].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

/**
 * `packages/server/data` in a checkout (from src/ or dist/ alike), whatever the working directory:
 * `npm start` and `npx toolbroker …` from the repository root use the same database and keys.
 */
export const DEFAULT_DATA_DIR = fileURLToPath(new URL("../data", import.meta.url));

/**
 * Where `toolbroker demo` keeps its data: beside the data folder, never in it, so that nothing the
 * demo makes (sandbox connections above all) shows up under `serve` (issue 41). Always SQLite:
 * the demo ignores DATABASE_URL for the same reason.
 */
export const demoDataDirOf = (dataDir: string) => `${dataDir.replace(/\/+$/, "")}-demo`;

function configFrom(settings: EnvSettings, oidc: OidcConfig | undefined, providers: Record<string, ProviderOverrides>): Omit<Config, "tracing"> {
  const environment = settings.BROKER_ENV;
  return {
    environment,
    host: settings.BROKER_HOST,
    port: settings.PORT,
    publicUrl: (settings.BROKER_PUBLIC_URL ?? `http://127.0.0.1:${settings.PORT}`).replace(/\/+$/, ""),
    dataDir: settings.BROKER_DATA_DIR ? resolve(settings.BROKER_DATA_DIR) : DEFAULT_DATA_DIR,
    databaseUrl: settings.DATABASE_URL,
    masterKeys: settings.BROKER_MASTER_KEYS,
    oidc,
    providers,
    redisUrl: settings.BROKER_REDIS_URL,
    consoleClientId: settings.BROKER_CONSOLE_CLIENT_ID,
    rateLimits: { executePerMinute: settings.BROKER_RATE_LIMIT_EXECUTE, tokenPerMinute: settings.BROKER_RATE_LIMIT_TOKEN },
    webhookAllowPrivate: settings.BROKER_WEBHOOK_ALLOW_PRIVATE ?? environment !== "production",
    webhookTimeoutMs: settings.BROKER_WEBHOOK_TIMEOUT_MS,
    webhookWorker: settings.BROKER_WEBHOOK_WORKER,
    logLevel: settings.BROKER_LOG_LEVEL,
    logFormat: settings.BROKER_LOG_FORMAT ?? (environment === "development" ? "pretty" : "json"),
    brokerTokenTtlSeconds: settings.BROKER_TOKEN_TTL_SECONDS,
    upstreamTimeoutMs: settings.BROKER_UPSTREAM_TIMEOUT_MS,
    shutdownGraceMs: settings.BROKER_SHUTDOWN_GRACE_MS,
    shutdownDelayMs: settings.BROKER_SHUTDOWN_DELAY_MS,
    approvalTtlSeconds: settings.BROKER_APPROVAL_TTL_SECONDS,
    approvalLinkTtlSeconds: settings.BROKER_APPROVAL_LINK_TTL_SECONDS,
    smtp: settings.BROKER_SMTP_URL ? { url: settings.BROKER_SMTP_URL, from: settings.BROKER_SMTP_FROM } : undefined,
    approvalWorker: settings.BROKER_APPROVAL_WORKER,
    approvalWorkerIntervalMs: settings.BROKER_APPROVAL_WORKER_INTERVAL_MS,
    slackSigningSecret: settings.BROKER_SLACK_SIGNING_SECRET,
    meteringMode: settings.BROKER_METERING_MODE,
    heapGrowthPercent: settings.BROKER_HEAP_GROWTH_PERCENT,
    metrics: {
      enabled: settings.BROKER_METRICS === "on",
      port: settings.BROKER_METRICS_PORT,
      host: settings.BROKER_METRICS_HOST,
      token: settings.BROKER_METRICS_TOKEN,
      tenantLabels: settings.BROKER_METRICS_TENANT_LABELS,
    },
  };
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

/** The audience and the JWKS URL only mean something together with the issuer, so they are checked here. */
function parseOidc(settings: EnvSettings, problems: string[]): OidcConfig | undefined {
  const issuer = settings.BROKER_OIDC_ISSUER;
  if (!issuer) return undefined;
  const audience = settings.BROKER_OIDC_AUDIENCE;
  if (!audience) problems.push("BROKER_OIDC_AUDIENCE is required when BROKER_OIDC_ISSUER is set");
  const jwksUrl = settings.BROKER_OIDC_JWKS_URL ?? `${issuer.replace(/\/+$/, "")}/.well-known/jwks.json`;
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

/**
 * `BROKER_PROVIDER_<ID>_<FIELD>`. Ids may hold underscores (GOOGLE_CALENDAR, MICROSOFT_OUTLOOK), so
 * the variable is split at the shortest id followed by one of the known fields.
 */
const PROVIDER_VARIABLE = new RegExp(`^BROKER_PROVIDER_([A-Z0-9][A-Z0-9_]*?)_(${Object.keys(PROVIDER_FIELDS).join("|")})$`);

/** Provider names are open-ended, so these variables are matched by pattern rather than declared in the schema. */
function parseProviderOverrides(env: ProcessEnv): Record<string, ProviderOverrides> {
  const providers: Record<string, ProviderOverrides> = {};
  for (const [name, value] of Object.entries(env)) {
    const match = PROVIDER_VARIABLE.exec(name);
    if (!match || !value) continue;
    const field = PROVIDER_FIELDS[match[2]!];
    if (!field) continue;
    const provider = match[1]!.toLowerCase();
    providers[provider] = { ...providers[provider], [field]: value };
  }
  return providers;
}

/** What the commands that talk to a broker over HTTP (`login`, `api`, `listen`, …) read from the environment. */
export type ClientSettings = {
  /** `TOOLBROKER_CONFIG`, else `$XDG_CONFIG_HOME/toolbroker/config.json`, else `~/.config/toolbroker/config.json`. */
  configFile: string;
  /** The broker `login` talks to when not given `--url`: the server's own `BROKER_PUBLIC_URL` default. */
  defaultBrokerUrl: string;
};

export function loadClientSettings(env: ProcessEnv = process.env): ClientSettings {
  const configHome = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config");
  const port = /^\d+$/.test(env.PORT ?? "") ? env.PORT : "8080";
  return {
    configFile: env.TOOLBROKER_CONFIG ? resolve(env.TOOLBROKER_CONFIG) : join(configHome, "toolbroker", "config.json"),
    defaultBrokerUrl: (env.BROKER_PUBLIC_URL || `http://127.0.0.1:${port}`).replace(/\/+$/, ""),
  };
}
