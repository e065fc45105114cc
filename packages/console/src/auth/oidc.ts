/**
 * Production sign-in: OpenID Connect authorization code flow with PKCE (S256) against the
 * broker's identity provider, as a public client, done by oauth4webapi. The verifier, state and
 * nonce wait in sessionStorage during the redirect; tokens end in the session store.
 */
import * as oauth from "oauth4webapi";
import type { ConsoleConfig } from "../api/types";
import type { StoredSession } from "./session-store";

const PENDING_KEY = "toolbroker.console.oidc-pending";
export const CALLBACK_PATH = `${import.meta.env.BASE_URL}callback`;

type Pending = { code_verifier: string; state: string; nonce: string; return_to: string };

/** http is allowed only for an identity provider on this machine (a local test issuer). */
function requestOptions(issuer: URL) {
  const local = issuer.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(issuer.hostname);
  return local ? { [oauth.allowInsecureRequests]: true } : {};
}

const discovered = new Map<string, Promise<oauth.AuthorizationServer>>();

async function discover(config: ConsoleConfig): Promise<{ as: oauth.AuthorizationServer; client: oauth.Client; issuer: URL }> {
  if (!config.client_id) throw new Error("The broker has no console client id (BROKER_CONSOLE_CLIENT_ID): operators cannot sign in here.");
  const issuer = new URL(config.issuer);
  let as = discovered.get(issuer.href);
  if (!as) {
    as = oauth.discoveryRequest(issuer, { algorithm: "oidc", ...requestOptions(issuer) }).then((response) => oauth.processDiscoveryResponse(issuer, response));
    as.catch(() => discovered.delete(issuer.href));
    discovered.set(issuer.href, as);
  }
  return { as: await as, client: { client_id: config.client_id }, issuer };
}

const redirectUri = () => new URL(CALLBACK_PATH, window.location.origin).toString();

/** Sends the browser to the identity provider; it comes back to /console/callback. */
export async function startSignIn(config: ConsoleConfig, returnTo: string): Promise<void> {
  const { as, client } = await discover(config);
  if (!as.authorization_endpoint) throw new Error("The identity provider announces no authorization endpoint.");
  const pending: Pending = { code_verifier: oauth.generateRandomCodeVerifier(), state: oauth.generateRandomState(), nonce: oauth.generateRandomNonce(), return_to: returnTo };
  const scopes = ["openid", ...(as.scopes_supported?.includes("offline_access") ? ["offline_access"] : [])];
  const url = new URL(as.authorization_endpoint);
  url.search = new URLSearchParams({
    client_id: client.client_id,
    redirect_uri: redirectUri(),
    response_type: "code",
    scope: scopes.join(" "),
    state: pending.state,
    nonce: pending.nonce,
    code_challenge: await oauth.calculatePKCECodeChallenge(pending.code_verifier),
    code_challenge_method: "S256",
  }).toString();
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  window.location.assign(url.toString());
}

function toSession(result: oauth.TokenEndpointResponse, previousRefresh?: string): StoredSession {
  const refresh = result.refresh_token ?? previousRefresh;
  return {
    kind: "oidc",
    access_token: result.access_token,
    expires_at: Date.now() + (result.expires_in ?? 300) * 1000,
    ...(refresh ? { refresh_token: refresh } : {}),
  };
}

/** Exchanges the code in `callbackUrl`; answers the session and where the operator was going. */
export async function completeSignIn(config: ConsoleConfig, callbackUrl: URL): Promise<{ session: StoredSession; returnTo: string }> {
  const raw = sessionStorage.getItem(PENDING_KEY);
  sessionStorage.removeItem(PENDING_KEY);
  if (!raw) throw new Error("This sign-in was not started in this tab, or was already completed. Sign in again.");
  const pending = JSON.parse(raw) as Pending;
  const { as, client, issuer } = await discover(config);
  const params = oauth.validateAuthResponse(as, client, callbackUrl, pending.state);
  const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri(), pending.code_verifier, requestOptions(issuer));
  const result = await oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: pending.nonce, requireIdToken: true });
  return { session: toSession(result), returnTo: pending.return_to };
}

/** A new access token from the refresh token, before the current one expires. */
export async function refreshSession(config: ConsoleConfig, session: StoredSession): Promise<StoredSession> {
  if (!session.refresh_token) throw new Error("no refresh token");
  const { as, client, issuer } = await discover(config);
  const response = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), session.refresh_token, requestOptions(issuer));
  const result = await oauth.processRefreshTokenResponse(as, client, response);
  return toSession(result, session.refresh_token);
}
