import { describe, expect, it } from "vitest";
import { BrokerError } from "../errors.js";
import { apiBindingOf, checkConnectionValue, connectionValueProblems, hostAllowed, resolveApiBase, templateBindingOf, type ValuedProvider } from "./connection-values.js";

const salesforce: ValuedProvider = {
  id: "salesforce",
  apiBaseUrl: "{instance_url}/services/data/v62.0",
  connectionValues: { instance_url: { source: "token_response", pointer: "/instance_url", kind: "origin", allowed_hosts: ["*.my.salesforce.com", "*.salesforce.com"] } },
};
const jira: ValuedProvider = {
  id: "jira",
  apiBaseUrl: "https://api.atlassian.com/ex/jira/{cloud_id}",
  connectionValues: { cloud_id: { source: "api", path: "/oauth/token/accessible-resources", pointer: "/0/id", pattern: "^[0-9a-f-]{36}$" } },
};
const zendesk: ValuedProvider = {
  id: "zendesk",
  apiBaseUrl: "https://{subdomain}.zendesk.com/api/v2",
  connectionValues: { subdomain: { source: "connect_input", label: "Zendesk subdomain", pattern: "^[a-z0-9][a-z0-9-]{0,62}$" } },
};
const CLOUD = "11111111-2222-3333-4444-555555555555";

describe("connection values", () => {
  it("matches allowed hosts: `*.` is one or more labels, never the bare suffix or an empty label", () => {
    expect(hostAllowed("acme.my.salesforce.com", ["*.my.salesforce.com"])).toBe(true);
    expect(hostAllowed("a.b.my.salesforce.com", ["*.my.salesforce.com"])).toBe(true);
    expect(hostAllowed("my.salesforce.com", ["*.my.salesforce.com"])).toBe(false);
    expect(hostAllowed("evilsalesforce.com", ["*.salesforce.com"])).toBe(false);
    expect(hostAllowed("a..salesforce.com", ["*.salesforce.com"])).toBe(false);
    expect(hostAllowed("login.salesforce.com", ["login.salesforce.com"])).toBe(true);
  });

  it("takes an https origin on the allowed hosts, and nothing with a path, credentials or another scheme", () => {
    expect(checkConnectionValue(salesforce, "instance_url", "https://acme.my.salesforce.com")).toEqual({ value: "https://acme.my.salesforce.com" });
    expect(checkConnectionValue(salesforce, "instance_url", "https://ACME.my.salesforce.com:443/")).toEqual({ value: "https://acme.my.salesforce.com" });
    for (const bad of ["http://acme.my.salesforce.com", "https://evil.com", "https://acme.my.salesforce.com/x", "https://u:p@acme.my.salesforce.com", "https://acme.my.salesforce.com.evil.com", 42, "https://evil.com#.salesforce.com"]) {
      expect(checkConnectionValue(salesforce, "instance_url", bad)).toHaveProperty("problem");
    }
  });

  it("with an overriding base URL, takes only its origin", () => {
    const sandbox = { ...salesforce, apiBaseUrl: "http://127.0.0.1:4000/services/data/v62.0", apiBaseOverridden: true };
    expect(checkConnectionValue(sandbox, "instance_url", "http://127.0.0.1:4000")).toEqual({ value: "http://127.0.0.1:4000" });
    expect(checkConnectionValue(sandbox, "instance_url", "https://acme.my.salesforce.com")).toHaveProperty("problem");
    expect(checkConnectionValue(sandbox, "instance_url", "http://127.0.0.1:4001")).toHaveProperty("problem");
  });

  it("takes a typed-in value as one lower-cased DNS label matching its pattern", () => {
    expect(checkConnectionValue(zendesk, "subdomain", "Acme-Support")).toEqual({ value: "acme-support" });
    for (const bad of ["acme.evil.com", "-acme", "acme-", "a/b", "", "a".repeat(64), "acme%2e", "ac me", 7]) expect(checkConnectionValue(zendesk, "subdomain", bad)).toHaveProperty("problem");
  });

  it("takes an API value as one path segment matching its pattern", () => {
    expect(checkConnectionValue(jira, "cloud_id", CLOUD)).toEqual({ value: CLOUD });
    for (const bad of ["..", "../admin", "abc", `${CLOUD}/x`]) expect(checkConnectionValue(jira, "cloud_id", bad)).toHaveProperty("problem");
  });

  it("fills the base URL and binds the credential to the origin and the path up to its last value", () => {
    expect(resolveApiBase(jira, { cloud_id: CLOUD })).toBe(`https://api.atlassian.com/ex/jira/${CLOUD}`);
    expect(apiBindingOf(jira, { cloud_id: CLOUD })).toBe(`https://api.atlassian.com/ex/jira/${CLOUD}`);
    expect(resolveApiBase(zendesk, { subdomain: "acme" })).toBe("https://acme.zendesk.com/api/v2");
    expect(apiBindingOf(zendesk, { subdomain: "acme" })).toBe("https://acme.zendesk.com");
    expect(resolveApiBase(salesforce, { instance_url: "https://acme.my.salesforce.com" })).toBe("https://acme.my.salesforce.com/services/data/v62.0");
    expect(apiBindingOf(salesforce, { instance_url: "https://acme.my.salesforce.com" })).toBe("https://acme.my.salesforce.com");
    const sandbox = { ...zendesk, apiBaseUrl: "http://127.0.0.1:4000/{subdomain}/api/v2", apiBaseOverridden: true };
    expect(apiBindingOf(sandbox, { subdomain: "acme" })).toBe("http://127.0.0.1:4000/acme");
    expect(templateBindingOf(zendesk)).toBe("https://{subdomain}.zendesk.com");
    expect(templateBindingOf(jira)).toBe("https://api.atlassian.com");
  });

  it("sends nothing for a missing value or one today's rules refuse", () => {
    const missing = (() => { try { resolveApiBase(jira, {}); } catch (error) { return error; } })() as BrokerError;
    expect(missing.code).toBe("connection_unusable");
    expect(missing.details).toMatchObject({ reason: "connection_value_missing", value: "cloud_id" });
    expect(() => resolveApiBase(zendesk, { subdomain: "evil.com/x" })).toThrow(/no longer accepted/);
  });

  it("finds what the schema cannot say about a declaration's values", () => {
    const problems = (d: Parameters<typeof connectionValueProblems>[0]) => connectionValueProblems(d).map((p) => p.field);
    expect(problems({ api_base_url: salesforce.apiBaseUrl, auth: { type: "oauth2" }, connection_values: salesforce.connectionValues })).toEqual([]);
    expect(problems({ api_base_url: "https://x.com/{a", auth: { type: "oauth2" } })).toEqual(["/api_base_url"]);
    expect(problems({ api_base_url: "https://x.com/", auth: { type: "oauth2" }, connection_values: jira.connectionValues })).toEqual(["/connection_values/cloud_id"]);
    expect(problems({ api_base_url: "{instance_url}/x", auth: { type: "oauth2" }, connection_values: { instance_url: { source: "token_response", pointer: "/i", kind: "origin" } } })).toEqual(["/connection_values/instance_url/allowed_hosts"]);
    expect(problems({ api_base_url: "{sub}.x.com", auth: { type: "api_key" }, connection_values: zendesk.connectionValues && { sub: zendesk.connectionValues.subdomain! } })).toEqual(["/api_base_url"]);
  });
});
