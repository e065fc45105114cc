/**
 * OAuth 2 authorization code + PKCE (S256) against a provider, done by oauth4webapi, plus the
 * vendor quirks the providers declare (errors inside HTTP 200 bodies, non-standard token types).
 */
import * as oauth from "oauth4webapi";
import type { ResolvedProvider } from "../providers/catalogue.js";
import type { OAuthSettings, TokenSet } from "../providers/provider-types.js";
import type { UpstreamClient } from "../providers/upstream-client.js";

export class UpstreamOAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string | undefined,
    readonly invalidGrant: boolean,
    /** The provider failed (a 5xx page, no usable token response): it did not refuse anything. */
    readonly providerFailed = false,
  ) {
    super(`upstream OAuth error: ${error}`);
  }
}

type Client = { clientId: string; clientSecret: string };

export type OAuthClientDeps = {
  upstream: UpstreamClient;
  /** Plain-HTTP endpoints are allowed only outside production (local fakes on loopback). */
  allowInsecureRequests: boolean;
  now: () => Date;
};

/**
 * The client's authentication at the token endpoint, as the provider declares it. Basic follows
 * RFC 6749 2.3.1: id and secret form-urlencoded, then joined by a colon and base64-encoded.
 */
const clientAuthentication = (settings: OAuthSettings, client: Client) =>
  settings.clientAuth === "client_secret_basic" ? oauth.ClientSecretBasic(client.clientSecret) : oauth.ClientSecretPost(client.clientSecret);

