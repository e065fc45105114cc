import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cipherKey, type CipherKey } from "./aes-gcm.js";

/** Key-encryption keys from `BROKER_MASTER_KEYS`; the first one wraps new data keys. */
export type MasterKeyring = { activeKid: string; keys: ReadonlyMap<string, CipherKey> };

export class MasterKeyError extends Error {}

export function parseMasterKeys(spec: string): MasterKeyring {
  const keys = new Map<string, CipherKey>();
  let activeKid: string | undefined;
  for (const entry of spec.split(",").map((s) => s.trim()).filter(Boolean)) {
    const separator = entry.indexOf(":");
    const kid = entry.slice(0, separator);
    if (separator <= 0 || !/^[A-Za-z0-9_-]{1,64}$/.test(kid)) {
      throw new MasterKeyError("BROKER_MASTER_KEYS entries must look like kid:base64 (kid of letters, digits, - or _)");
    }
    const key = Buffer.from(entry.slice(separator + 1), "base64");
    if (key.length !== 32) throw new MasterKeyError(`BROKER_MASTER_KEYS entry "${kid}" must decode to 32 bytes`);
    if (keys.has(kid)) throw new MasterKeyError(`BROKER_MASTER_KEYS names "${kid}" twice`);
    keys.set(kid, cipherKey(key));
    activeKid ??= kid;
  }
  if (!activeKid) throw new MasterKeyError("BROKER_MASTER_KEYS is empty");
  return { activeKid, keys };
}

export const formatMasterKey = (kid: string, key: Buffer) => `${kid}:${key.toString("base64")}`;

/**
 * Outside production the broker keeps its own master key in the data dir so a first start needs
 * no configuration. The file is created with mode 0600.
 */
export function loadOrCreateDevelopmentMasterKeys(dataDir: string): string {
  const file = join(dataDir, "master-keys");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const spec = formatMasterKey(`dev-${randomBytes(4).toString("hex")}`, randomBytes(32));
  writeFileSync(file, `${spec}\n`, { mode: 0o600 });
  return spec;
}
