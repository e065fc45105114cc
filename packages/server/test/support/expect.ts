/** Assertions on the SPEC §7 error envelope. */
import { expect } from "vitest";
import type { CallResult } from "./http.js";

/** What a leaked stack trace or source location looks like. */
export const STACK_TRACE = /\bat [^\s]+ \(|\.(ts|js):\d+:\d+|node_modules|"stack"/;

/** The response is the error envelope with this status and code, a message and a request id. */
export function expectError(result: CallResult, status: number, code: string) {
  expect({ status: result.status, code: result.body?.error?.code }, result.text).toEqual({ status, code });
  expect(result.body.ok).toBe(false);
  expect(typeof result.body.error.message).toBe("string");
  expect(result.body.error.message.length).toBeGreaterThan(0);
  expect(result.body.error.request_id).toBe(result.headers.get("x-request-id"));
  expect(result.headers.get("content-type")).toMatch(/^application\/json/);
  expect(result.text).not.toMatch(STACK_TRACE);
}
