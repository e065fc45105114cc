/**
 * What every fake vendor shares: the authorize step, the test controls (failures, delays,
 * credential echo, denial) and the recorded statistics. Vendor files add their token endpoint
 * wording and API routes on top.
 */
import type { ServerResponse } from "node:http";
import { delay, header, redirect, sendFailure, sendText, type FakeRequest } from "./http.js";
import { createOAuthState, type OAuthStateConfig } from "./oauth-state.js";
import type { FakeFailure, FakeProvider, FakeProviderStats } from "./types.js";

export const ECHO_HEADER = "x-echoed-authorization";
const CHALLENGE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export type ProviderCoreConfig<User> = Omit<OAuthStateConfig, "now" | "ttlSeconds"> & {
  now: () => number;
  ttlSeconds: number;
  defaultUser: User;
};

export type AuthorizeRules = {
  /** Linear requires `response_type=code`; GitHub and Slack ignore it. */
  requireResponseType: boolean;
  /** What the vendor shows for an unknown client_id (a page, not a redirect). */
  unknownClient: (res: ServerResponse) => void;
  deniedDescription: string;
  /** Extra parameters the vendor adds to error redirects (GitHub: error_uri). */
  errorExtras?: (error: string) => Record<string, string>;
  /** required (default): no code without an S256 challenge; optional: checked when sent; ignored: never checked. */
  pkce?: "required" | "optional" | "ignored";
  /** Parameters the vendor insists on (Atlassian audience and prompt): invalid_request without them. */
  requiredParams?: Record<string, string>;
  /** Whether this authorization gets a refresh token (default yes). */
  offline?: (query: Record<string, string>) => boolean;
};

export function splitScopes(scope: string | undefined): string[] {
  return (scope ?? "").split(/[\s,]+/).filter(Boolean);
}

