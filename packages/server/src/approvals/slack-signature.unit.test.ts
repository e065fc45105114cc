import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { assertSignedBySlack, slackSignatureOf } from "./slack-signature.js";

const secret = "8f742231b10e8888abcd99yyyzzz85a5";
const now = new Date("2026-11-29T12:00:00Z");
const ts = String(now.getTime() / 1000);
const body = "payload=%7B%22type%22%3A%22block_actions%22%7D";
const signed = (overrides: Partial<{ timestamp: string | undefined; signature: string | undefined; rawBody: string }> = {}) => ({
  timestamp: ts,
  signature: slackSignatureOf(secret, ts, body),
  rawBody: body,
  ...overrides,
});
const refusal = (request: ReturnType<typeof signed>, at = now) => {
  try {
    assertSignedBySlack(secret, request, at);
    return undefined;
  } catch (error) {
    return error as { code: string; status: number; message: string };
  }
};

describe("Slack request signing", () => {
  it("computes v0= hex HMAC-SHA256 of v0:{timestamp}:{body}, as Slack documents", () => {
    const expected = createHmac("sha256", secret).update(`v0:${ts}:${body}`).digest("hex");
    expect(slackSignatureOf(secret, ts, body)).toBe(`v0=${expected}`);
  });

  it("accepts a request signed with the secret within five minutes either way", () => {
    expect(refusal(signed())).toBeUndefined();
    expect(refusal(signed(), new Date(now.getTime() + 300_000))).toBeUndefined();
    expect(refusal(signed(), new Date(now.getTime() - 300_000))).toBeUndefined();
  });

  it.each([
    ["no signature", { signature: undefined }],
    ["no timestamp", { timestamp: undefined }],
    ["a timestamp that is not a number", { timestamp: "12e3" }],
    ["another secret", { signature: slackSignatureOf("another-secret", ts, body) }],
    ["a changed body", { rawBody: `${body}x` }],
    ["a signature for another timestamp", { signature: slackSignatureOf(secret, String(Number(ts) - 1), body) }],
    ["a truncated signature", { signature: slackSignatureOf(secret, ts, body).slice(0, 20) }],
    ["a v1 signature", { signature: slackSignatureOf(secret, ts, body).replace("v0=", "v1=") }],
  ])("refuses %s with 401", (_name, overrides) => {
    expect(refusal(signed(overrides))).toMatchObject({ code: "unauthorized", status: 401 });
  });

  it("refuses a correctly signed request more than five minutes old (or ahead)", () => {
    expect(refusal(signed(), new Date(now.getTime() + 301_000))?.message).toMatch(/five minutes/);
    expect(refusal(signed(), new Date(now.getTime() - 301_000))?.message).toMatch(/five minutes/);
  });
});
