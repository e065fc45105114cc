/**
 * Every error the broker returns has a stable machine code. Domains throw `BrokerError`;
 * `http/error-handler.ts` turns it into the error envelope in one place.
 */
export const ERROR_CODES = {
  unauthorized: 401,
  forbidden: 403,
  policy_denied: 403,
  environment_mismatch: 403,
  not_found: 404,
  approval_required: 409,
  approval_pending: 409,
  approval_expired: 409,
  approval_mismatch: 409,
  approval_already_used: 409,
  approval_already_decided: 409,
  approval_not_eligible: 403,
  approval_edit_forbidden: 403,
  approval_edit_refused: 403,
  approval_changed: 409,
  idempotency_key_reused: 409,
  request_in_progress: 409,
  outcome_unknown: 409,
  conflict: 409,
  period_open: 409,
  previous_period_open: 409,
  period_out_of_range: 422,
  payload_too_large: 413,
  unsupported_media_type: 415,
  invalid_request: 400,
  invalid_json: 400,
  invalid_tool_args: 422,
  unprocessable: 422,
  provider_not_configured: 422,
  connection_unusable: 422,
  credential_required: 422,
  credential_mismatch: 422,
  credential_ambiguous: 422,
  connect_session_expired: 410,
  approval_link_expired: 410,
  approval_link_used: 410,
  oauth_state_invalid: 400,
  oauth_state_expired: 400,
  oauth_denied: 400,
  oauth_exchange_failed: 400,
  webhook_url_refused: 422,
  invalid_declaration: 422,
  catalogue_limit_reached: 422,
  webhook_endpoint_limit_reached: 422,
  webhook_endpoint_disabled: 409,
  webhook_delivery_in_progress: 409,
  rate_limited: 429,
  internal_error: 500,
  upstream_error: 502,
  vault_unavailable: 503,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export class BrokerError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;
  /** Extra response headers, e.g. `Retry-After` on 429. */
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    details?: Record<string, unknown>,
    options: { status?: number; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "BrokerError";
    this.code = code;
    this.status = options.status ?? ERROR_CODES[code];
    this.details = details;
    this.headers = options.headers;
  }
}

export const notFound = (what: string) => new BrokerError("not_found", `${what} not found`);
export const unauthorized = (message: string) => new BrokerError("unauthorized", message);
