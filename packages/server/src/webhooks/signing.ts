/**
 * Standard Webhooks signing (https://www.standardwebhooks.com) with the standard's own library:
 * secrets are `whsec_` + base64 of random bytes; a signature is `v1,` + base64(HMAC-SHA256(secret
 * bytes, "id.timestamp.body")). Several signatures are space-separated, which is how a rotated
 * secret keeps signing for a while.
 */
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

export const SECRET_PREFIX = "whsec_";
const SECRET_BYTES = 32;
/** How much of the secret list responses show: the prefix and four characters. */
const DISPLAY_PREFIX_LENGTH = 10;

/** The library verifies and signs but does not make secrets. */
export function generateSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString("base64")}`;
}

export const displayPrefix = (secret: string) => secret.slice(0, DISPLAY_PREFIX_LENGTH);

export function sign(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  return new Webhook(secret).sign(messageId, new Date(timestampSeconds * 1000), body);
}

export type SignedHeaders = { "webhook-id": string; "webhook-timestamp": string; "webhook-signature": string };

/** The three Standard Webhooks headers; one `v1,` signature per secret, newest first. */
export function signedHeaders(secrets: string[], messageId: string, at: Date, body: string): SignedHeaders {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": secrets.map((secret) => sign(secret, messageId, timestamp, body)).join(" "),
  };
}
