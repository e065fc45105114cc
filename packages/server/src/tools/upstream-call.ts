/**
 * Performs one tool call at the provider: fresh credentials, the request the tool declares, one
 * refresh-and-retry on 401, and the mapping of every failure to `upstream_error`.
 */
import type { CredentialRefresher } from "../connections/credential-refresher.js";
import { BrokerError } from "../errors.js";
import type { UpstreamClient, UpstreamResponse } from "../providers/upstream-client.js";
import type { CredentialHandle } from "./credential-resolution.js";
import { scrub } from "./scrub.js";
import type { CatalogueTool } from "./tool-catalogue.js";

export type UpstreamOutcome = { result: unknown; upstreamStatus: number; latencyMs: number; secrets: string[] };

const MAX_UPSTREAM_MESSAGE = 500;

function upstreamMessage(body: unknown): string | undefined {
  if (typeof body === "string") return body.slice(0, MAX_UPSTREAM_MESSAGE) || undefined;
  if (!body || typeof body !== "object") return undefined;
  const b = body as Record<string, any>;
  const message = b.message ?? b.error_description ?? b.errors?.[0]?.message ?? (typeof b.error === "string" ? b.error : undefined);
  return typeof message === "string" ? message.slice(0, MAX_UPSTREAM_MESSAGE) : undefined;
}

type UpstreamCallDeps = { upstream: UpstreamClient; credentials: Pick<CredentialRefresher, "getFreshCredentials" | "forceRefresh"> };

export function createUpstreamCall({ upstream, credentials }: UpstreamCallDeps) {
  async function send(entry: CatalogueTool, args: Record<string, unknown>, authorization: string) {
    const request = entry.tool.buildRequest(args);
    return upstream.send(entry.provider.apiBaseUrl, {
      ...request,
      headers: { ...entry.provider.apiHeaders, ...request.headers, authorization },
    });
  }

  const authStatus = (entry: CatalogueTool, response: UpstreamResponse) =>
    response.status === 401 ? 401 : entry.provider.inspectApiResponse?.(response)?.status === 401 ? 401 : response.status;

  return {
    async call(entry: CatalogueTool, handle: CredentialHandle, args: Record<string, unknown>): Promise<UpstreamOutcome> {
      const provider = entry.provider;
      const secrets: string[] = provider.client ? [provider.client.clientSecret] : [];
      let response: UpstreamResponse;
      let latencyMs = 0;
      if (handle.kind === "oauth2") {
        const tokens = await credentials.getFreshCredentials(handle.connection);
        secrets.push(tokens.accessToken, ...(tokens.refreshToken ? [tokens.refreshToken] : []));
        response = await send(entry, args, provider.authorizationHeader({ kind: "oauth2", secret: tokens.accessToken }));
        latencyMs += response.latencyMs;
        if (authStatus(entry, response) === 401) {
          const renewed = await credentials.forceRefresh(handle.connection, tokens.accessToken);
          secrets.push(renewed.accessToken, ...(renewed.refreshToken ? [renewed.refreshToken] : []));
          response = await send(entry, args, provider.authorizationHeader({ kind: "oauth2", secret: renewed.accessToken }));
          latencyMs += response.latencyMs;
        }
      } else {
        const key = await handle.open();
        secrets.push(key);
        response = await send(entry, args, provider.authorizationHeader({ kind: "api_key", secret: key }));
        latencyMs += response.latencyMs;
      }

      const vendorError = provider.inspectApiResponse?.(response);
      if (response.status < 200 || response.status >= 300 || vendorError) {
        const message = vendorError?.message ?? upstreamMessage(response.body);
        throw new BrokerError("upstream_error", `${provider.displayName} answered ${response.status}${message ? `: ${scrub(message, secrets) as string}` : ""}`, {
          upstream_status: response.status,
          ...(message ? { upstream_message: scrub(message, secrets) } : {}),
        });
      }
      return { result: scrub(entry.tool.mapResponse(response, args), secrets), upstreamStatus: response.status, latencyMs: Math.round(latencyMs), secrets };
    },
  };
}

export type UpstreamCall = ReturnType<typeof createUpstreamCall>;
