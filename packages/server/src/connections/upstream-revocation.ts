/**
 * Revoking a connection's grant at its provider, best effort, with the tokens it holds now and
 * only at an origin they were issued for: a provider that moved since gets no token, not even to
 * revoke it (the connection is still revoked here, with `upstream_revocation: "failed"`).
 */
import type { OAuthAppService } from "../oauth-apps/oauth-app-service.js";
import type { ResolvedProvider } from "../providers/catalogue.js";
import { plainValues } from "../providers/connection-values.js";
import { describeChange, mayRevokeAt, originChange, originsOf } from "../providers/credential-origins.js";
import type { Vault } from "../vault/vault.js";
import type { Connection, UpstreamRevocation } from "./connection.js";
import { openTokens } from "./credential-bundle.js";
import type { OAuthClient } from "./oauth-client.js";

export type UpstreamRevocationAttempt = { outcome: UpstreamRevocation; /** Why no request was sent to the provider. */ notSent?: Record<string, unknown> };

type UpstreamRevocationDeps = {
  vault: Pick<Vault, "open" | "status">;
  oauthApps: Pick<OAuthAppService, "forIssuer">;
  oauthClient: Pick<OAuthClient, "revoke">;
};

/** Why the revocation must not be sent to the provider as it is configured now, if it must not. */
function refusedRevocation(connection: Connection, issuer: ResolvedProvider): Record<string, unknown> | undefined {
  // Stored before origins were recorded: nothing to hold it to (it is bound at its next use).
  if (connection.origins.api === null) return undefined;
  let current: ReturnType<typeof originsOf>;
  try {
    current = originsOf(issuer, plainValues(connection.connectionValues));
  } catch {
    // A value the provider no longer accepts: its address is not one to send the token to.
    return { reason: "connection_value_refused" };
  }
  const change = originChange(connection.origins, current, "oauth2");
  if (change) return { reason: "origin_changed", ...describeChange(change) };
  const revocationUrl = issuer.oauth?.revokeUrl;
  if (revocationUrl && !mayRevokeAt(connection.origins, revocationUrl)) return { reason: "revocation_origin", revocation_url: revocationUrl };
  return undefined;
}

export function createUpstreamRevocation({ vault, oauthApps, oauthClient }: UpstreamRevocationDeps) {
  return {
    async revoke(connection: Connection): Promise<UpstreamRevocationAttempt> {
      if (!connection.credentialSealed) return { outcome: "unsupported" };
      const tokens = await openTokens(vault, connection).catch((error: unknown) => {
        // With the vault itself down (wrong or missing master key, failing storage) change
        // nothing: the grant can still be revoked upstream once it is back. A single
        // unreadable ciphertext, though, is worthless and goes.
        if (vault.status().status === "degraded") throw error;
        return undefined;
      });
      if (!tokens) return { outcome: "failed" };
      // The app that issued the tokens is gone or unreadable: the grant cannot be revoked with it, but
      // the connection still is (as with an unreadable ciphertext), unless the vault itself is down.
      const issuer = await oauthApps.forIssuer(connection.tenantId, connection.provider, connection.oauthAppId).catch((error: unknown) => {
        if (vault.status().status === "degraded") throw error;
        return undefined;
      });
      if (!issuer) return { outcome: "failed" };
      const notSent = refusedRevocation(connection, issuer);
      if (notSent) return { outcome: "failed", notSent };
      return { outcome: await oauthClient.revoke(issuer, tokens.accessToken) };
    },
  };
}
