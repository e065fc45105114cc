import pino from "pino";
import { describe, expect, it } from "vitest";
import { readableLogStream } from "./readable-log.js";
import { censorChildBindings, REQUEST_LOG_OPTIONS } from "./request-log.js";

/** A logger as the broker builds it in development, writing readable lines into an array. */
function readableLogger() {
  const written: string[] = [];
  const logger = pino({ level: "info", ...REQUEST_LOG_OPTIONS }, readableLogStream({ write: (text: string) => written.push(text) }, { colorize: false }));
  censorChildBindings(logger);
  return { logger, written, lines: () => written.join("").split("\n").filter(Boolean) };
}

describe("the readable log format", () => {
  it("writes one line per entry: time, level, message, fields as key=value, the request id last", () => {
    const { logger, written } = readableLogger();
    logger.child({ reqId: "r-1" }).warn({ code: "service_unavailable", reason: "connection refused", attempt: 2, where: { table: "approvals" } }, "the database is unavailable");
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(
      /^\[\d{2}:\d{2}:\d{2}\.\d{3}\] WARN: the database is unavailable code=service_unavailable reason="connection refused" attempt=2 where=\{"table":"approvals"\} request_id=r-1\n$/,
    );
  });

  it("keeps a message or value with line breaks on its one line", () => {
    const { logger, lines } = readableLogger();
    logger.info({ problem: "first\nsecond" }, "two\nlines");
    expect(lines()).toHaveLength(1);
    expect(lines()[0]).toContain('two\\nlines problem="first\\nsecond"');
  });

  it("says an error in one line at warn and below, and writes a bug's stack beneath its line at error", () => {
    const { logger, lines } = readableLogger();
    logger.warn({ err: new TypeError("the socket closed") }, "expected trouble");
    expect(lines()).toHaveLength(1);
    expect(lines()[0]).toMatch(/WARN: expected trouble err="TypeError: the socket closed"$/);
    logger.error({ err: new RangeError("index out of range") }, "unhandled error");
    const [, line, ...stack] = lines();
    expect(line).toMatch(/ERROR: unhandled error err="RangeError: index out of range"$/);
    expect(stack.length).toBeGreaterThan(0);
    for (const frame of stack) expect(frame).toMatch(/^ {4}at /);
  });

  it("censors what the JSON format censors: authorization headers, tokens, child bindings", () => {
    const { logger, written } = readableLogger();
    logger.info({ headers: { authorization: "Bearer header-secret" }, access_token: "top-secret" }, "refreshing");
    logger.child({ upstream: { refresh_token: "child-secret" } }).info("from a child");
    const text = written.join("");
    for (const secret of ["header-secret", "top-secret", "child-secret"]) expect(text).not.toContain(secret);
    expect(text).toContain("access_token=[redacted]");
  });
});
