/**
 * Signed links that let a person decide an approval without a session: the end user's hosted page,
 * and the Approve / Deny links of an approver's email. A link is its own credential, so it says
 * exactly what it allows (which approval, who, which choice, until when) under an HMAC with a key
 * derived from the master key; any instance checks it without a lookup. Each link has an id that is
 * spent when it decides (`approval_link_uses`), so a link decides once.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Clock } from "../clock.js";
import { BrokerError } from "../errors.js";
import type { MacKeyring } from "../vault/vault.js";
import type { Approval } from "./approval.js";

/** `end_user`: the end user's page (approve or deny); `approve` / `deny`: one choice of an approver's email. */
export type LinkKind = "end_user" | "approve" | "deny";

export type LinkClaims = {
  tenantId: string;
  approvalId: string;
  /** Who the link speaks for, as votes name voters: `end_user:<id>` or `member:<id>`. */
  subject: string;
  kind: LinkKind;
  /** Unix seconds. */
  expiresAt: number;
  /** Spent when the link decides; an email's Approve and Deny links share one, so the email decides once. */
  linkId: string;
};

const PREFIX = "al1";
const KINDS: readonly LinkKind[] = ["end_user", "approve", "deny"];
/** Where the hosted page lives; the request log hides what follows it. */
export const APPROVAL_PAGE_PATH = "/approve";

const base64url = (text: string) => Buffer.from(text, "utf8").toString("base64url");

function claimsOf(payload: unknown): LinkClaims | undefined {
  if (typeof payload !== "object" || payload === null) return undefined;
  const { t, a, s, k, e, l } = payload as Record<string, unknown>;
  const strings = [t, a, s, l].every((value) => typeof value === "string" && value.length > 0 && value.length <= 300);
  if (!strings || !KINDS.includes(k as LinkKind) || typeof e !== "number" || !Number.isSafeInteger(e)) return undefined;
  return { tenantId: t as string, approvalId: a as string, subject: s as string, kind: k as LinkKind, expiresAt: e, linkId: l as string };
}

const invalidLink = () => new BrokerError("not_found", "this approval link is not valid: check that it was copied whole");

type LinkDeps = {
  keys: MacKeyring;
  clock: Clock;
  publicUrl: string;
  /** How long an email's links work (never past the approval's expiry). */
  emailLinkTtlSeconds: number;
};

export function createApprovalLinks({ keys, clock, publicUrl, emailLinkTtlSeconds }: LinkDeps) {
  const macOf = (kid: string, signed: string) => {
    const key = keys.keyOf(kid);
    return key ? createHmac("sha256", key).update(signed).digest() : undefined;
  };

  function sign(claims: LinkClaims): string {
    const payload = base64url(JSON.stringify({ t: claims.tenantId, a: claims.approvalId, s: claims.subject, k: claims.kind, e: claims.expiresAt, l: claims.linkId }));
    const signed = `${PREFIX}.${keys.activeKid}.${payload}`;
    return `${signed}.${macOf(keys.activeKid, signed)!.toString("base64url")}`;
  }

  const urlOf = (claims: LinkClaims) => `${publicUrl}${APPROVAL_PAGE_PATH}/${sign(claims)}`;
  const secondsOf = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);

  return {
    /**
     * The end user's page for an approval they decide; null for any other approval. The same URL
     * every time it is asked for (the webhook, the API): its link id is the approval's.
     */
    endUserUrl(approval: Pick<Approval, "id" | "tenantId" | "endUserId" | "expiresAt" | "requirement">): string | null {
      if (approval.requirement.approvers !== "end_user" || approval.endUserId === null) return null;
      const subject = `end_user:${approval.endUserId}`;
      return urlOf({ tenantId: approval.tenantId, approvalId: approval.id, subject, kind: "end_user", expiresAt: secondsOf(approval.expiresAt), linkId: `end_user:${approval.id}` });
    },

    /** An approver's Approve and Deny links for one email; they share `linkId`, so the email decides once. */
    memberUrls(approval: Pick<Approval, "id" | "tenantId" | "expiresAt">, memberId: string, linkId: string) {
      const expiresAt = Math.min(secondsOf(approval.expiresAt), Math.floor(clock.now().getTime() / 1000) + emailLinkTtlSeconds);
      const claims = { tenantId: approval.tenantId, approvalId: approval.id, subject: `member:${memberId}`, expiresAt, linkId };
      return { approve: urlOf({ ...claims, kind: "approve" }), deny: urlOf({ ...claims, kind: "deny" }), expiresAt: new Date(expiresAt * 1000).toISOString() };
    },

    /**
     * What a link allows, when it is one the broker signed and it has not expired: 404 not_found
     * for anything else (malformed, tampered, signed under a key no longer configured), 410
     * approval_link_expired once its time has passed. Whether it was used is the page's question.
     */
    read(token: string): LinkClaims {
      const parts = token.split(".");
      if (parts.length !== 4 || parts[0] !== PREFIX) throw invalidLink();
      const [, kid, payload, mac] = parts as [string, string, string, string];
      const expected = macOf(kid, `${PREFIX}.${kid}.${payload}`);
      const given = Buffer.from(mac, "base64url");
      if (!expected || given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidLink();
      let claims: LinkClaims | undefined;
      try {
        claims = claimsOf(JSON.parse(Buffer.from(payload, "base64url").toString("utf8")));
      } catch {
        claims = undefined;
      }
      if (!claims) throw invalidLink();
      if (claims.expiresAt * 1000 <= clock.now().getTime()) {
        throw new BrokerError("approval_link_expired", "this approval link has expired", { expired_at: new Date(claims.expiresAt * 1000).toISOString() });
      }
      return claims;
    },
  };
}

export type ApprovalLinks = ReturnType<typeof createApprovalLinks>;