export function createOAuthClient({ upstream, allowInsecureRequests, now }: OAuthClientDeps) {
  const server = (settings: OAuthSettings): oauth.AuthorizationServer => ({
    issuer: new URL(settings.tokenUrl).origin,
    authorization_endpoint: settings.authorizeUrl,
    token_endpoint: settings.tokenUrl,
  });
  // A tenant-defined provider's token endpoint is reached through the same address checks as its API.
  const requestOptions = (provider: ResolvedProvider) => ({
    [oauth.allowInsecureRequests]: allowInsecureRequests,
    signal: AbortSignal.timeout(15_000),
    ...(provider.tenantDefined ? { [oauth.customFetch]: upstream.guardedFetch } : {}),
  });

  async function processTokenResponse(settings: OAuthSettings, client: Client, response: Response, grant: "code" | "refresh") {
    if (response.status === 200 && settings.inspectTokenResponse) {
      const body = (await response.clone().json().catch(() => ({}))) as Record<string, unknown>;
      const vendorError = settings.inspectTokenResponse(body);
      if (vendorError) {
        throw new UpstreamOAuthError(vendorError.error, vendorError.description, settings.invalidGrantErrors.includes(vendorError.error));
      }
    }
    const recognizedTokenTypes = Object.fromEntries((settings.extraTokenTypes ?? []).map((t) => [t, () => {}]));
    const as = server(settings);
    const oauthClient = { client_id: client.clientId };
    try {
      const result =
        grant === "code"
          ? await oauth.processAuthorizationCodeResponse(as, oauthClient, response, { recognizedTokenTypes })
          : await oauth.processRefreshTokenResponse(as, oauthClient, response, { recognizedTokenTypes });
      return result as oauth.TokenEndpointResponse & Record<string, unknown>;
    } catch (error) {
      if (error instanceof oauth.ResponseBodyError) {
        throw new UpstreamOAuthError(error.error, error.error_description, settings.invalidGrantErrors.includes(error.error));
      }
      throw new UpstreamOAuthError("invalid_token_response", error instanceof Error ? error.message : undefined, false, true);
    }
  }

  function toTokenSet(settings: OAuthSettings, body: oauth.TokenEndpointResponse, previous?: TokenSet): TokenSet {
    const scopes = body.scope ? body.scope.split(/[ ,]+/).filter(Boolean) : (previous?.scopes ?? []);
    return {
      accessToken: body.access_token,
      // Providers that do not rotate keep the old refresh token valid.
      refreshToken: body.refresh_token ?? previous?.refreshToken,
      expiresAt: settings.tokensExpire !== false && typeof body.expires_in === "number" ? now().getTime() + body.expires_in * 1000 : undefined,
      scopes: scopes.length ? scopes : settings.defaultScopes,
    };
  }

  return {
    generatePkce: async () => {
      const verifier = oauth.generateRandomCodeVerifier();
      return { verifier, challenge: await oauth.calculatePKCECodeChallenge(verifier) };
    },
    generateState: () => oauth.generateRandomState(),

    authorizeUrl(provider: ResolvedProvider, input: { state: string; challenge: string; redirectUri: string; scopes: string[] }) {
      const settings = provider.oauth!;
      const url = new URL(settings.authorizeUrl);
      url.searchParams.set("client_id", provider.client!.clientId);
      url.searchParams.set("redirect_uri", input.redirectUri);
      url.searchParams.set("response_type", "code");
      url.searchParams.set("scope", input.scopes.join(settings.scopeSeparator));
      url.searchParams.set("state", input.state);
      if (settings.pkce !== false) {
        url.searchParams.set("code_challenge", input.challenge);
        url.searchParams.set("code_challenge_method", "S256");
      }
      for (const [key, value] of Object.entries(settings.authorizeParams ?? {})) url.searchParams.set(key, value);
      return url.toString();
    },

    async exchangeCode(provider: ResolvedProvider, input: { callbackParams: URLSearchParams; state: string; verifier: string; redirectUri: string }) {
      const settings = provider.oauth!;
      const client = provider.client!;
      const as = server(settings);
      let params: URLSearchParams;
      try {
        params = oauth.validateAuthResponse(as, { client_id: client.clientId }, input.callbackParams, input.state);
      } catch (error) {
        if (error instanceof oauth.AuthorizationResponseError) throw new UpstreamOAuthError(error.error, error.error_description, false);
        throw new UpstreamOAuthError("invalid_callback", error instanceof Error ? error.message : undefined, false);
      }
      const response = await oauth.authorizationCodeGrantRequest(
        as,
        { client_id: client.clientId },
        clientAuthentication(settings, client),
        params,
        input.redirectUri,
        input.verifier,
        requestOptions(provider),
      );
      const body = await processTokenResponse(settings, client, response, "code");
      return { tokens: toTokenSet(settings, body), raw: body as Record<string, unknown> };
    },

    async refresh(provider: ResolvedProvider, previous: TokenSet): Promise<TokenSet> {
      const settings = provider.oauth!;
      const client = provider.client!;
      if (!previous.refreshToken) throw new UpstreamOAuthError("no_refresh_token", "the provider issued no refresh token", true);
      const response = await oauth.refreshTokenGrantRequest(
        server(settings),
        { client_id: client.clientId },
        clientAuthentication(settings, client),
        previous.refreshToken,
        requestOptions(provider),
      );
      return toTokenSet(settings, await processTokenResponse(settings, client, response, "refresh"), previous);
    },

    /** Best effort: the outcome is recorded, never thrown. */
    async revoke(provider: ResolvedProvider, token: string): Promise<"revoked" | "failed" | "unsupported"> {
      const settings = provider.oauth;
      if (!settings?.revocation || !provider.client) return "unsupported";
      const { url, request } = settings.revocation({
        token,
        clientId: provider.client.clientId,
        clientSecret: provider.client.clientSecret,
        revokeUrl: settings.revokeUrl ?? "",
        apiBaseUrl: provider.apiBaseUrl,
      });
      try {
        const response = await upstream.send(url, request, { timeoutMs: 10_000, guarded: provider.tenantDefined === true });
        const vendorError = provider.inspectApiResponse?.(response);
        return response.status >= 200 && response.status < 300 && !vendorError ? "revoked" : "failed";
      } catch {
        return "failed";
      }
    },
  };
}

export type OAuthClient = ReturnType<typeof createOAuthClient>;
