/**
 * Errors the client throws. Every error the broker answers with becomes a `BrokerError` carrying
 * the envelope's stable `code`; the codes an agent reacts to get their own subclass. No error the
 * client builds ever contains a credential: messages come from the broker or from this file.
 */

/** Marks the client's errors so the type guards work across duplicate copies of the package. */
const BRAND = Symbol.for("@toolbroker/client.error");
const brand = (error: Error) => Object.defineProperty(error, BRAND, { value: true, enumerable: false });

import type { ApprovalNote } from "./types.js";

export type BrokerErrorInit = {
  code: string;
  status: number;
  message: string;
  details?: Record<string, unknown> | undefined;
  requestId?: string | undefined;
};

/** An error answered by the broker (the error envelope), or an answer the client could not read. */
export class BrokerError extends Error {
  /** Stable machine code, e.g. `approval_required`, `rate_limited`, `unexpected_response`. */
  readonly code: string;
  /** HTTP status of the answer. */
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;
  /** The broker's request id (envelope `request_id` or `x-request-id`), for support and logs. */
  readonly requestId: string | undefined;
  /** For a call that ran under an approval and failed: the approval, and whether a person edited the call (`details.approval`). */
  readonly approval: ApprovalNote | undefined;

  constructor(init: BrokerErrorInit) {
    super(init.message);
    brand(this);
    this.name = "BrokerError";
    this.code = init.code;
    this.status = init.status;
    this.details = init.details;
    this.requestId = init.requestId;
    this.approval = approvalNoteOf(init.details?.approval);
  }
}

function approvalNoteOf(value: unknown): ApprovalNote | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const note = value as Partial<ApprovalNote>;
  return typeof note.approval_id === "string" && typeof note.edited === "boolean" && Array.isArray(note.changes) ? (note as ApprovalNote) : undefined;
}

/** 409 `approval_required`: a human must decide; resume with `continue(invocationId)`. */
export class ApprovalRequiredError extends BrokerError {
  readonly approvalId: string;
  readonly invocationId: string;
  /** When the pending approval lapses (ISO 8601), if the broker said. */
  readonly expiresAt: string | undefined;

  constructor(init: BrokerErrorInit) {
    super(init);
    this.name = "ApprovalRequiredError";
    this.approvalId = stringDetail(init.details, "approval_id") ?? "";
    this.invocationId = stringDetail(init.details, "invocation_id") ?? "";
    this.expiresAt = stringDetail(init.details, "expires_at");
  }
}

/** 429 `rate_limited`. */
export class RateLimitedError extends BrokerError {
  /** Seconds to wait before retrying (`Retry-After`), if the broker said. */
  readonly retryAfter: number | undefined;

  constructor(init: BrokerErrorInit & { retryAfter?: number | undefined }) {
    super(init);
    this.name = "RateLimitedError";
    const fromDetails = init.details?.retry_after_seconds;
    this.retryAfter = init.retryAfter ?? (typeof fromDetails === "number" ? fromDetails : undefined);
  }
}

/** 403 `policy_denied`: the tenant's policy (or an operator's denial) refuses the call. */
export class PolicyDeniedError extends BrokerError {
  /** The policy rule that denied, when a rule did. */
  readonly ruleId: string | undefined;

  constructor(init: BrokerErrorInit) {
    super(init);
    this.name = "PolicyDeniedError";
    this.ruleId = stringDetail(init.details, "rule_id");
  }
}

export type FieldIssue = { location?: string; field: string; message: string };

/** 422 `invalid_tool_args`: the arguments do not match the tool's JSON Schema. */
export class InvalidToolArgsError extends BrokerError {
  readonly fields: FieldIssue[];

  constructor(init: BrokerErrorInit) {
    super(init);
    this.name = "InvalidToolArgsError";
    const fields = init.details?.fields;
    this.fields = Array.isArray(fields) ? (fields as FieldIssue[]) : [];
  }
}

