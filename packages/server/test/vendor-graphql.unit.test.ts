/**
 * Linear (the `tracker` provider) publishes a GraphQL schema, not an OpenAPI description: every
 * tracker tool's document is validated against it (vendor/graphql/linear.graphql, rebuilt from the
 * types @linear/sdk generates from the schema by scripts/vendor-linear-schema.ts), its variables
 * against the operation's and the schema's input types, and its response names and pointers
 * against what the operation selects. One test per tool.
 */
import { readFileSync } from "node:fs";
import { buildSchema } from "graphql";
import { describe, expect, it } from "vitest";
import { checkGraphQlTool } from "../scripts/vendor-graphql/graphql-tool-check.js";
import type { ToolDeclaration } from "../src/providers/declaration-schema.js";
import { BUILT_IN_PROVIDERS } from "../src/providers/built-in.js";

const sdl = readFileSync(new URL("../vendor/graphql/linear.graphql", import.meta.url), "utf8");
const schema = buildSchema(sdl, { assumeValid: true });
const tracker = BUILT_IN_PROVIDERS.find((provider) => provider.declaration.id === "tracker")!;

describe("tracker (Linear) against Linear's GraphQL schema", () => {
  it("is said in its vendorDescription, and the vendored schema names its source", () => {
    expect(tracker.vendorDescription && "none" in tracker.vendorDescription ? tracker.vendorDescription.none : "").toMatch(/@linear\/sdk/);
    expect(sdl).toMatch(/^# x-toolbroker-source: \{"package":"@linear\/sdk","version":"[\d.]+","licence":"MIT"/m);
  });

  it.each(tracker.tools.map((tool) => [tool.name, tool] as const))("%s", (name, tool) => {
    const result = checkGraphQlTool(schema, { tool, hooks: tracker.hooks.tools?.[name], example: tracker.examples?.[name] });
    if (result.problems.length) throw new Error(`${name} (${result.operation ?? "no operation"}):\n${result.problems.map((p) => `  - ${p}`).join("\n")}`);
  });
});

describe("the GraphQL tool check", () => {
  const tool = (query: string, variables: Record<string, unknown>, properties: Record<string, unknown>, required: string[] = [], response?: ToolDeclaration["response"]): ToolDeclaration => ({
    name: "tracker.test",
    description: "test",
    arguments_schema: { type: "object", properties, required, additionalProperties: false },
    risk: "low",
    side_effect: "write",
    request: { method: "POST", path: "/graphql", body: { query, variables } },
    ...(response ? { response } : {}),
  });
  const create = "mutation Create($input: IssueCreateInput!) { issueCreate(input: $input) { success issue { id identifier } } }";

  it("passes a document, variables and response names that the schema has", () => {
    const good = tool(create, { input: { teamId: "{team}", title: "{title}", priority: "{priority}" } }, { team: { type: "string" }, title: { type: "string" }, priority: { type: "integer" } }, ["team"], {
      schema: { type: "object", properties: { data: { type: "object", properties: { issueCreate: { type: "object", properties: { issue: { type: "object" } } } } } } },
      root: "/data/issueCreate/issue",
      fields: { id: "/id", key: "/identifier" },
    });
    expect(checkGraphQlTool(schema, { tool: good }).problems).toEqual([]);
  });

  it("names an unknown field, an undeclared variable, an input field the type lacks, a disagreeing type, a required field not sent and an unselected pointer", () => {
    const bad = tool(
      "mutation Create($input: IssueCreateInput!) { issueCreate(input: $input) { success issue { id colour } } }",
      { input: { title: "{title}", priority: "{priority}", colour: "red" }, extra: "{title}" },
      { title: { type: "string" }, priority: { type: "string" } },
      [],
      { root: "/data/issueCreate/issue", fields: { key: "/identifier" } },
    );
    expect(checkGraphQlTool(schema, { tool: bad }).problems).toEqual([
      'the query is not valid against the schema: Cannot query field "colour" on type "Issue".',
      "variable $input/priority (argument priority): string is sent, the schema's type is Int",
      expect.stringMatching(/^variable \$input\/colour is not a field of the input IssueCreateInput \(it has: .*teamId/),
      "required variable $input/teamId of the input IssueCreateInput is not sent",
      "variable extra is not declared by mutation Create (it has: input)",
      "/data/issueCreate/issue/identifier: /data/issueCreate/issue/identifier is not selected by the query (it has: id, colour)",
    ]);
  });
});
