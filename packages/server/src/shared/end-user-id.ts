/**
 * An end user is one of a customer's own users, named by the customer's own id: 1–255
 * characters, no control characters, opaque to the broker. "." and ".." are refused: URL clients
 * rewrite them as path segments, so `DELETE /v1/end-users/{id}` could never reach them.
 */
export const END_USER_ID_PATTERN = "^(?!\\.{1,2}$)[^\\u0000-\\u001F\\u007F]{1,255}$";

const endUserIdPattern = new RegExp(END_USER_ID_PATTERN, "u");

export const isEndUserId = (value: unknown): value is string => typeof value === "string" && endUserIdPattern.test(value);
