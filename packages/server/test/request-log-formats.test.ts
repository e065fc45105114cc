/**
 * Issue 41, item 6: the logs keep the README's promise. In development's readable format
 * (BROKER_LOG_FORMAT=pretty) every request is exactly one line (method, path with link tokens
 * masked, status, duration, request id), errors included; in JSON (production's format) one JSON
 * object per request. An upstream's expected answer (a 404 for a repository that does not exist)
 * is said on the request's line, never with a stack trace.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STACK_TRACE } from "./support/expect.js";
import { call } from "./support/http.js";
import { connect, execute, startToolWorld, type ToolWorld } from "./support/tool-execution.js";

const ROUNDS = 5;
const CONNECT_TOKEN = "cs_0123456789abcdefghijklmnopqrstuv";
const APPROVAL_TOKEN = "approval-link-secret-0123456789";

/** One of each kind of answer a new user meets: successes, refusals, unknown routes, an upstream's 404. */
async function requestsOfEveryKind(world: ToolWorld, scm: string): Promise<{ count: number; requestIds: string[] }> {
  const { broker, jwt } = world;
  const answers = [
    await call(broker, "GET", "/health"),
    await call(broker, "GET", "/v1/tools?provider=scm", { token: jwt }),
    await call(broker, "GET", "/v1/tools", { token: "bk_test_not-a-key" }),
    await call(broker, "GET", "/no/such/route"),
    await execute(broker, jwt, { tool_name: "scm.get_authenticated_user", connected_account_id: scm }),
    await execute(broker, jwt, { tool_name: "scm.get_repository", arguments: { owner: "octocat", repo: "no-such-repo" }, connected_account_id: scm }),
    await call(broker, "POST", "/v1/tools/execute", { token: jwt, body: { tool_name: 7 } }),
    await call(broker, "GET", `/connect/${CONNECT_TOKEN}`),
    await call(broker, "GET", `/approve/${APPROVAL_TOKEN}`),
  ];
  expect(answers.map((answer) => answer.status)).toEqual([200, 200, 401, 404, 200, 502, 422, 404, 404]);
  return { count: answers.length, requestIds: answers.map((answer) => answer.headers.get("x-request-id")!) };
}

