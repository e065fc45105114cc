import type { TestOrLive } from "../ids.js";
import type { StoredConnectionValues } from "../providers/connection-values.js";
import type { BoundOrigins, ReconnectReason } from "../providers/credential-origins.js";
import type { Sealed } from "../shared/sealed.js";

/** An operator, as their identity provider names them. */
export type Owner = { issuer: string; subject: string };

export type ConnectionStatus = "active" | "expired" | "revoked";

/** How the best-effort revocation at the provider went. */
export type UpstreamRevocation = "revoked" | "failed" | "unsupported";

/** A connected SaaS account, as the connection services see it. */
export type Connection = {
  id: string;
  tenantId: string;
  env: TestOrLive;
  provider: string;
  status: ConnectionStatus;
  /** The operator who connected it, or who created the connect session an end user used. */
  owner: Owner;
  /** The upstream account's identity, e.g. a GitHub login. */
  displayName: string;
  upstreamAccountId: string;
  /** The upstream tokens ({access_token, refresh_token, expires_at, scopes}); null once revoked. */
  credentialSealed: Sealed | null;
  createdAt: string;
  updatedAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  upstreamRevocation: UpstreamRevocation | null;
  /** The customer's end user who owns this connection; null for a shared (operator-connected) one. */
  endUserId: string | null;
  label: string | null;
  /** The tenant's own OAuth app that issued the tokens, which refreshes and revokes them too; null for the broker-wide client. */
  oauthAppId: string | null;
  /** The token endpoint's and API base URL's origins the tokens were issued for (see providers/credential-origins.ts). */
  origins: BoundOrigins;
  /** Why an expired connection must be reconnected; null while active, and for connections expired before 0014. */
  reconnectReason: ReconnectReason | null;
  /** A refresh request was (maybe) sent and its answer not yet stored; left behind by a crash. */
  refreshStartedAt: string | null;
  /** The provider's per-connection values (providers/connection-values.ts); empty when it declares none. */
  connectionValues: StoredConnectionValues;
};
