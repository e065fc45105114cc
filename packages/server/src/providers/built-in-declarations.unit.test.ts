import { readFileSync } from "node:fs";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import type { ProviderDeclaration } from "./declaration-schema.js";
import { createDeclarationChecks } from "../catalogue/declaration-checks.js";
import { providerFromDeclaration } from "./declared-provider.js";
import { createUrlSafety } from "../shared/url-safety.js";
import { createToolCompiler } from "../catalogue/tool-catalogue.js";
import { BUILT_IN_PROVIDERS } from "./built-in.js";
import { PROVIDERS } from "./catalogue.js";

const published = JSON.parse(readFileSync(new URL("../../docs/catalogue.schema.json", import.meta.url), "utf8")) as { $id: string };
// The settings declaration-checks.ts validates tenants' declarations with.
const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, discriminator: true });
ajv.addSchema(published);
const validator = (name: string) => ajv.getSchema(`${published.$id}#/definitions/${name}`)!;

// Every host stands for a public address: the checks run without the network.
const urlSafety = createUrlSafety({ requireHttps: true, allowPrivate: false, resolver: async () => [{ address: "93.184.216.34", family: 4 }], subject: { noun: "provider URL", code: "invalid_declaration" } });
// Built-in arguments schemas are compiled by the built-in catalogue's compiler (JavaScript
// regular expressions: GitHub's name pattern has a lookahead RE2 lacks), so they are checked with it.
const checks = createDeclarationChecks({ urlSafety, compiler: createToolCompiler() });

describe.each(BUILT_IN_PROVIDERS.map((builtIn) => [builtIn.declaration.id, builtIn] as const))("the built-in provider %s", (id, { declaration, tools, hooks }) => {
  it("is a provider declaration the published schema accepts", () => {
    const validate = validator("ProviderDeclaration");
    expect(validate(declaration), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...declaration, id: "Not An Id" })).toBe(false);
  });

  it("passes the checks a tenant's provider declaration passes", async () => {
    await expect(checks.provider(declaration)).resolves.toEqual(declaration);
  });

  it.each(tools.map((tool) => [tool.name, tool] as const))("declares %s as the published schema and the semantic checks accept", (_name, tool) => {
    const validate = validator("ToolDeclaration");
    expect(validate(tool), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...tool, response: { ...tool.response, schema: "not a schema" } })).toBe(false);
    expect(checks.tool(tool, id)).toEqual(tool);
  });

  it("has a response schema that compiles wherever one is declared", () => {
    const compiler = new Ajv({ strict: false });
    for (const tool of tools) if (tool.response?.schema) expect(() => compiler.compile(tool.response!.schema!)).not.toThrow();
  });

  it("hooks only tools it declares", () => {
    expect(Object.keys(hooks.tools ?? {}).filter((name) => !tools.some((tool) => tool.name === name))).toEqual([]);
  });
});

describe("building providers from declarations", () => {
  it("marks no built-in provider tenant-defined", () => {
    expect(PROVIDERS.filter((provider) => provider.tenantDefined !== undefined).map((provider) => provider.id)).toEqual([]);
  });

  it("marks a provider built without hooks tenant-defined, as before", () => {
    const { declaration, tools } = BUILT_IN_PROVIDERS[0]!;
    expect(providerFromDeclaration(declaration, tools).tenantDefined).toBe(true);
  });

  it("refuses hooks for a tool that is not declared, and a mapping hook beside declared pointers", () => {
    const { declaration, tools } = BUILT_IN_PROVIDERS[0]!;
    expect(() => providerFromDeclaration(declaration, tools, { tools: { "scm.no_such_tool": {} } })).toThrow(/undeclared tools scm.no_such_tool/);
    const withFields = tools.find((tool) => tool.response?.fields)!;
    expect(() => providerFromDeclaration(declaration, [withFields], { tools: { [withFields.name]: { mapResponse: () => null } } })).toThrow(/exclude each other/);
  });

  it("presents a second auth mode's API key through its hook, and OAuth tokens as Bearer", () => {
    const linear = PROVIDERS.find((provider) => provider.id === "tracker")!;
    expect(linear.authModes).toEqual(["oauth2", "api_key"]);
    expect(linear.presentCredential({ kind: "api_key", secret: "lin_api_x" })).toEqual({ headers: { authorization: "lin_api_x" } });
    expect(linear.presentCredential({ kind: "oauth2", secret: "t" })).toEqual({ headers: { authorization: "Bearer t" } });
  });

  it("revokes by the declared style: a Bearer call (Slack, Linear) or an RFC 7009 form (the default)", () => {
    const slack = PROVIDERS.find((provider) => provider.id === "chat")!;
    const input = { token: "tok", clientId: "c", clientSecret: "s", revokeUrl: "https://slack.com/api/auth.revoke", apiBaseUrl: "https://slack.com/api" };
    expect(slack.oauth!.revocation!(input).request).toEqual({ method: "POST", path: "", headers: { authorization: "Bearer tok" }, form: {} });
    const chat = BUILT_IN_PROVIDERS.find((builtIn) => builtIn.declaration.id === "chat")!.declaration;
    const { revocation_style: _style, ...rfc7009 } = chat.auth as Extract<ProviderDeclaration["auth"], { type: "oauth2" }>;
    const standard = providerFromDeclaration({ ...chat, auth: rfc7009 }, []);
    expect(standard.oauth!.revocation!(input).request).toEqual({ method: "POST", path: "", form: { token: "tok", client_id: "c", client_secret: "s" } });
  });
});
