/**
 * A tenant's logo is an image the broker itself sends inside its pages, so it is checked as an
 * image: PNG, JPEG or WebP only (never SVG, which can carry script and external references), the
 * declared type must be what the bytes are, and it is small. Nothing else about it is trusted.
 */
import { createHash } from "node:crypto";
import { BrokerError } from "../errors.js";

export const LOGO_CONTENT_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
export type LogoContentType = (typeof LOGO_CONTENT_TYPES)[number];
export const MAX_LOGO_BYTES = 100 * 1024;

export type CheckedLogo = { base64: string; contentType: LogoContentType; sha256: string; bytes: number };

const startsWith = (bytes: Buffer, prefix: readonly number[], at = 0) => prefix.every((byte, index) => bytes[at + index] === byte);

/** What the bytes are, by their signature; undefined for anything but the three accepted formats. */
export function sniffImageType(bytes: Buffer): LogoContentType | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  // RIFF....WEBP
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  return undefined;
}

const refused = (field: string, message: string) =>
  new BrokerError("invalid_request", `logo ${field.split("/").pop()} ${message}`, { fields: [{ location: "body", field, message }] }, { status: 422 });

/** Checks an uploaded logo: canonical base64 of at most MAX_LOGO_BYTES of the declared image type. */
export function checkLogo(input: { content_type: LogoContentType; data_base64: string }): CheckedLogo {
  const bytes = Buffer.from(input.data_base64, "base64");
  // Buffer.from ignores what is not base64; a round trip that differs means the text was not canonical base64.
  if (bytes.toString("base64") !== input.data_base64) throw refused("/logo/data_base64", "is not base64 (standard alphabet, with padding)");
  if (bytes.length === 0) throw refused("/logo/data_base64", "is empty");
  if (bytes.length > MAX_LOGO_BYTES) throw refused("/logo/data_base64", `is ${bytes.length} bytes; a logo may have at most ${MAX_LOGO_BYTES} bytes`);
  const sniffed = sniffImageType(bytes);
  if (!sniffed) throw refused("/logo/data_base64", "is not a PNG, JPEG or WebP image");
  if (sniffed !== input.content_type) throw refused("/logo/content_type", `is ${input.content_type}, but the image is ${sniffed}`);
  return { base64: input.data_base64, contentType: sniffed, sha256: createHash("sha256").update(bytes).digest("hex"), bytes: bytes.length };
}
