import { describe, expect, it } from "vitest";
import { failureText, MAX_ERROR_LENGTH, RETRY_DELAYS_MS, retryAt } from "./approval-delivery-retry.js";

describe("the approval delivery retry schedule", () => {
  const now = new Date("2026-01-15T12:00:00.000Z");
  const delayAfter = (attempts: number, random: number) => retryAt(now, attempts, () => random).getTime() - now.getTime();

  it("backs off 10 s, 1 min, 5 min, 15 min, 30 min, then hourly", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((attempts) => delayAfter(attempts, 0.5))).toEqual([10_000, 60_000, 300_000, 900_000, 1_800_000, 3_600_000, 3_600_000, 3_600_000]);
  });

  it("spreads each delay by at most 10% either way", () => {
    expect(delayAfter(1, 0)).toBe(RETRY_DELAYS_MS[0] * 0.9);
    expect(delayAfter(1, 1)).toBe(RETRY_DELAYS_MS[0] * 1.1);
  });
});

describe("a channel failure as last_error shows it", () => {
  it("drops credentials a message echoes: URL passwords, bearer tokens, Slack tokens, key=value secrets", () => {
    const text = failureText(new Error("smtp://mailer:hunter2@127.0.0.1:25 said no; Authorization: Bearer abc.def; xoxb-123-456-secret; password=pa55 api_key: k3y"));
    for (const secret of ["hunter2", "abc.def", "xoxb-123-456-secret", "pa55", "k3y"]) expect(text).not.toContain(secret);
    expect(text).toContain("smtp://[redacted]@127.0.0.1:25 said no");
  });

  it("keeps one line, cut short", () => {
    const text = failureText(new Error(`first\nsecond ${"x".repeat(1000)}`));
    expect(text.startsWith("first second x")).toBe(true);
    expect(text).toHaveLength(MAX_ERROR_LENGTH);
  });

  it("words what is not an Error", () => {
    expect(failureText("refused")).toBe("refused");
    expect(failureText({ secret: "s" })).toBe("the channel failed");
  });
});
