/** A small vendor description and declaration for testing the described sandbox itself. */
import type { BuiltInProvider } from "../../../src/providers/built-in-provider.js";

export const ACME_DESCRIPTION = {
  openapi: "3.0.3",
  info: { title: "Acme Tasks", version: "1" },
  servers: [{ url: "https://api.acme.test/tasks/v2" }],
  components: {
    securitySchemes: { key: { type: "apiKey", in: "query", name: "key" } },
    schemas: {
      Task: {
        type: "object",
        required: ["id", "title"],
        properties: {
          id: { type: "string", example: "task_1" },
          title: { type: "string" },
          done: { type: "boolean" },
          due: { type: "string", format: "date", nullable: true },
          owner: { $ref: "#/components/schemas/User" },
          subtasks: { type: "array", items: { $ref: "#/components/schemas/Task" } },
        },
      },
      User: { type: "object", properties: { id: { type: "string" }, email: { type: "string", format: "email" } } },
      NewTask: {
        type: "object",
        required: ["title"],
        properties: { title: { type: "string", minLength: 1 }, done: { type: "boolean" }, labels: { type: "array", items: { type: "string" } } },
      },
    },
    parameters: { workspace: { name: "workspace", in: "path", required: true, schema: { type: "string", pattern: "^ws_[a-z0-9]+$" } } },
  },
  paths: {
    "/workspaces/{workspace}/tasks": {
      parameters: [{ $ref: "#/components/parameters/workspace" }],
      get: {
        operationId: "listTasks",
        parameters: [
          { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 100 } },
          { name: "q", in: "query", required: true, schema: { type: "string" } },
          { name: "Acme-Version", in: "header", required: true, schema: { type: "string", enum: ["2024-01-01"] } },
        ],
        responses: {
          "200": {
            description: "OK",
            content: { "application/json": { schema: { type: "object", properties: { tasks: { type: "array", items: { $ref: "#/components/schemas/Task" } }, next: { type: "string", nullable: true } } } } },
          },
        },
      },
      post: {
        operationId: "createTask",
        requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/NewTask" } } } },
        responses: {
          "201": {
            description: "Created",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Task" }, example: { id: "task_42", title: "From the example" } } },
          },
        },
      },
    },
    "/workspaces/{workspace}/tasks/{taskId}:archive": {
      post: {
        operationId: "archiveTask",
        parameters: [{ $ref: "#/components/parameters/workspace" }, { name: "taskId", in: "path", required: true, schema: { type: "string" } }],
        requestBody: {
          content: {
            "application/x-www-form-urlencoded": {
              schema: { type: "object", properties: { reason: { type: "string" }, notify: { type: "boolean" }, metadata: { type: "object", additionalProperties: { type: "string" } } } },
            },
          },
        },
        responses: { "204": { description: "Archived" } },
      },
    },
  },
};

export const acmeProvider: Pick<BuiltInProvider, "declaration" | "tools" | "vendorDescription"> = {
  declaration: {
    id: "acme",
    display_name: "Acme Tasks",
    api_base_url: "https://api.acme.test/tasks/v2",
    auth: { type: "oauth2", authorize_url: "https://acme.test/oauth/authorize", token_url: "https://acme.test/oauth/token", client_auth: "client_secret_basic" },
  },
  tools: [],
  vendorDescription: { package: "acme-openapi", version: "1.0.0", file: "acme.json", licence: "MIT" },
};
