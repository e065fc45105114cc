import { createSecretKey, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { manualClock } from "../clock.js";
import { BrokerError } from "../errors.js";
import type { MacKeyring } from "../vault/vault.js";
import type { Approval } from "./approval.js";
import { createApprovalLinks } from "./approval-links.js";

const keyring = (activeKid: string, kids: string[]): MacKeyring => {
  const keys = new Map(kids.map((kid) => [kid, createSecretKey(randomBytes(32))]));
  return { activeKid, keyOf: (kid) => keys.get(kid) };
};

const approval = (overrides: Partial<Approval> = {}) =>
  ({
    id: "0b6f3c52-8d8e-4f0e-9d55-3f3c2f6f9e01",
    tenantId: "7d1d8a0e-2b7a-4c55-a0c1-6f0a8d3f4b12",
    endUserId: "alice",
    expiresAt: "2026-01-15T13:00:00.000Z",
    requirement: { approvers: "end_user", requesterMayApprove: true, editsAllowed: true, channels: null, remindBeforeSeconds: null },
    ...overrides,
  }) as Approval;

const tokenOf = (url: string) => new URL(url).pathname.split("/")[2]!;
const codeOf = (read: () => unknown) => {
  try {
    read();
  } catch (error) {
    return (error as BrokerError).code;
  }
  return "read";
};

describe("approval links", () => {
  const clock = manualClock();
  const keys = keyring("k1", ["k1"]);
  const links = createApprovalLinks({ keys, clock, publicUrl: "https://broker.example", emailLinkTtlSeconds: 600 });

  it("gives the end user the same link every time, reading back what it allows until the approval expires", () => {
    const url = links.endUserUrl(approval())!;
    expect(url).toBe(links.endUserUrl(approval()));
    expect(url.startsWith("https://broker.example/approve/al1.k1.")).toBe(true);
    expect(links.read(tokenOf(url))).toEqual({
      tenantId: approval().tenantId,
      approvalId: approval().id,
      subject: "end_user:alice",
      kind: "end_user",
      expiresAt: Date.parse("2026-01-15T13:00:00.000Z") / 1000,
      linkId: `end_user:${approval().id}`,
    });
    clock.set(new Date("2026-01-15T13:00:00.000Z"));
    expect(codeOf(() => links.read(tokenOf(url)))).toBe("approval_link_expired");
    clock.set(new Date("2026-01-15T12:00:00.000Z"));
  });

  it("gives no end-user link for an approval members decide, or one for no end user", () => {
    expect(links.endUserUrl(approval({ requirement: { ...approval().requirement, approvers: { count: 1, of: "admins" } } }))).toBeNull();
    expect(links.endUserUrl(approval({ endUserId: null }))).toBeNull();
  });

  it("makes an email's Approve and Deny links one link that works for the link TTL, never past the approval's expiry", () => {
    const { approve, deny, expiresAt } = links.memberUrls(approval(), "member-1", "link-1");
    expect(expiresAt).toBe("2026-01-15T12:10:00.000Z");
    expect(links.read(tokenOf(approve))).toMatchObject({ kind: "approve", subject: "member:member-1", linkId: "link-1" });
    expect(links.read(tokenOf(deny))).toMatchObject({ kind: "deny", linkId: "link-1" });
    const soon = links.memberUrls(approval({ expiresAt: "2026-01-15T12:05:00.000Z" }), "member-1", "link-2");
    expect(soon.expiresAt).toBe("2026-01-15T12:05:00.000Z");
  });

  it("refuses a link whose claims, key id or signature were changed, or that is not a link at all (404)", () => {
    const token = tokenOf(links.endUserUrl(approval())!);
    const [prefix, kid, payload, mac] = token.split(".") as [string, string, string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, s: "end_user:bob" })).toString("base64url");
    for (const bad of [`${prefix}.${kid}.${forged}.${mac}`, `${prefix}.k2.${payload}.${mac}`, `${prefix}.${kid}.${payload}.${mac.slice(0, -4)}`, `al2.${kid}.${payload}.${mac}`, "", "al1...", "not a link"]) {
      expect(codeOf(() => links.read(bad))).toBe("not_found");
    }
  });

  it("checks a link signed under an older master key while that key is configured, and refuses it once it is gone", () => {
    const old = keyring("old", ["old"]);
    const signedUnderOld = tokenOf(createApprovalLinks({ keys: old, clock, publicUrl: "https://broker.example", emailLinkTtlSeconds: 600 }).endUserUrl(approval())!);
    const rotated: MacKeyring = { activeKid: "new", keyOf: (kid) => (kid === "old" ? old.keyOf("old") : keys.keyOf("k1")) };
    expect(createApprovalLinks({ keys: rotated, clock, publicUrl: "https://broker.example", emailLinkTtlSeconds: 600 }).read(signedUnderOld).subject).toBe("end_user:alice");
    expect(codeOf(() => links.read(signedUnderOld))).toBe("not_found");
  });
});