/** The request lines are written when the response has finished, which may be just after the client read it. */
async function linesAfter(world: ToolWorld, before: number, expected: number): Promise<string[]> {
  const deadline = Date.now() + 5000;
  while (world.broker.logs.length - before < expected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  // A moment longer: a line too many must show up too.
  await new Promise((resolve) => setTimeout(resolve, 100));
  return world.broker.logs.slice(before);
}

describe("the readable log format (BROKER_LOG_FORMAT=pretty, development's default)", () => {
  let world: ToolWorld;
  let scm: string;
  let startupLines: string[];

  beforeAll(async () => {
    world = await startToolWorld("sqlite", { env: { BROKER_LOG_FORMAT: "pretty" } });
    startupLines = [...world.broker.logs];
    scm = await connect(world, "scm");
  });
  afterAll(() => world?.close());

  it("starts with a few lines, each readable rather than JSON", () => {
    expect(startupLines.length).toBeGreaterThan(0);
    expect(startupLines.length).toBeLessThanOrEqual(5);
    for (const line of startupLines) expect(() => JSON.parse(line)).toThrow();
    expect(startupLines.some((line) => /INFO: Server listening at http:\/\/127\.0\.0\.1:\d+/.test(line))).toBe(true);
  });

  it(`writes exactly one line per request, errors included (${ROUNDS} rounds of every kind)`, async () => {
    const before = world.broker.logs.length;
    let requests = 0;
    const requestIds: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const made = await requestsOfEveryKind(world, scm);
      requests += made.count;
      requestIds.push(...made.requestIds);
    }
    const lines = await linesAfter(world, before, requests);
    expect(lines).toHaveLength(requests);
    // Each line names its own request, once.
    for (const id of requestIds) expect(lines.filter((line) => line.includes(`request_id=${id}`))).toHaveLength(1);
  });

  it("shows method, path, status, duration and request id on the line, and the error code of an error answer", async () => {
    const before = world.broker.logs.length;
    const { requestIds } = await requestsOfEveryKind(world, scm);
    const lines = await linesAfter(world, before, requestIds.length);
    const time = String.raw`^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: `;
    const id = (index: number) => requestIds[index]!;
    expect(lines[0]).toMatch(new RegExp(`${time}GET /health 200 \\d+\\.\\d ms request_id=${id(0)}$`));
    expect(lines[1]).toMatch(new RegExp(`${time}GET /v1/tools 200 \\d+\\.\\d ms request_id=${id(1)}$`));
    expect(lines[2]).toMatch(new RegExp(`${time}GET /v1/tools 401 \\d+\\.\\d ms error_code=unauthorized request_id=${id(2)}$`));
    expect(lines[3]).toMatch(new RegExp(`${time}GET /no/such/route 404 \\d+\\.\\d ms error_code=not_found request_id=${id(3)}$`));
    expect(lines[5]).toMatch(new RegExp(`${time}POST /v1/tools/execute 502 \\d+\\.\\d ms error_code=upstream_error upstream_status=404 request_id=${id(5)}$`));
    expect(lines[6]).toMatch(new RegExp(`${time}POST /v1/tools/execute 422 \\d+\\.\\d ms error_code=invalid_request request_id=${id(6)}$`));
  });

  it("masks link tokens and writes no query string, no credential and no stack", () => {
    const text = world.broker.logs.join("\n");
    expect(text).toContain("GET /connect/cs_… 404");
    expect(text).toContain("GET /approve/… 404");
    expect(text).not.toContain(CONNECT_TOKEN.slice(3));
    expect(text).not.toContain(APPROVAL_TOKEN);
    expect(text).not.toContain("provider=scm");
    expect(text).not.toContain(world.jwt);
    expect(text).not.toMatch(STACK_TRACE);
  });
});

describe("the JSON log format (production's)", () => {
  let world: ToolWorld;
  let scm: string;

  beforeAll(async () => {
    world = await startToolWorld("sqlite", { env: { BROKER_LOG_FORMAT: "json" } });
    scm = await connect(world, "scm");
  });
  afterAll(() => world?.close());

  it("writes one JSON object per request; an upstream's 404 is on the request's line, without a stack", async () => {
    const before = world.broker.logs.length;
    const { count, requestIds } = await requestsOfEveryKind(world, scm);
    const lines = await linesAfter(world, before, count);
    expect(lines).toHaveLength(count);
    const entries = lines.map((line) => JSON.parse(line) as Record<string, any>);
    expect(entries.map((entry) => entry.reqId)).toEqual(requestIds);
    expect(entries[5]).toMatchObject({ level: 30, msg: "request completed", req: { method: "POST", path: "/v1/tools/execute" }, res: { statusCode: 502 }, error_code: "upstream_error", upstream_status: 404 });
    expect(entries[1]).not.toHaveProperty("error_code");
    expect(lines.join("\n")).not.toMatch(STACK_TRACE);
  });

  it("still warns, in one line and without a stack, when an upstream fails on its side", async () => {
    world.fakes.github.failNext(1, { status: 503, body: { message: "Server Error" } });
    const before = world.broker.logs.length;
    const failed = await execute(world.broker, world.jwt, { tool_name: "scm.get_authenticated_user", connected_account_id: scm });
    expect(failed.status).toBe(502);
    const entries = (await linesAfter(world, before, 2)).map((line) => JSON.parse(line) as Record<string, any>);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ level: 40, code: "upstream_error", status: 502, upstream_status: 503, msg: expect.stringContaining("answered 503") });
    expect(entries[0]).not.toHaveProperty("err");
    expect(entries[1]).toMatchObject({ msg: "request completed", error_code: "upstream_error", upstream_status: 503 });
  });
});