export function createProviderCore<User>(config: ProviderCoreConfig<User>) {
  const state = createOAuthState<User>(config);
  let user = config.defaultUser;
  const stats: FakeProviderStats = {
    tokenRequests: 0,
    authorizationCodeGrants: 0,
    refreshGrants: 0,
    revocations: 0,
    authorizeRequests: [],
    apiCalls: [],
    tokenGrants: [],
  };
  const apiFailures: FakeFailure[] = [];
  const tokenFailures: FakeFailure[] = [];
  let apiDelayMs = 0;
  let tokenDelayMs = 0;
  let echo = false;
  let denyNext = false;
  /** The next token request waits here until the test releases it. */
  let heldTokenRequest: { arrive: () => void; released: Promise<void> } | undefined;

  function handleAuthorize(req: FakeRequest, res: ServerResponse, rules: AuthorizeRules): void {
    const query = req.query;
    stats.authorizeRequests.push({ ...query });
    if (!state.isClient(query.client_id)) return rules.unknownClient(res);
    const redirectUri = query.redirect_uri;
    if (!redirectUri || !/^https?:\/\//.test(redirectUri)) return sendText(res, 400, "redirect_uri is required");
    if (!query.state) return sendText(res, 400, "state is required");

    const back = (params: Record<string, string>) => {
      const target = new URL(redirectUri);
      for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
      target.searchParams.set("state", query.state!);
      redirect(res, target.toString());
    };
    const fail = (error: string, description: string) =>
      back({ error, error_description: description, ...rules.errorExtras?.(error) });

    if (rules.requireResponseType && query.response_type !== "code") {
      return fail("unsupported_response_type", "response_type must be code");
    }
    for (const [name, value] of Object.entries(rules.requiredParams ?? {})) {
      if (query[name] !== value) return fail("invalid_request", `${name}=${value} is required`);
    }
    const pkce = rules.pkce ?? "required";
    const challenged = pkce !== "ignored" && (pkce === "required" || query.code_challenge !== undefined);
    if (challenged && (!query.code_challenge || !CHALLENGE_PATTERN.test(query.code_challenge))) {
      return fail("invalid_request", "code_challenge is required (43 base64url characters)");
    }
    if (challenged && query.code_challenge_method !== "S256") {
      return fail("invalid_request", "code_challenge_method must be S256");
    }
    if (denyNext) {
      denyNext = false;
      return fail("access_denied", rules.deniedDescription);
    }
    const code = state.issueCode({
      redirectUri,
      codeChallenge: challenged ? query.code_challenge! : "",
      scope: splitScopes(query.scope).join(" "),
      user,
      offline: rules.offline?.(query) ?? true,
    });
    back({ code });
  }

  /** Records an API call, applies the delay and any queued failure. Returns true when the call was answered. */
  async function interceptApi(req: FakeRequest, res: ServerResponse): Promise<boolean> {
    stats.apiCalls.push({
      method: req.method,
      path: req.path,
      query: { ...req.query },
      authorization: header(req, "authorization"),
      body: req.body,
      headers: {
        accept: header(req, "accept"),
        "content-type": header(req, "content-type"),
        "user-agent": header(req, "user-agent"),
        "x-github-api-version": header(req, "x-github-api-version"),
        traceparent: header(req, "traceparent"),
        tracestate: header(req, "tracestate"),
      },
    });
    await delay(apiDelayMs);
    const failure = apiFailures.shift();
    if (!failure) return false;
    sendFailure(res, failure);
    return true;
  }

  /** Counts a token request, applies the delay and any queued failure. Returns true when answered. */
  async function interceptToken(res: ServerResponse): Promise<boolean> {
    stats.tokenRequests += 1;
    const held = heldTokenRequest;
    heldTokenRequest = undefined;
    if (held) {
      held.arrive();
      await held.released;
    }
    await delay(tokenDelayMs);
    const failure = tokenFailures.shift();
    if (!failure) return false;
    sendFailure(res, failure);
    return true;
  }

  /** With echo on, copies the received Authorization value into body fields and a header. */
  function echoInto(body: unknown, authorization: string | undefined, fields: string[] = []): unknown {
    if (!echo) return body;
    const value = authorization ?? "";
    if (Array.isArray(body)) return body.map((item) => echoInto(item, authorization, fields));
    if (!body || typeof body !== "object") return body;
    const extra = Object.fromEntries(fields.map((field) => [field, value]));
    return { ...body, ...extra, token: value, nested: { auth: value } };
  }

  function echoHeaders(authorization: string | undefined): Record<string, string> {
    return echo ? { [ECHO_HEADER]: authorization ?? "" } : {};
  }

  function publicProvider(url: string, env: Record<string, string>): FakeProvider<User> {
    return {
      url,
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      env,
      stats,
      issuedSecrets: () => state.issuedSecrets(),
      registerClient: () => state.registerClient(),
      rotateClientSecret: (clientId) => state.rotateClientSecret(clientId),
      setUser: (next) => {
        user = { ...user, ...next };
      },
      currentUser: () => user,
      denyNextAuthorization: () => {
        denyNext = true;
      },
      expireAllAccessTokens: () => state.expireAllAccessTokens(),
      revokeAllRefreshTokens: () => state.revokeAllRefreshTokens(),
      failNext: (times, response) => {
        for (let i = 0; i < times; i += 1) apiFailures.push(response);
      },
      failNextTokenRequest: (times, response) => {
        for (let i = 0; i < times; i += 1) tokenFailures.push(response);
      },
      setApiDelay: (ms) => {
        apiDelayMs = ms;
      },
      setTokenEndpointDelay: (ms) => {
        tokenDelayMs = ms;
      },
      holdNextTokenRequest: () => {
        let arrive = () => {};
        let release = () => {};
        const arrived = new Promise<void>((resolve) => (arrive = resolve));
        const released = new Promise<void>((resolve) => (release = resolve));
        heldTokenRequest = { arrive, released };
        return { arrived, release };
      },
      echoCredentials: (on) => {
        echo = on;
      },
    };
  }

  return {
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    state,
    stats,
    currentUser: () => user,
    handleAuthorize,
    interceptApi,
    interceptToken,
    echoInto,
    echoHeaders,
    publicProvider,
  };
}

export type ProviderCore<User> = ReturnType<typeof createProviderCore<User>>;

/** BROKER_PROVIDER_<NAME>_* settings. */
export function providerEnv(
  name: string,
  settings: { clientId: string; clientSecret: string; authorizeUrl: string; tokenUrl: string; apiBaseUrl: string; revokeUrl: string },
): Record<string, string> {
  const prefix = `BROKER_PROVIDER_${name}_`;
  return {
    [`${prefix}CLIENT_ID`]: settings.clientId,
    [`${prefix}CLIENT_SECRET`]: settings.clientSecret,
    [`${prefix}AUTHORIZE_URL`]: settings.authorizeUrl,
    [`${prefix}TOKEN_URL`]: settings.tokenUrl,
    [`${prefix}API_BASE_URL`]: settings.apiBaseUrl,
    [`${prefix}REVOKE_URL`]: settings.revokeUrl,
  };
}
