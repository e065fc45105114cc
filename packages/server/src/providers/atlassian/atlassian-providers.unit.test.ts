import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { providerFromDeclaration } from "../declared-provider.js";
import { adfToText, textToAdf } from "./atlassian-cloud.js";
import { atlassianProviders } from "./index.js";
import { trello } from "./trello.js";

describe("Atlassian, Asana, Trello and GitLab providers", () => {
  it.each(atlassianProviders.map((provider) => [provider.declaration.id, provider] as const))("%s: every tool has examples its arguments schema accepts, and builds a request from them", (_id, provider) => {
    const ajv = new Ajv({ strict: false });
    const built = providerFromDeclaration(provider.declaration, provider.tools, provider.hooks);
    expect(Object.keys(provider.examples ?? {}).sort()).toEqual(provider.tools.map((tool) => tool.name).sort());
    for (const tool of built.tools) {
      const example = provider.examples![tool.name]!;
      const validate = ajv.compile(tool.argumentsSchema);
      expect(validate(example), `${tool.name}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(() => tool.buildRequest(example), tool.name).not.toThrow();
      expect(tool.description, tool.name).toMatch(/\.$/);
    }
  });

  it("marks every delete high risk, destructive and idempotent", () => {
    for (const tool of atlassianProviders.flatMap((provider) => provider.tools).filter((tool) => /\.delete_/.test(tool.name))) {
      expect({ name: tool.name, risk: tool.risk, destructive: tool.destructive, idempotent: tool.idempotent }).toEqual({ name: tool.name, risk: "high", destructive: true, idempotent: true });
    }
  });

  it("turns plain text into Atlassian Document Format and back", () => {
    const adf = textToAdf("First line\nsecond line\n\nNext paragraph");
    expect(adf).toEqual({
      type: "doc",
      version: 1,
      content: [
        { type: "paragraph", content: [{ type: "text", text: "First line" }, { type: "hardBreak" }, { type: "text", text: "second line" }] },
        { type: "paragraph", content: [{ type: "text", text: "Next paragraph" }] },
      ],
    });
    expect(adfToText(adf)).toBe("First line\nsecond line\nNext paragraph");
    expect(adfToText(null)).toBeNull();
  });

  it("sends Jira's description and comments as ADF, and leaves out nested fields not given", () => {
    const jira = atlassianProviders.find((provider) => provider.declaration.id === "jira")!;
    const built = providerFromDeclaration(jira.declaration, jira.tools, jira.hooks);
    const create = built.tools.find((tool) => tool.name === "jira.create_issue")!.buildRequest({ project_key: "PROJ", summary: "S" });
    expect(create.body).toEqual({ fields: { project: { key: "PROJ" }, summary: "S", issuetype: { name: "Task" } } });
    const full = built.tools.find((tool) => tool.name === "jira.create_issue")!.buildRequest({ project_key: "PROJ", summary: "S", description: "D", priority: "High", assignee_account_id: "abc" });
    expect((full.body as any).fields).toMatchObject({ description: textToAdf("D"), priority: { name: "High" }, assignee: { accountId: "abc" } });
    const comment = built.tools.find((tool) => tool.name === "jira.add_comment")!.buildRequest({ issueIdOrKey: "PROJ-1", body: "Hi" });
    expect(comment).toMatchObject({ method: "POST", path: "/rest/api/3/issue/PROJ-1/comment", body: { body: textToAdf("Hi") } });
  });

  it("presents a Trello key and token as the key and token query parameters", () => {
    const built = providerFromDeclaration(trello.declaration, trello.tools, trello.hooks);
    expect(built.authModes).toEqual(["api_key"]);
    expect(built.presentCredential({ kind: "api_key", secret: "k123:tok:en" })).toEqual({ headers: {}, query: { key: "k123", token: "tok:en" } });
    expect(() => built.presentCredential({ kind: "api_key", secret: "no-colon" })).toThrow(/<key>:<token>/);
  });

  it("takes Asana and GitLab personal access tokens as Bearer tokens, besides OAuth", () => {
    for (const id of ["asana", "gitlab"]) {
      const provider = atlassianProviders.find((candidate) => candidate.declaration.id === id)!;
      const built = providerFromDeclaration(provider.declaration, provider.tools, provider.hooks);
      expect(built.authModes).toEqual(["oauth2", "api_key"]);
      expect(built.presentCredential({ kind: "api_key", secret: "glpat-x" })).toEqual({ headers: { authorization: "Bearer glpat-x" } });
    }
  });

  it("encodes a GitLab project path as one path segment", () => {
    const gitlab = atlassianProviders.find((provider) => provider.declaration.id === "gitlab")!;
    const built = providerFromDeclaration(gitlab.declaration, gitlab.tools, gitlab.hooks);
    expect(built.tools.find((tool) => tool.name === "gitlab.get_project")!.buildRequest({ id: "acme/website" }).path).toBe("/projects/acme%2Fwebsite");
  });
});
