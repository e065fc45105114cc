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
}

export interface AgentAppsTable {
  id: string;
  tenant_id: string;
  name: string;
  status: "active" | "disabled";
  created_at: string;
  disabled_at: string | null;
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
  private_key_sealed: string;
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
}

export interface TenantDataKeysTable {
  id: string;
  tenant_id: string;
  master_kid: string;
  wrapped_key: string;
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
}
