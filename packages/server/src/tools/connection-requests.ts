/**
 * A request to a provider's API with a tenant's connection, outside any tool call: the broker's
 * own messages through a tenant's account (the Slack approval channel). The same guards as a
 * tool call's upstream request (tools/upstream-call.ts): the connection must be active, its tokens
 * go only to the origins they were issued for, are refreshed when due and once more on a 401, and
 * the request cannot leave the provider's API base URL. Nothing is metered or recorded as an invocation.
 */
import type { ConnectionCache } from "../connections/connection-cache.js";
import type { CredentialRefresher } from "../connections/credential-refresher.js";
import { notFound } from "../errors.js";
import { plainValues, resolveApiBase } from "../providers/connection-values.js";
import type { ScopedProviders } from "../providers/catalogue.js";
import type { UpstreamClient, UpstreamRequest, UpstreamResponse } from "../providers/upstream-client.js";

type ConnectionRequestDeps = {
  connections: Pick<ConnectionCache, "find">;
  refresher: Pick<CredentialRefresher, "getFreshCredentials" | "forceRefresh" | "assertOrigins" | "assertActive">;
  catalogue: ScopedProviders;
  upstream: Pick<UpstreamClient, "send">;
};

export function createConnectionRequests({ connections, refresher, catalogue, upstream }: ConnectionRequestDeps) {
  return {
    /** Sends `request` with the connection's credential; answers the provider's response as it came. */
    async send(tenantId: string, connectionId: string, request: UpstreamRequest): Promise<UpstreamResponse> {
      const connection = await connections.find(tenantId, connectionId);
      if (!connection) throw notFound("connected account");
      const { providers } = await catalogue.view({ tenantId, env: connection.env });
      const provider = providers.get(connection.provider);
      await refresher.assertOrigins(connection, provider);
      const baseUrl = resolveApiBase(provider, plainValues(connection.connectionValues));
      const sendWith = (accessToken: string) => {
        const presented = provider.presentCredential({ kind: "oauth2", secret: accessToken });
        const headers = { ...provider.apiHeaders, ...request.headers, ...presented.headers };
        return upstream.send(baseUrl, { ...request, headers, query: { ...request.query, ...presented.query } }, { guarded: provider.tenantDefined === true });
      };
      const isAuthFailure = (response: UpstreamResponse) => response.status === 401 || provider.inspectApiResponse?.(response)?.status === 401;
      const tokens = await refresher.getFreshCredentials(connection);
      const response = await sendWith(tokens.accessToken);
      if (!isAuthFailure(response)) return response;
      const renewed = await refresher.forceRefresh(connection, tokens.accessToken);
      const retried = await sendWith(renewed.accessToken);
      if (isAuthFailure(retried)) await refresher.assertActive(connection);
      return retried;
    },
  };
}

export type ConnectionRequests = ReturnType<typeof createConnectionRequests>;
