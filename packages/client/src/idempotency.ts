/** Idempotency keys the client generates for writes; random, so no two calls share one. */

export function newIdempotencyKey(): string {
  const webCrypto = globalThis.crypto;
  if (typeof webCrypto?.randomUUID === "function") return `tbc_${webCrypto.randomUUID()}`;
  // `randomUUID` is missing in browsers' insecure contexts; `getRandomValues` is not.
  if (typeof webCrypto?.getRandomValues === "function") {
    const bytes = webCrypto.getRandomValues(new Uint8Array(16));
    return `tbc_${Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
  }
  throw new Error("no Web Crypto (globalThis.crypto): pass an idempotency_key with each write");
}
