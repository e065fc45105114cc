/**
 * Issue 41: the `api_key` provider example of docs/catalogue.md (linked from the README) works as
 * written. The test reads the example's curl commands out of the page and sends exactly those
 * requests — method, path, credential and body — to a broker, with two substitutions a reader
 * makes too: the provider's API address becomes a fake Tasks API on loopback, and the
 * placeholders become real values. Without the key step the call dead-ends at
 * credential_required, as the page says; with it, the agent's call returns the task.
 */
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { startFakeTasks, type FakeTasks } from "./support/fake-tasks.js";
import { call, findSecret, mintBrokerToken } from "./support/http.js";

const PAGE = new URL("../../../docs/catalogue.md", import.meta.url);
const API_KEY = "tasks_key_0123456789abcdef";

type ExampleRequest = { method: string; path: string; as: "operator" | "agent"; body: string };

/** The curl commands of the page's first shell block under "Your own providers and tools", one per request. */
async function exampleRequests(): Promise<ExampleRequest[]> {
  const page = await readFile(PAGE, "utf8");
  const section = page.slice(page.indexOf("## Your own providers and tools"));
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
  // A body may span lines inside its quotes, so commands are matched on the whole block, not line by line.
  const commands = [...block.matchAll(/curl -s -X (\w+) \$BROKER(\S+)([\s\S]*?)-d (?:'([\s\S]*?)'|"((?:[^"\\]|\\.)*)")/g)];
  return commands.map(([, method, path, headers, single, double]) => ({
    method: method!,
    path: path!,
    as: headers!.includes("Bearer $JWT") ? ("agent" as const) : ("operator" as const),
    body: single ?? double!.replace(/\\"/g, '"'),
  }));
}

describeEachDatabase("the api_key provider example in docs/catalogue.md", (kind) => {
  let broker: TestBroker;
  let tenant: TestTenant;
  let tasks: FakeTasks;
  let requests: ExampleRequest[];

  beforeAll(async () => {
    requests = await exampleRequests();
    tasks = await startFakeTasks({ auth: "api_key", apiKey: API_KEY });
    broker = await startBroker(kind);
    tenant = await createTenant(broker, "Docs");
  });
  afterAll(async () => {
    await broker?.close();
    await tasks?.close();
  });

  async function send(request: ExampleRequest, values: Record<string, string>) {
    let body = request.body.replace("https://tasks.example.com/api", tasks.apiBaseUrl).replace("<your Tasks API key>", values.key ?? "");
    for (const [name, value] of Object.entries(values)) body = body.replaceAll(`$${name}`, value);
    const credential = request.as === "agent" ? { token: values.JWT } : { token: tenant.operatorToken, tenant: tenant.tenantId };
    return call(broker, request.method, request.path, { ...credential, body: JSON.parse(body) });
  }

  it("declares the provider and its tool, stores the key, and the agent's call returns the task", async () => {
    expect(requests.map((request) => `${request.method} ${request.path} as ${request.as}`)).toEqual([
      "POST /v1/providers as operator",
      "POST /v1/providers/tasks/tools as operator",
      "POST /v1/secrets as operator",
      "POST /v1/tools/execute as agent",
    ]);
    const [provider, tool, secret, execute] = requests as [ExampleRequest, ExampleRequest, ExampleRequest, ExampleRequest];
    const JWT = await mintBrokerToken(broker, tenant);
    expect((await send(provider, {})).status).toBe(201);
    expect((await send(tool, {})).status).toBe(201);

    // Before the key is stored, the call dead-ends where the reader found it.
    const early = await call(broker, "POST", "/v1/tools/execute", { token: JWT, body: { tool_name: "tasks.get_task", arguments: { id: "task-1" } } });
    expect(early.status, early.text).toBe(422);
    expect(early.body.error.code).toBe("credential_required");

    const stored = await send(secret, { key: API_KEY });
    expect(stored.status, stored.text).toBe(201);
    expect(stored.body).toMatchObject({ provider: "tasks", env: "test", name: "production", value_hint: API_KEY.slice(-4) });
    expect(stored.text).not.toContain(API_KEY);

    const result = await send(execute, { JWT, SECRET: stored.body.secret_item_id });
    expect(result.status, result.text).toBe(200);
    expect(result.body.result).toEqual({ task_id: "task-1", title: "Write the quarterly report" });
    expect(tasks.stats.requests.at(-1)).toMatchObject({ method: "GET", path: "/api/tasks/task-1" });
    expect(tasks.stats.requests.at(-1)!.headers["x-api-key"]).toBe(API_KEY);
    expect(result.text).not.toContain(API_KEY);
    expect(findSecret(broker, API_KEY)).toEqual([]);
  });
});
