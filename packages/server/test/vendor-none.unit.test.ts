/**
 * Built-in providers whose vendor publishes no OpenAPI description (`vendorDescription.none`).
 * Each says what it is checked against instead; this test prints that and checks, per provider:
 * the declared hosts (API base, OAuth endpoints) are the vendor's documented ones and every tool's
 * path sits under the vendor's versioned API prefix. Where the team wrote a description from the
 * vendor's reference for the sandbox (vendor/sandbox/<id>.json, marked as not the vendor's), every
 * tool is also checked against it as the vendor-described tools are against theirs. Linear's
 * GraphQL tools are checked in vendor-graphql.test.ts.
 */
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { OpenApiDocument } from "../scripts/vendor-openapi/schema-views.js";
import { checkTool } from "../scripts/vendor-openapi/tool-check.js";
import { NOT_DESCRIBED } from "./support/vendored-descriptions.js";

/** The hosts each vendor's reference documents, and the versioned prefix of its API's paths (base URL + tool path). */
const DOCUMENTED: Record<string, { api: RegExp; oauth?: RegExp; paths: RegExp; reference: string }> = {
  confluence: { api: /^https:\/\/api\.atlassian\.com\/ex\/confluence\/\{cloud_id\}$/, oauth: /^https:\/\/auth\.atlassian\.com\//, paths: /^\/wiki\/(api\/v2|rest\/api)\//, reference: "Confluence Cloud REST v2 (and v1 search): developer.atlassian.com" },
  gitlab: { api: /^https:\/\/gitlab\.com\/api\/v4$/, oauth: /^https:\/\/gitlab\.com\/oauth\//, paths: /^\/projects(\/|$)/, reference: "GitLab REST API v4: docs.gitlab.com/api" },
  hubspot: { api: /^https:\/\/api\.hubapi\.com$/, oauth: /^https:\/\/(app|api)\.hubapi?\.com\/|^https:\/\/app\.hubspot\.com\//, paths: /^\/crm\/v[34]\//, reference: "HubSpot CRM API v3/v4: developers.hubspot.com" },
  zendesk: { api: /^https:\/\/\{subdomain\}\.zendesk\.com\/api\/v2$/, paths: /^\/[a-z_]+(\/[^/]+)*\.json$/, reference: "Zendesk Ticketing API v2: developer.zendesk.com" },
  dropbox: { api: /^https:\/\/api\.dropboxapi\.com\/2$/, oauth: /^https:\/\/(www\.dropbox\.com|api\.dropboxapi\.com)\/oauth2\//, paths: /^\/(files|sharing|users)\/[a-z_0-9/]+$/, reference: "Dropbox HTTP API v2: www.dropbox.com/developers/documentation/http" },
  airtable: { api: /^https:\/\/api\.airtable\.com\/v0$/, oauth: /^https:\/\/airtable\.com\/oauth2\/v1\//, paths: /^\/(meta\/bases|\{base_id\})(\/|$)/, reference: "Airtable Web API v0: airtable.com/developers/web/api" },
  salesforce: { api: /^\{instance_url\}\/services\/data\/v\d+\.0$/, oauth: /^https:\/\/login\.salesforce\.com\/services\/oauth2\//, paths: /^\/(query|search|sobjects)(\/|$)/, reference: "Salesforce REST API: developer.salesforce.com" },
};

/** What the API base URL's path adds to the description's server path (Zendesk's /api/v2, Dropbox's /2). */
function pathPrefixOf(apiBaseUrl: string, doc: OpenApiDocument): string {
  const pathOf = (url: string) => new URL(url.replace(/\{[^}]+\}/g, "x").replace(/^x(?=\/)/, "https://x")).pathname.replace(/\/$/, "");
  const base = pathOf(apiBaseUrl);
  const server = pathOf(String(doc.servers?.[0]?.url ?? "https://x"));
  return base.startsWith(server) ? base.slice(server.length) : base;
}

const checkedElsewhere = new Set(["tracker"]);
const providers = NOT_DESCRIBED.filter((provider) => !checkedElsewhere.has(provider.declaration.id));

describe.each(providers.map((provider) => [provider.declaration.id, provider] as const))("%s (no vendor OpenAPI description)", (id, provider) => {
  const documented = DOCUMENTED[id];
  const sandboxFile = new URL(`../vendor/sandbox/${id}.json`, import.meta.url);

  it("says what it is checked against, and declares the vendor's documented hosts", () => {
    const none = provider.vendorDescription && "none" in provider.vendorDescription ? provider.vendorDescription.none : "";
    console.info(`${id}: ${none || "(no vendorDescription)"}\n  checked here: hosts and path prefix per ${documented?.reference ?? "?"}${existsSync(sandboxFile) ? `; every tool against vendor/sandbox/${id}.json` : ""}`);
    expect(none, `${id} needs vendorDescription: { none: "what its tools are checked against" }`).not.toBe("");
    expect(documented, `add ${id}'s documented hosts and path prefix to DOCUMENTED in this test`).toBeDefined();
    expect(provider.declaration.api_base_url).toMatch(documented!.api);
    const auth = provider.declaration.auth;
    if (auth.type === "oauth2" && documented!.oauth) {
      expect(auth.authorize_url).toMatch(documented!.oauth);
      expect(auth.token_url).toMatch(documented!.oauth);
    }
  });

  it("calls only paths under the vendor's versioned API", () => {
    const outside = provider.tools.filter((tool) => !documented?.paths.test(tool.request.path)).map((tool) => `${tool.name}: ${tool.request.method} ${tool.request.path}`);
    expect(outside).toEqual([]);
  });

  const sandboxDescription = existsSync(sandboxFile) ? (JSON.parse(readFileSync(sandboxFile, "utf8")) as OpenApiDocument) : undefined;
  if (sandboxDescription) {
    it.each(provider.tools.map((tool) => [tool.name, tool] as const))(`%s against vendor/sandbox/${id}.json (written from the vendor's reference)`, (name, tool) => {
      const result = checkTool(sandboxDescription, { tool, hooks: provider.hooks.tools?.[name], example: provider.examples?.[name], pathPrefix: pathPrefixOf(provider.declaration.api_base_url, sandboxDescription) });
      if (result.problems.length) throw new Error(`${name} against ${result.operation ?? "?"} of vendor/sandbox/${id}.json:\n${result.problems.map((p) => `  - ${p}`).join("\n")}`);
    });
  }
});
