/** What leaves the broker of a secret item: its metadata and hint, never its value. */
import type { StoredConnectionValues } from "../providers/connection-values.js";
import type { SecretItemsTable } from "../store/schema.js";

/** Shorter values get no hint: four characters of a short key would give away too much of it. */
const MIN_VALUE_LENGTH_FOR_HINT = 16;

/**
 * The value's last four characters, for telling keys apart (the convention of OAuth app secrets
 * too). The length rule applies to what follows the last colon: a Basic-format value is
 * `user:password`, and a long user name must not make four characters of a short password a hint.
 */
export const hintOf = (value: string) => {
  const secretPart = value.slice(value.lastIndexOf(":") + 1);
  return secretPart.length >= MIN_VALUE_LENGTH_FOR_HINT ? secretPart.slice(-4) : null;
};

export const valuesOf = (row: Pick<SecretItemsTable, "connection_values">): StoredConnectionValues => (row.connection_values ? (JSON.parse(row.connection_values) as StoredConnectionValues) : {});

export const present = (row: SecretItemsTable) => ({
  secret_item_id: row.id,
  provider: row.provider,
  env: row.env,
  name: row.name,
  created_at: row.created_at,
  last_used_at: row.last_used_at,
  end_user_id: row.end_user_id,
  label: row.label,
  reconnect_reason: row.reconnect_reason,
  connection_values: valuesOf(row),
  value_hint: row.value_hint,
});
