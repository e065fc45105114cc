/**
 * Control keys look like `bk_test_<32 base62><6 base62 checksum>`. The checksum (CRC-32 of the
 * rest) lets the broker and secret scanners reject a mistyped or made-up key without a lookup.
 */
import { hash, randomBytes } from "node:crypto";
import { crc32 } from "node:zlib";
import type { TestOrLive } from "../ids.js";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const SECRET_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = /^bk_(test|live)_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;

function base62(bytes: Buffer, length: number): string {
  let out = "";
  for (const byte of bytes) {
    // Rejection sampling keeps every character equally likely (248 = 4 × 62).
    if (byte >= 248) continue;
    out += ALPHABET[byte % 62];
    if (out.length === length) return out;
  }
  return out + base62(randomBytes(length), length - out.length);
}

function checksum(body: string): string {
  let value = crc32(body);
  let out = "";
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

export function generateControlKey(env: TestOrLive): string {
  const body = `bk_${env}_${base62(randomBytes(48), SECRET_LENGTH)}`;
  return body + checksum(body);
}

export type ParsedControlKey = { env: TestOrLive; hash: string; displayPrefix: string };

/** Returns undefined for anything that is not a well-formed key with a valid checksum. */
export function parseControlKey(key: string): ParsedControlKey | undefined {
  const match = KEY_PATTERN.exec(key);
  if (!match) return undefined;
  const body = key.slice(0, key.length - CHECKSUM_LENGTH);
  if (checksum(body) !== match[3]) return undefined;
  return { env: match[1] as TestOrLive, hash: hashControlKey(key), displayPrefix: key.slice(0, `bk_${match[1]}_`.length + 4) };
}

export const hashControlKey = (key: string) => hash("sha256", key, "hex");
