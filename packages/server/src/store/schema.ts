import type { Sealed } from "../shared/sealed.js";

/**
 * Row types of every table. Timestamps are ISO-8601 UTC strings in both engines so that
 * ordering and comparison behave the same on SQLite and PostgreSQL; JSON is stored as text.
 */
export interface TenantsTable {
  id: string;
  name: string;
  plan_id: string;
  created_at: string;
}

export interface TenantMembersTable {
  id: string;
  tenant_id: string;
  issuer: string;
  subject: string;
  role: "admin" | "viewer";
  created_at: string;
  email: string | null;
  display_name: string | null;
  /** "<team id>:<user id>": who presses a Slack button as this member. */
  slack_user_id: string | null;
  /** JSON array of group names that policy rules' approvers may name. */
  groups: string | null;
}

export interface AgentAppsTable {
  id: string;
  tenant_id: string;
  name: string;
  status: "active" | "disabled";
  created_at: string;
  disabled_at: string | null;
  created_by_member_id: string | null;
}

export interface ControlKeysTable {
  id: string;
  tenant_id: string;
  env: "test" | "live";
  name: string;
  key_hash: string;
  display_prefix: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface SigningKeysTable {
  kid: string;
  algorithm: string;
  public_jwk: string;
  private_key_sealed: Sealed;
  status: "active" | "retired";
  created_at: string;
}

export interface AuditEventsTable {
  id: string;
  tenant_id: string;
  seq: number;
  occurred_at: string;
  actor_type: string;
  actor_id: string;
  action: string;
  target_type: string | null;
  target_id: string | null;
  outcome: string;
  agent_app_id: string | null;
  tool_name: string | null;
  data: string;
  prev_hash: string;
  hash: string;
  /** Copied from the hashed data for filtering; not part of the chain. */
  end_user_id: string | null;
}

export interface TenantDataKeysTable {
  id: string;
  tenant_id: string;
  master_kid: string;
  wrapped_key: Sealed;
  created_at: string;
}

/** The durable outbox: written in the transaction of the change that caused the event. */
export interface EventsTable {
  id: string;
  tenant_id: string;
  type: string;
  occurred_at: string;
  /** JSON text of the whole payload: {"type", "timestamp", "data"}. */
  payload: string;
  /** Set once the webhooks fan-out has created this event's deliveries. */
  dispatched_at: string | null;
}

/** One row per execution that reached the upstream: the metering source of truth. */
export interface UsageEventsTable {
  id: string;
  tenant_id: string;
  env: "test" | "live";
  agent_app_id: string;
  tool_name: string;
  invocation_id: string;
  /** Calendar month in UTC, `YYYY-MM`. */
  period: string;
  occurred_at: string;
  end_user_id: string | null;
}

export interface ConnectionsTable {
  id: string;
  tenant_id: string;
  env: "test" | "live";
  provider: string;
  status: "active" | "expired" | "revoked";
  owner_issuer: string;
  owner_subject: string;
  display_name: string;
  upstream_account_id: string;
  /** Sealed JSON {access_token, refresh_token, expires_at, scopes}; null once revoked. */
  credential_sealed: Sealed | null;
  created_at: string;
  updated_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  upstream_revocation: "revoked" | "failed" | "unsupported" | null;
  /** The customer's end user who owns this connection; null for a shared (operator-connected) one. */
  end_user_id: string | null;
  label: string | null;
  /** The tenant's own OAuth app that issued the tokens (refreshes use the same one); null for the broker-wide client. */
  oauth_app_id: string | null;
  /** Origins of the token endpoint and API base URL the tokens were issued for; null until bound (rows from before 0014). */
  token_origin: string | null;
  api_origin: string | null;
  /** Why an expired connection must be reconnected: origin_changed, refresh_interrupted, refresh_refused; null otherwise or unknown. */
  reconnect_reason: "origin_changed" | "refresh_interrupted" | "refresh_refused" | null;
  /** Set before a refresh request leaves, cleared when its answer is stored: a crash in between leaves it behind. */
  refresh_started_at: string | null;
  /** JSON {name: {value, display?}} of the provider's connection values (0015); null when it has none. */
  connection_values: string | null;
}

export interface OAuthStatesTable {
  /** sha256 of the state value: a leaked table cannot be replayed. */
  state_hash: string;
  tenant_id: string;
  owner_issuer: string;
  owner_subject: string;
  env: "test" | "live";
  provider: string;
  scopes: string;
  redirect_after: string | null;
  code_verifier_sealed: Sealed;
  created_at: string;
  expires_at: string;
  consumed_at: string | null;
  end_user_id: string | null;
  label: string | null;
  connect_session_id: string | null;
  /** The tenant's own OAuth app the flow runs with; null for the broker-wide client. */
  oauth_app_id: string | null;
  /** Origins of the token endpoint and API the flow started with: the callback exchanges the code only there. */
  token_origin: string | null;
  api_origin: string | null;
  /** JSON {name: {value}} of the connect_input values given when the flow started (0015); null when none. */
  connection_values: string | null;
}

export interface OAuthAppsTable {
  id: string;
  tenant_id: string;
  env: "test" | "live";
  provider: string;
  client_id: string;
  client_secret_sealed: Sealed;
  /** The secret's last four characters, to recognise it by (null for a secret too short to show any): the secret itself never leaves. */
  client_secret_hint: string | null;
  /** One `current` app per tenant, env and provider; replaced and removed ones still serve their connections. */
  status: "current" | "replaced" | "removed";
  created_at: string;
  retired_at: string | null;
}

/** `env`: the env the declaration serves, or `both`. `declaration` is JSON, checked before it is written. */
export interface CatalogueProvidersTable {
  id: string;
  tenant_id: string;
  provider_id: string;
  env: "test" | "live" | "both";
  declaration: string;
  created_at: string;
  updated_at: string;
}

export interface CatalogueToolsTable {
  id: string;
  tenant_id: string;
  provider_id: string;
  name: string;
  env: "test" | "live" | "both";
  /** `declared` by hand or imported from an `openapi` document. */
  source: "declared" | "openapi";
  declaration: string;
  created_at: string;
  updated_at: string;
}

export interface SecretItemsTable {
  id: string;
  tenant_id: string;
  provider: string;
  env: "test" | "live";
  name: string;
  value_sealed: Sealed;
  created_at: string;
  last_used_at: string | null;
  end_user_id: string | null;
  label: string | null;
  /** Origin of the API base URL the key was stored for; null until bound (rows from before 0014). */
  api_origin: string | null;
  /** origin_changed once the provider's API moved: the key must be stored again. */
  reconnect_reason: "origin_changed" | null;
  /** JSON {name: {value}} of the provider's connect_input values given with the key (0015); null when none. */
  connection_values: string | null;
  /** The value's last four characters when it has at least 16 (migration 0019); null otherwise and for older rows. */
  value_hint: string | null;
}

/** A closed billing period: its frozen invoice and the one-time plan-match consumption. */
export interface BillingPeriodsTable {
  tenant_id: string;
  /** `YYYY-MM`, UTC. */
  period: string;
  plan_id: string;
  catalogue_version: string;
  executions: number;
  /** Invoice total, integer minor units of `currency`. */
  total: number;
  currency: string;
  /** The plan finalizing switched the tenant to for the next period; null when none matched better. */
  switched_to_plan_id: string | null;
  /** JSON text of the finalize result, returned verbatim when the period is finalized again. */
  result: string;
  finalized_at: string;
  finalized_by: string;
}

/** Which usage events the broker has reported to the payment processor (test ledger or real). */
export interface MeteringReportsTable {
  /** A `usage_events` id, or the id of an invocation metered on its own row. */
  usage_event_id: string;
  tenant_id: string;
  period: string;
  mode: string;
  reported_at: string;
  /** When the execution occurred; null for a report whose execution was gone when migration 0012 added it (optional in inserts). */
  occurred_at?: string | null;
}

/** The test-mode payment processor: meter events, at most one per idempotency key. */
export interface MeteringLedgerTable {
  id: string;
  idempotency_key: string;
  tenant_id: string;
  meter: string;
  env: string;
  period: string;
  quantity: number;
  occurred_at: string;
  recorded_at: string;
}

/** A tenant's webhook endpoint; the signing secret is sealed by the vault, never stored plain. */
export interface WebhookEndpointsTable {
  id: string;
  tenant_id: string;
  url: string;
  description: string;
  /** JSON array of event kinds, or null for every kind. */
  event_types: string | null;
  status: "enabled" | "disabled";
  disabled_reason: "operator" | "endpoint_gone" | "failing" | null;
  disabled_message: string | null;
  disabled_at: string | null;
  secret_sealed: Sealed;
  secret_prefix: string;
  /** The secret before the last rotation; it still signs until previous_secret_expires_at. */
  previous_secret_sealed: Sealed | null;
  previous_secret_expires_at: string | null;
  consecutive_failures: number;
  failing_since: string | null;
  last_attempt_at: string | null;
  last_outcome: "succeeded" | "failed" | null;
  last_http_status: number | null;
  last_error: string | null;
  last_latency_ms: number | null;
  created_at: string;
  updated_at: string;
}

/** One message (event) to one endpoint; its attempts share the webhook-id (= event_id). */
export interface WebhookDeliveriesTable {
  id: string;
  tenant_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  /** JSON text sent byte for byte as the request body. */
  payload: string;
  status: "pending" | "succeeded" | "failed";
  attempt_count: number;
  max_attempts: number;
  next_attempt_at: string | null;
  next_trigger: "automatic" | "manual" | "test";
  /** A worker's claim on the next attempt; another worker may take it once it lapses. */
  lease_until: string | null;
  lease_token: string | null;
  last_attempt_at: string | null;
  last_http_status: number | null;
  last_error: string | null;
  created_at: string;
  completed_at: string | null;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  tenant_id: string;
  endpoint_id: string;
  attempt_number: number;
  triggered_by: "automatic" | "manual" | "test";
  attempted_at: string;
  outcome: "succeeded" | "retrying" | "failed";
  http_status: number | null;
  error: string | null;
  latency_ms: number;
}

export interface InvocationsTable {
  id: string;
  tenant_id: string;
  env: "test" | "live";
  agent_app_id: string;
  /** Who called: the agent app's broker JWT, or a control key acting for it. */
  actor_type: "agent_app" | "control_key";
  actor_id: string;
  tool_name: string;
  provider: string | null;
  connection_id: string | null;
  secret_item_id: string | null;
  status: "succeeded" | "failed" | "rejected" | "denied" | "awaiting_approval" | "sending" | "unknown";
  error_code: string | null;
  upstream_status: number | null;
  latency_ms: number | null;
  /** Arguments with credential-like fields redacted, for people reading the log. */
  arguments_redacted: string;
  /** The exact arguments, sealed: kept only for calls that wait for an approval. */
  arguments_sealed: Sealed | null;
  arguments_fingerprint: string;
  /** The scrubbed result (or error envelope) of a finished call, sealed. */
  outcome_sealed: Sealed | null;
  approval_id: string | null;
  idempotency_key: string | null;
  /** The fingerprint of the request made under `idempotency_key` (migration 0013; null before it). */
  request_fingerprint: string | null;
  created_at: string;
  completed_at: string | null;
  end_user_id: string | null;
  /**
   * The billing period (`YYYY-MM`) of a call metered on its own row: one that reached the provider
   * when it was first recorded. Such a call has no `usage_events` row; every other metered call
   * (one whose answer came in a later step, or recorded before migration 0011) has one instead.
   */
  metered_period: string | null;
  /** The trace of the request that first recorded the call, when tracing was on (migration 0017). */
  trace_id: string | null;
}

export interface IdempotencyKeysTable {
  tenant_id: string;
  env: "test" | "live";
  agent_app_id: string;
  key: string;
  request_fingerprint: string;
  status: "in_progress" | "sending" | "completed";
  invocation_id: string;
  response_status: number | null;
  /** The stored response body, sealed (it holds the tool result). */
  response_sealed: Sealed | null;
  created_at: string;
  expires_at: string;
}

export interface PoliciesTable {
  id: string;
  tenant_id: string;
  env: "test" | "live";
  version: number;
  document: string;
  created_at: string;
  created_by: string;
}

export interface ApprovalsTable {
  id: string;
  tenant_id: string;
  env: "test" | "live";
  agent_app_id: string;
  invocation_id: string;
  tool_name: string;
  provider: string;
  connection_id: string | null;
  secret_item_id: string | null;
  arguments_fingerprint: string;
  arguments_redacted: string;
  status: "pending" | "approved" | "denied" | "expired" | "consumed";
  rule_id: string | null;
  reason: string | null;
  decided_by: string | null;
  decided_at: string | null;
  consumed_at: string | null;
  created_at: string;
  expires_at: string;
  end_user_id: string | null;
  requirement: string | null;
  edited_arguments_sealed: string | null;
  edited_arguments_redacted: string | null;
  edited_fingerprint: string | null;
  /** JSON `ArgumentChange[]`: what the edit changed, computed once from the real arguments (values redacted). */
  edited_changes: string | null;
  edited_by: string | null;
  edited_at: string | null;
  reminded_at: string | null;
  expiry_announced_at: string | null;
}

export interface ApprovalVotesTable {
  id: string;
  tenant_id: string;
  approval_id: string;
  /** "member:<member id>" or "end_user:<end user id>". */
  voter: string;
  decision: "approve" | "deny";
  /** The digest of the call as it stood when this vote was cast: an edit makes earlier approvals stale. */
  digest: string;
  via: "api" | "console" | "slack" | "email" | "end_user_page";
  reason: string | null;
  created_at: string;
}

export interface ApprovalDeliveriesTable {
  id: string;
  tenant_id: string;
  approval_id: string;
  channel: "slack" | "email";
  purpose: "request" | "reminder" | "outcome";
  status: "pending" | "sent" | "gave_up";
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  /** Channel-owned JSON: what was already done (a Slack message's ts, the members already emailed). */
  progress: string | null;
  created_at: string;
  sent_at: string | null;
}

export interface ApprovalLinkUsesTable {
  link_id: string;
  approval_id: string;
  used_at: string;
}

export interface ApprovalSettingsTable {
  tenant_id: string;
  /** JSON array of the channels an approval goes to when its rule names none: "slack", "email". */
  channels: string;
  slack_connection_id: string | null;
  slack_channel: string | null;
  updated_at: string;
  updated_by: string;
}

/** A tenant's name and logo on its end users' pages (migration 0018). */
export interface TenantBrandingTable {
  tenant_id: string;
  display_name: string | null;
  logo_base64: string | null;
  logo_content_type: "image/png" | "image/jpeg" | "image/webp" | null;
  logo_sha256: string | null;
  updated_at: string;
  updated_by: string;
}

/** A tenant's tracing settings (migration 0017); no row: the defaults. */
export interface TracingSettingsTable {
  tenant_id: string;
  /** 1: a call's W3C trace context goes to the upstream with its request; 0: it never leaves the broker. */
  propagate_trace_context: number;
  updated_at: string;
  updated_by: string;
}

export interface ConnectSessionsTable {
  id: string;
  tenant_id: string;
  env: "test" | "live";
  end_user_id: string;
  /** JSON array of provider ids the session may connect. */
  providers: string;
  redirect_url: string | null;
  label: string | null;
  token_hash: string;
  created_by_type: "control_key" | "operator" | "agent_app";
  created_by_id: string;
  created_at: string;
  expires_at: string;
}

export interface Database {
  tenants: TenantsTable;
  tenant_members: TenantMembersTable;
  agent_apps: AgentAppsTable;
  control_keys: ControlKeysTable;
  signing_keys: SigningKeysTable;
  audit_events: AuditEventsTable;
  tenant_data_keys: TenantDataKeysTable;
  events: EventsTable;
  usage_events: UsageEventsTable;
  billing_periods: BillingPeriodsTable;
  metering_reports: MeteringReportsTable;
  metering_ledger: MeteringLedgerTable;
  connections: ConnectionsTable;
  oauth_states: OAuthStatesTable;
  oauth_apps: OAuthAppsTable;
  catalogue_providers: CatalogueProvidersTable;
  catalogue_tools: CatalogueToolsTable;
  secret_items: SecretItemsTable;
  invocations: InvocationsTable;
  connect_sessions: ConnectSessionsTable;
  idempotency_keys: IdempotencyKeysTable;
  policies: PoliciesTable;
  approvals: ApprovalsTable;
  approval_votes: ApprovalVotesTable;
  approval_deliveries: ApprovalDeliveriesTable;
  approval_link_uses: ApprovalLinkUsesTable;
  approval_settings: ApprovalSettingsTable;
  tenant_branding: TenantBrandingTable;
  tracing_settings: TracingSettingsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}
