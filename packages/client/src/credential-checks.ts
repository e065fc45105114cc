/**
 * Control keys (`bk_test_…`, `bk_live_…`, legacy `sk_…`) must never be used where a
 * broker JWT belongs, and `ControlClient` only takes a control key. These checks run before a
 * credential is sent anywhere; their messages never repeat any part of the credential.
 */
import { CredentialRefusedError } from "./errors.js";

const CONTROL_KEY_PREFIXES = ["bk_test_", "bk_live_"] as const;

const MINT_HINT = "mint a short-lived broker JWT on your backend (ControlClient.mintToken or POST /v1/broker/token) and give the agent that";

/** Throws unless `token` looks like a broker JWT (three base64url parts, audience `broker`). */
export function assertBrokerJwt(token: unknown): asserts token is string {
  if (typeof token !== "string" || token.trim() === "") {
    throw new CredentialRefusedError("missing", "AgentClient needs a broker JWT (a non-empty string)");
  }
  if (token.startsWith("bk_")) {
    throw new CredentialRefusedError(
      "control_key",
      `AgentClient refuses a control key (bk_…): control keys are server-side only and must never reach agent containers, browser bundles or mobile apps; ${MINT_HINT}`,
    );
  }
  if (token.startsWith("sk_")) {
    throw new CredentialRefusedError("legacy_key", `AgentClient refuses a legacy sk_… key: the broker rejects it, and keys never belong in an agent; ${MINT_HINT}`);
  }
  if (/^bearer\s/i.test(token)) {
    throw new CredentialRefusedError("not_a_jwt", "AgentClient needs the broker JWT itself, without a `Bearer ` prefix");
  }
  const claims = decodeJwtClaims(token);
  if (!claims) throw new CredentialRefusedError("not_a_jwt", `AgentClient needs a broker JWT, and the token given is not a JWT; ${MINT_HINT}`);
  const audience = claims.aud;
  const audiences = Array.isArray(audience) ? audience : [audience];
  if (!audiences.includes("broker")) {
    throw new CredentialRefusedError("not_a_broker_jwt", `AgentClient needs a broker JWT (audience "broker"); the JWT given is meant for another audience; ${MINT_HINT}`);
  }
}

/** Throws unless `key` carries the `bk_test_` or `bk_live_` prefix; returns the key's env. */
export function assertControlKey(key: unknown): "test" | "live" {
  if (typeof key !== "string" || key.trim() === "") {
    throw new CredentialRefusedError("missing", "ControlClient needs a control key (bk_test_… or bk_live_…)");
  }
  if (key.startsWith("sk_")) {
    throw new CredentialRefusedError("legacy_key", "ControlClient refuses legacy sk_… keys: the broker rejects them; create a bk_test_/bk_live_ key (npx toolbroker keys create)");
  }
  const prefix = CONTROL_KEY_PREFIXES.find((candidate) => key.startsWith(candidate) && key.length > candidate.length);
  if (!prefix) {
    const hint = decodeJwtClaims(key) ? " (this looks like a JWT: give broker JWTs to AgentClient)" : "";
    throw new CredentialRefusedError("not_a_control_key", `ControlClient needs a control key with the prefix bk_test_ or bk_live_${hint}`);
  }
  return prefix === "bk_test_" ? "test" : "live";
}

/** The payload of a compact JWS, or undefined when `token` is not one. Nothing is verified. */
export function decodeJwtClaims(token: string): Record<string, unknown> | undefined {
  const parts = token.split(".");
  if (parts.length !== 3 || parts.some((part) => !/^[A-Za-z0-9_-]+$/.test(part))) return undefined;
  const header = decodeJsonPart(parts[0]!);
  const payload = decodeJsonPart(parts[1]!);
  if (!header || typeof header.alg !== "string" || header.alg === "none" || !payload) return undefined;
  return payload;
}

function decodeJsonPart(part: string): Record<string, unknown> | undefined {
  try {
    const base64 = part.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(part.length / 4) * 4, "=");
    const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
