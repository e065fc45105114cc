import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { CENSOR, censorChildBindings, censorLogObject, REQUEST_LOG_OPTIONS } from "./request-log.js";

function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino({ level: "info", ...REQUEST_LOG_OPTIONS }, stream);
  censorChildBindings(logger);
  return { logger, lines };
}

describe("the request log's censoring", () => {
  it("censors authorization headers, tokens at the top and in objects there, and child bindings; keeps the rest", () => {
    const { logger, lines } = capturingLogger();
    const headers = { authorization: "Bearer header-secret", accept: "application/json" };
    const tokens = { access_token: "access-secret", refresh_token: "refresh-secret", scope: "repo" };
    logger.info({ headers, tokens, access_token: "top-secret", attempt: 2 }, "refreshing");
    logger.info({ req: { id: "r1", method: "GET", url: "/cb?code=oauth-code", headers: { authorization: "Bearer req-secret" } } }, "plain req");
    logger.info({ headers: { Authorization: "Bearer capital-secret" } }, "as a client wrote it");
    logger.child({ upstream: { access_token: "child-secret" } }).info("from a child");
    logger.child({ component: "worker" }).child({ refresh_token: "grandchild-secret" }).info("from a grandchild");
    logger.info({ err: Object.assign(new TypeError("refused"), { refresh_token: "error-secret" }) }, "failed");
    const later = logger.child({ component: "rebound" });
    later.setBindings({ upstream: { refresh_token: "set-bindings-secret" } });
    later.info("rebound");
    const text = lines.map((line) => JSON.stringify(line)).join("\n");
    for (const secret of ["header-secret", "access-secret", "refresh-secret", "top-secret", "req-secret", "oauth-code", "capital-secret", "child-secret", "grandchild-secret", "error-secret", "set-bindings-secret"]) expect(text).not.toContain(secret);
    expect(lines[0]).toMatchObject({ headers: { authorization: CENSOR, accept: "application/json" }, tokens: { access_token: CENSOR, refresh_token: CENSOR, scope: "repo" }, access_token: CENSOR, attempt: 2 });
    expect(lines[1]).toMatchObject({ req: { id: "r1", method: "GET", path: "/cb" } });
    expect(lines[2]).toMatchObject({ headers: { Authorization: CENSOR } });
    expect(lines[3]).toMatchObject({ upstream: { access_token: CENSOR }, msg: "from a child" });
    expect(lines[4]).toMatchObject({ component: "worker", refresh_token: CENSOR, msg: "from a grandchild" });
    // An error that carried a token is still written as an error.
    expect(lines[5]).toMatchObject({ err: { type: "TypeError", message: "refused", refresh_token: CENSOR } });
    expect((lines[5]!.err as { stack: string }).stack).toContain("TypeError: refused");
    expect(lines[6]).toMatchObject({ upstream: { refresh_token: CENSOR }, msg: "rebound" });
    // What was logged is not changed for the code that logged it.
    expect(headers.authorization).toBe("Bearer header-secret");
    expect(tokens.access_token).toBe("access-secret");
  });

  it("copies nothing when there is nothing to censor", () => {
    const line = { req: { id: "r1" }, res: { statusCode: 200 }, responseTime: 1.5, headers: { accept: "*/*" }, list: [{ access_token: "in an array, not at the top" }] };
    expect(censorLogObject(line)).toBe(line);
  });
});
