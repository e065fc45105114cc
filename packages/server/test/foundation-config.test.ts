/**
 * DESIGN §5 configuration: read once from the environment, every problem reported together, one
 * line each; production refuses settings that are fine on a laptop and unsafe on the internet.
 * (Pure parsing: no database is involved, so this suite runs once.)
 */
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config.js";
import { testMasterKey } from "./support/broker.js";

const PRODUCTION = {
  BROKER_ENV: "production",
  BROKER_PUBLIC_URL: "https://broker.example.com",
  BROKER_MASTER_KEYS: testMasterKey("prod-1"),
  BROKER_OIDC_ISSUER: "https://idp.example.com/",
  BROKER_OIDC_AUDIENCE: "toolbroker",
  BROKER_OIDC_JWKS_URL: "https://idp.example.com/.well-known/jwks.json",
};

function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("loadConfig", () => {
  it("starts with documented defaults from an empty environment", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      environment: "development",
      host: "127.0.0.1",
      port: 8080,
      publicUrl: "http://127.0.0.1:8080",
      databaseUrl: undefined,
      masterKeys: undefined,
      oidc: undefined,
      rateLimits: { executePerMinute: 600, tokenPerMinute: 60 },
      webhookAllowPrivate: true,
      logLevel: "info",
      brokerTokenTtlSeconds: 900,
    });
  });

  it("accepts a complete production configuration", () => {
    const config = loadConfig(PRODUCTION);
    expect(config).toMatchObject({ environment: "production", publicUrl: "https://broker.example.com", webhookAllowPrivate: false });
    expect(config.oidc).toEqual({ issuer: PRODUCTION.BROKER_OIDC_ISSUER, audience: "toolbroker", jwksUrl: PRODUCTION.BROKER_OIDC_JWKS_URL });
  });

  it("refuses production with nothing configured, one line per problem", () => {
    const problems = problemsOf({ BROKER_ENV: "production" });
    expect(problems).toHaveLength(3);
    expect(problems.some((p) => p.includes("BROKER_MASTER_KEYS"))).toBe(true);
    expect(problems.some((p) => p.includes("BROKER_OIDC_ISSUER"))).toBe(true);
    expect(problems.some((p) => p.includes("BROKER_PUBLIC_URL"))).toBe(true);
    for (const problem of problems) expect(problem).not.toContain("\n");
  });

  it("refuses production without master keys", () => {
    const problems = problemsOf({ ...PRODUCTION, BROKER_MASTER_KEYS: undefined });
    expect(problems).toEqual([expect.stringContaining("BROKER_MASTER_KEYS")]);
  });

  it("refuses production without an OIDC issuer", () => {
    const problems = problemsOf({ ...PRODUCTION, BROKER_OIDC_ISSUER: undefined, BROKER_OIDC_AUDIENCE: undefined, BROKER_OIDC_JWKS_URL: undefined });
    expect(problems).toEqual([expect.stringContaining("BROKER_OIDC_ISSUER")]);
  });

  it("refuses production naming the development issuer", () => {
    const problems = problemsOf({ ...PRODUCTION, BROKER_OIDC_ISSUER: "urn:toolbroker:dev-issuer" });
    expect(problems).toEqual([expect.stringMatching(/BROKER_OIDC_ISSUER.*development issuer/)]);
  });

  it("refuses production with a plain-HTTP public URL", () => {
    const problems = problemsOf({ ...PRODUCTION, BROKER_PUBLIC_URL: "http://broker.example.com" });
    expect(problems).toEqual([expect.stringContaining("BROKER_PUBLIC_URL")]);
  });

  it("reports every problem at once in the ConfigError message", () => {
    let caught: unknown;
    try {
      loadConfig({ BROKER_ENV: "production", PORT: "http" });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const { problems, message } = caught as ConfigError;
    expect(problems).toHaveLength(4);
    for (const problem of problems) expect(message).toContain(problem);
  });

  it("refuses an unknown BROKER_ENV", () => {
    expect(problemsOf({ BROKER_ENV: "staging" })).toEqual([expect.stringContaining("BROKER_ENV")]);
  });

  it("refuses an OIDC issuer without an audience, in any environment", () => {
    expect(problemsOf({ BROKER_OIDC_ISSUER: "https://idp.example.com/" })).toEqual([expect.stringContaining("BROKER_OIDC_AUDIENCE")]);
  });

  it("refuses a JWKS URL that is not http(s)", () => {
    const problems = problemsOf({ BROKER_OIDC_ISSUER: "https://idp.example.com/", BROKER_OIDC_AUDIENCE: "a", BROKER_OIDC_JWKS_URL: "file:///etc/jwks.json" });
    expect(problems).toEqual([expect.stringContaining("BROKER_OIDC_JWKS_URL")]);
  });

  it.each(["abc", "80.5", "-1", "65536", "8080x"])("refuses PORT=%s", (value) => {
    expect(problemsOf({ PORT: value })).toEqual([expect.stringMatching(/^PORT must be an integer/)]);
  });

  it.each([
    ["BROKER_RATE_LIMIT_EXECUTE", "0"],
    ["BROKER_RATE_LIMIT_EXECUTE", "lots"],
    ["BROKER_RATE_LIMIT_EXECUTE", "2.5"],
    ["BROKER_RATE_LIMIT_TOKEN", "-5"],
    ["BROKER_RATE_LIMIT_TOKEN", "sixty"],
  ])("refuses %s=%s", (name, value) => {
    expect(problemsOf({ [name]: value })).toEqual([expect.stringMatching(new RegExp(`^${name} must be an integer`))]);
  });

  it("reads valid rate limits", () => {
    expect(loadConfig({ BROKER_RATE_LIMIT_EXECUTE: "1200", BROKER_RATE_LIMIT_TOKEN: "5" }).rateLimits).toEqual({ executePerMinute: 1200, tokenPerMinute: 5 });
  });

  it("refuses a broker token lifetime over 3600 seconds", () => {
    expect(problemsOf({ BROKER_TOKEN_TTL_SECONDS: "3601" })).toEqual([expect.stringMatching(/^BROKER_TOKEN_TTL_SECONDS .*<= 3600/)]);
    expect(problemsOf({ BROKER_TOKEN_TTL_SECONDS: "86400" })).toHaveLength(1);
    expect(problemsOf({ BROKER_TOKEN_TTL_SECONDS: "15m" })).toHaveLength(1);
    expect(loadConfig({ BROKER_TOKEN_TTL_SECONDS: "3600" }).brokerTokenTtlSeconds).toBe(3600);
    expect(loadConfig({ BROKER_TOKEN_TTL_SECONDS: "60" }).brokerTokenTtlSeconds).toBe(60);
  });

  it("refuses a non-boolean BROKER_WEBHOOK_ALLOW_PRIVATE", () => {
    expect(problemsOf({ BROKER_WEBHOOK_ALLOW_PRIVATE: "yes" })).toEqual([expect.stringContaining("BROKER_WEBHOOK_ALLOW_PRIVATE")]);
  });

  it("names what a variable accepts and the value it got, one line each", () => {
    expect(problemsOf({ PORT: "abc", BROKER_ENV: "staging", BROKER_WEBHOOK_WORKER: "yes", BROKER_METERING_MODE: "on" })).toEqual([
      'BROKER_ENV must be development, test or production (got "staging")',
      'PORT must be an integer >= 0 and <= 65535 (got "abc")',
      'BROKER_WEBHOOK_WORKER must be true or false (got "yes")',
      'BROKER_METERING_MODE must be test or off (got "on")',
    ]);
  });

  it.each([" 8080", "1e3", "0x50", "80.0"])("takes integers in decimal digits only, refusing PORT=%j", (value) => {
    expect(problemsOf({ PORT: value })).toEqual([expect.stringMatching(/^PORT must be an integer/)]);
  });

  it("accepts 1 and 0 for a boolean and treats an empty variable as unset", () => {
    expect(loadConfig({ BROKER_WEBHOOK_ALLOW_PRIVATE: "0", BROKER_WEBHOOK_WORKER: "0" })).toMatchObject({ webhookAllowPrivate: false, webhookWorker: false });
    expect(loadConfig({ ...PRODUCTION, BROKER_WEBHOOK_ALLOW_PRIVATE: "1" }).webhookAllowPrivate).toBe(true);
    expect(loadConfig({ PORT: "", BROKER_ENV: "", BROKER_LOG_LEVEL: "", BROKER_METERING_MODE: "" })).toMatchObject({ port: 8080, environment: "development", logLevel: "info", meteringMode: "test" });
  });

  it("reads provider overrides by name and ignores unrelated variables", () => {
    const config = loadConfig({ BROKER_PROVIDER_SCM_CLIENT_ID: "client", BROKER_PROVIDER_SCM_API_BASE_URL: "https://scm.example.test", HOME: "/root" });
    expect(config.providers).toEqual({ scm: { clientId: "client", apiBaseUrl: "https://scm.example.test" } });
  });

  it("reads overrides of provider ids with underscores, split before the field name", () => {
    const config = loadConfig({
      BROKER_PROVIDER_GOOGLE_CALENDAR_CLIENT_ID: "calendar-client",
      BROKER_PROVIDER_GOOGLE_CALENDAR_API_BASE_URL: "http://127.0.0.1:9/calendar/v3",
      BROKER_PROVIDER_MICROSOFT_OUTLOOK_TOKEN_URL: "http://127.0.0.1:9/token",
      BROKER_PROVIDER_GMAIL_CLIENT_SECRET: "secret",
      BROKER_PROVIDER_GOOGLE_CALENDAR_UNKNOWN: "ignored",
    });
    expect(config.providers).toEqual({
      google_calendar: { clientId: "calendar-client", apiBaseUrl: "http://127.0.0.1:9/calendar/v3" },
      microsoft_outlook: { tokenUrl: "http://127.0.0.1:9/token" },
      gmail: { clientSecret: "secret" },
    });
  });

  it("derives the public URL from PORT and strips a trailing slash", () => {
    expect(loadConfig({ PORT: "9001" }).publicUrl).toBe("http://127.0.0.1:9001");
    expect(loadConfig({ BROKER_PUBLIC_URL: "https://broker.example.com/" }).publicUrl).toBe("https://broker.example.com");
  });
});
