/**
 * Issue 12: a property-based fuzz of every operation in the OpenAPI description. Each operation is
 * sent requests built from its own schema, valid-looking and with one hostile part: NUL, lone
 * surrogates, 100 KB strings, RTL and emoji, wrong types, deep nesting, prototype keys, huge
 * numbers, malformed path segments and cursors, bad query parameters, bodies that are not JSON.
 * Each request goes once with the route's credential and once with a wrong one (or none).
 *
 * Every response must be below 500 (a vendor's own refusal on the tool routes excepted, see
 * UPSTREAM_OPERATIONS), carry `x-request-id`, and every error must be the envelope. A new route
 * joins by being in the description. Failures are collected over all runs and reported grouped,
 * with one reproduction each. Seeded and bounded: BROKER_FUZZ_SEED and BROKER_FUZZ_RUNS change them.
 */
import { appendFileSync } from "node:fs";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startBroker } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { Observed, operationsOf, requestsFor, send, type FuzzRequest, type FuzzResponse, type Operation } from "./support/fuzz-requests.js";
import { problemsWith, startFuzzWorld, type Credential, type FuzzWorld } from "./support/fuzz-world.js";

const SEED = Number(process.env.BROKER_FUZZ_SEED || 20_261_212);
const RUNS = Number(process.env.BROKER_FUZZ_RUNS || 250);
/** Optional file to append every failure to (one JSON line each), for triage. */
const REPORT = process.env.BROKER_FUZZ_REPORT;

async function describedOperations(): Promise<Operation[]> {
  const broker = await startBroker("sqlite");
  try {
    return operationsOf((await broker.app.inject({ method: "GET", url: "/openapi.json" })).json());
  } finally {
    await broker.close();
  }
}

// Read at collection time, so that each operation is a test of its own.
const OPERATIONS = await describedOperations();

/** A seed per operation, so adding a route does not change what the others are sent. */
const seedOf = (name: string) => [...name].reduce((hash, char) => (Math.imul(hash, 31) + char.charCodeAt(0)) | 0, SEED);

/** "body /name = …" → "body /name": what was hostile, without the value. */
const kindOf = (label: string) =>
  /^(raw body|raw query|cursor|unknown query|body replaced by|valid)/.exec(label)?.[1] ?? label.split(/ = | added as | tainted with |=/)[0]!;

type Failure = { count: number; example: string };

function codeOf(response: FuzzResponse): string {
  try {
    return JSON.parse(response.text)?.error?.code ?? "-";
  } catch {
    return "-";
  }
}

/** The broker's own account of a failed request (error message and where it was thrown), from its log. */
function loggedCause(logs: string[], response: FuzzResponse): string {
  const requestId = response.headers["x-request-id"];
  const line = requestId ? logs.find((l) => l.includes(String(requestId)) && l.includes('"err"')) : undefined;
  if (!line) return "";
  const err = JSON.parse(line).err as { message?: string; stack?: string } | undefined;
  const frame = err?.stack?.split("\n").find((f) => f.includes("/src/"))?.trim();
  return ` | log: ${err?.message ?? "?"}${frame ? ` ${frame.replace(/^.*\/src\//, "at src/")}` : ""}`;
}

function recordFailures(failures: Map<string, Failure>, logs: string[], request: FuzzRequest, credential: Credential & { wrong: boolean }, response: FuzzResponse, problems: string[]) {
  const code = codeOf(response);
  for (const problem of problems) {
    const signature = `${problem} [${response.status} ${code}] on ${kindOf(request.label)}${credential.wrong ? " (wrong credential)" : ""}`;
    const seen = failures.get(signature);
    if (seen) {
      seen.count += 1;
      continue;
    }
    const example =
      `${request.method} ${request.url.slice(0, 300)}${request.url.length > 300 ? "…" : ""} [${response.transport}] as ${credential.label}: ${request.label}` +
      ` → ${response.status} ${response.text.slice(0, 300)}${loggedCause(logs, response)}`;
    failures.set(signature, { count: 1, example });
    if (REPORT) appendFileSync(REPORT, `${JSON.stringify({ signature, example })}\n`);
  }
}

describeEachDatabase("route fuzz over the OpenAPI description", (kind) => {
  let world: FuzzWorld;
  const observed = new Observed();

  beforeAll(async () => {
    world = await startFuzzWorld(kind);
  }, 120_000);
  afterAll(() => world?.close());

  it("fuzzes every operation this broker describes", async () => {
    const described = operationsOf((await world.broker.app.inject({ method: "GET", url: "/openapi.json" })).json());
    expect(described.map((o) => o.name)).toEqual(OPERATIONS.map((o) => o.name));
    expect(OPERATIONS.length).toBeGreaterThan(40);
  });

  it.each(OPERATIONS.map((operation) => [operation.name, operation] as const))("%s", async (_name, operation) => {
    const failures = new Map<string, Failure>();
    const statuses: Record<string, number> = {};
    const target = { app: world.broker.app, url: world.broker.url };
    const property = fc.asyncProperty(
      requestsFor(operation, world.context, observed),
      world.rightCredentials(operation),
      world.wrongCredentials(operation),
      async (request, right, wrong) => {
        for (const [credential, isWrong] of [[right, false], [wrong, true]] as const) {
          let response: FuzzResponse;
          try {
            response = await send(target, request, credential.headers);
          } catch (error) {
            response = { status: 0, headers: {}, text: String(error), transport: "socket" };
          }
          const outcome = `${response.status} ${codeOf(response)}${isWrong ? " (wrong credential)" : ""}`;
          statuses[outcome] = (statuses[outcome] ?? 0) + 1;
          observed.harvest(operation, response.status, response.text);
          const problems = response.status === 0 ? ["connection failed"] : problemsWith(operation, request, response, isWrong);
          if (problems.length) recordFailures(failures, world.broker.logs, request, { ...credential, wrong: isWrong }, response, problems);
        }
      },
    );
    await fc.assert(property, { seed: seedOf(operation.name), numRuns: RUNS });
    if (REPORT) appendFileSync(REPORT, `${JSON.stringify({ operation: operation.name, kind, statuses })}\n`);
    const report = [...failures].map(([signature, { count, example }]) => `${signature} ×${count}\n      e.g. ${example}`);
    expect(report).toEqual([]);
  }, 180_000);
});
