import { BrokerError } from "../errors.js";
import { findUnstorableText } from "./storable-text.js";

/** Opaque cursors: base64url JSON, so clients cannot build or depend on their contents. */
export const encodeCursor = (value: Record<string, string | number>) => Buffer.from(JSON.stringify(value)).toString("base64url");

export const invalidCursor = () =>
  new BrokerError("invalid_request", "the cursor is not one this API returned", { fields: [{ location: "querystring", field: "/cursor", message: "is invalid" }] });

const isCursorValue = (value: unknown) => typeof value === "string" || (typeof value === "number" && Number.isFinite(value));

/**
 * Checks that the keys are present and hold strings or numbers that the database can compare
 * with (no NUL, no lone surrogate: the cursor's values go into a query); callers check finer types.
 */
export function decodeCursor<T extends Record<string, string | number>>(cursor: string, keys: (keyof T)[]): T {
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as T;
    if (value && typeof value === "object" && keys.every((k) => k in value && isCursorValue(value[k])) && findUnstorableText(value).length === 0) {
      return value;
    }
  } catch {
    // fall through
  }
  throw invalidCursor();
}