/**
 * 413 `payload_too_large`: the request body is over the broker's limit. Also thrown, without an
 * answer from the broker, when a body over the broker's 1 MiB limit lost its connection while
 * being sent: the broker reads a few MB past its limit and then closes, and such a request can
 * never succeed, so it is not retried either.
 */
export class PayloadTooLargeError extends BrokerError {
  /** The limit in bytes, when known (`details.limit_bytes`). */
  readonly limitBytes: number | undefined;

  constructor(init: BrokerErrorInit) {
    super(init);
    this.name = "PayloadTooLargeError";
    const limit = init.details?.limit_bytes;
    this.limitBytes = typeof limit === "number" ? limit : undefined;
  }
}

/** The broker could not be reached (after the client's bounded retries). */
export class NetworkError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    brand(this);
    this.name = "NetworkError";
  }
}

export type CredentialProblem = "control_key" | "legacy_key" | "not_a_jwt" | "not_a_broker_jwt" | "not_a_control_key" | "missing";

/** A credential was refused by the client before it was sent anywhere. */
export class CredentialRefusedError extends Error {
  readonly reason: CredentialProblem;
  constructor(reason: CredentialProblem, message: string) {
    super(message);
    brand(this);
    this.name = "CredentialRefusedError";
    this.reason = reason;
  }
}

/** `ControlClient` was constructed where its key would be exposed (a browser, a mobile app). */
export class UnsafeEnvironmentError extends Error {
  constructor(message: string) {
    super(message);
    brand(this);
    this.name = "UnsafeEnvironmentError";
  }
}

/** `executeAndWait` gave up waiting for the approval decision. */
export class ApprovalTimeoutError extends Error {
  readonly approvalId: string;
  readonly invocationId: string;
  constructor(approvalId: string, invocationId: string, waitedMs: number) {
    super(`no decision on approval ${approvalId} after ${Math.round(waitedMs / 1000)}s; continue invocation ${invocationId} later`);
    brand(this);
    this.name = "ApprovalTimeoutError";
    this.approvalId = approvalId;
    this.invocationId = invocationId;
  }
}

function stringDetail(details: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = details?.[key];
  return typeof value === "string" ? value : undefined;
}

const SUBCLASSES: Record<string, new (init: BrokerErrorInit) => BrokerError> = {
  approval_required: ApprovalRequiredError,
  rate_limited: RateLimitedError,
  policy_denied: PolicyDeniedError,
  invalid_tool_args: InvalidToolArgsError,
  payload_too_large: PayloadTooLargeError,
};

/** The typed error for an envelope's code. */
export function brokerErrorFor(init: BrokerErrorInit & { retryAfter?: number | undefined }): BrokerError {
  if (init.code === "rate_limited") return new RateLimitedError(init);
  const Subclass = SUBCLASSES[init.code];
  return Subclass ? new Subclass(init) : new BrokerError(init);
}

const branded = (value: unknown): boolean =>
  typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;

/** True for any error the broker answered with; with `code`, only for that code. */
export function isBrokerError(value: unknown, code?: string): value is BrokerError {
  return branded(value) && typeof (value as BrokerError).status === "number" && typeof (value as BrokerError).code === "string" && (code === undefined || (value as BrokerError).code === code);
}

export const isApprovalRequired = (value: unknown): value is ApprovalRequiredError => isBrokerError(value, "approval_required");
export const isRateLimited = (value: unknown): value is RateLimitedError => isBrokerError(value, "rate_limited");
export const isPolicyDenied = (value: unknown): value is PolicyDeniedError => isBrokerError(value, "policy_denied");
export const isInvalidToolArgs = (value: unknown): value is InvalidToolArgsError => isBrokerError(value, "invalid_tool_args");
export const isPayloadTooLarge = (value: unknown): value is PayloadTooLargeError => isBrokerError(value, "payload_too_large");
