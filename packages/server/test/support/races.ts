/** Helpers for race tests: jittered concurrent starts and the one acceptable shape of a loser's answer. */
import { expect } from "vitest";
import { STACK_TRACE } from "./expect.js";
import type { TestBroker } from "./broker.js";
import type { CallResult } from "./http.js";

/** How many times each race is run; 30 reproduced the original failures 11 times out of 30. */
export const TRIES = 30;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts every action concurrently; on try `i` one of them starts a few milliseconds late, taking
 * turns, so the race is run both ways round and at several offsets.
 */
export function race<T>(i: number, actions: Array<() => Promise<T>>): Promise<T[]> {
  const late = i % actions.length;
  const delayMs = Math.floor(i / actions.length) % 4;
  return Promise.all(actions.map(async (action, index) => {
    if (index === late && delayMs > 0) await sleep(delayMs);
    return action();
  }));
}

const errorOf = (line: string) => {
  const err = (JSON.parse(line) as { err?: { type?: string; code?: string; message?: string } }).err;
  return `${err?.type} ${err?.code ?? ""} ${err?.message}`;
};

/** A success, or the error envelope with a request id and one of the allowed statuses; never a 5xx. */
export function expectRaceOutcome(result: CallResult, allowed: number[], broker?: Pick<TestBroker, "logs">) {
  const requestId = result.body?.error?.request_id as string | undefined;
  // The broker's own log line of a failure says what went wrong.
  const logged = requestId && broker ? broker.logs.filter((line) => line.includes(requestId) && line.includes('"err"')).map(errorOf).join("\n") : "";
  expect(allowed, `${result.status} ${result.text}\n${logged}`).toContain(result.status);
  expect(result.text).not.toMatch(STACK_TRACE);
  if (result.status < 400) return;
  expect(result.body?.ok, result.text).toBe(false);
  expect(typeof result.body.error.code).toBe("string");
  expect(result.body.error.message.length).toBeGreaterThan(0);
  expect(result.body.error.request_id).toBe(result.headers.get("x-request-id"));
}
