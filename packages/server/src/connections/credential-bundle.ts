/** Upstream tokens travel sealed: one ciphertext per connection, bound to its row. */
import type { TokenSet } from "../providers/provider-types.js";
import type { Sealed, Vault } from "../vault/vault.js";
import { BrokerError } from "../errors.js";
import type { Connection } from "./connection.js";

type SealedBundle = { access_token: string; refresh_token: string | null; expires_at: number | null; scopes: string[] };

const context = (tenantId: string, connectionId: string) => ({ tenantId, table: "connections", rowId: connectionId, field: "credential" });

export function sealTokens(vault: Pick<Vault, "seal">, tenantId: string, connectionId: string, tokens: TokenSet): Promise<Sealed> {
  const bundle: SealedBundle = {
    access_token: tokens.accessToken,
    refresh_token: tokens.refreshToken ?? null,
    expires_at: tokens.expiresAt ?? null,
    scopes: tokens.scopes,
  };
  return vault.seal(context(tenantId, connectionId), JSON.stringify(bundle));
}

export async function openTokens(vault: Pick<Vault, "open">, connection: Pick<Connection, "tenantId" | "id" | "credentialSealed">): Promise<TokenSet> {
  if (!connection.credentialSealed) throw new BrokerError("connection_unusable", "the connection holds no credential; reconnect the account");
  const bundle = JSON.parse(await vault.open(context(connection.tenantId, connection.id), connection.credentialSealed)) as SealedBundle;
  return {
    accessToken: bundle.access_token,
    refreshToken: bundle.refresh_token ?? undefined,
    expiresAt: bundle.expires_at ?? undefined,
    scopes: bundle.scopes,
  };
}
