import { KeyObject, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { cipherKey, decrypt, encrypt, formatSealed, parseSealed } from "./aes-gcm.js";
import { formatMasterKey, parseMasterKeys } from "./master-keys.js";

describe("AES-256-GCM keys", () => {
  it("hold the key in a KeyObject and zero the bytes it was made from", () => {
    const bytes = randomBytes(32);
    const copy = Buffer.from(bytes);
    const key = cipherKey(bytes);

    expect(key).toBeInstanceOf(KeyObject);
    expect(key.symmetricKeySize).toBe(32);
    expect(key.export().equals(copy)).toBe(true);
    expect(bytes.equals(Buffer.alloc(32))).toBe(true);
  });

  it("open what they sealed, only under the same key and AAD", () => {
    const key = cipherKey(randomBytes(32));
    const sealed = formatSealed("dk1", "k1", encrypt(key, Buffer.from("a secret value"), "tenant:table:row:field"));
    const { parts } = parseSealed(sealed)!;

    expect(decrypt(key, parts, "tenant:table:row:field").toString()).toBe("a secret value");
    expect(() => decrypt(key, parts, "tenant:table:other-row:field")).toThrow();
    expect(() => decrypt(cipherKey(randomBytes(32)), parts, "tenant:table:row:field")).toThrow();
  });

  it("are KeyObjects in the master keyring", () => {
    const bytes = randomBytes(32);
    const ring = parseMasterKeys(`${formatMasterKey("k1", bytes)},${formatMasterKey("k0", randomBytes(32))}`);

    expect(ring.activeKid).toBe("k1");
    expect(ring.keys.get("k1")).toBeInstanceOf(KeyObject);
    expect(ring.keys.get("k1")!.export().equals(bytes)).toBe(true);
  });
});
