/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): secrets are `whsec_` + base64 of
 * random bytes; a signature is `v1,` + base64(HMAC-SHA256(secret bytes, "id.timestamp.body")).
 * Several signatures are space-separated, which is how a rotated secret keeps signing for a while.
 */
import { createHmac, randomBytes } from "node:crypto";

export const SECRET_PREFIX = "whsec_";
const SECRET_BYTES = 32;
/** How much of the secret list responses show: the prefix and four characters. */
const DISPLAY_PREFIX_LENGTH = 10;

export function generateSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString("base64")}`;
}

export const displayPrefix = (secret: string) => secret.slice(0, DISPLAY_PREFIX_LENGTH);

function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  return Buffer.from(encoded, "base64");
}

export function sign(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const mac = createHmac("sha256", secretKey(secret)).update(`${messageId}.${timestampSeconds}.${body}`).digest("base64");
  return `v1,${mac}`;
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
