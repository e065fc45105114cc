/** Public shapes of the fake vendor servers (GitHub, Slack, Linear) used by tests. */

export type FakeUpstreamOptions = {
  /** `expires_in` of every access token issued (default 3600). */
  accessTokenTtlSeconds?: number;
  /** Milliseconds since the epoch; inject to test code and token expiry without waiting. */
  now?: () => number;
};

/** A canned answer that replaces the next API (or token endpoint) responses. */
export type FakeFailure = { status: number; body?: unknown; headers?: Record<string, string> };

export type RecordedApiCall = {
  method: string;
  /** Path without the query string, e.g. `/user/repos` or `/api/chat.postMessage`. */
  path: string;
  /** Query parameters as received. */
  query: Record<string, string>;
  authorization: string | undefined;
  /** Parsed JSON or form body (form bodies become a plain object); undefined when empty. */
  body: unknown;
  /** Selected request headers: accept, content-type, user-agent, x-github-api-version, and the W3C trace context (traceparent, tracestate). */
  headers: Record<string, string | undefined>;
  /** Described sandboxes only: the operation matched (or route), whether the credential was accepted, what failed validation. */
  operationId?: string | undefined;
  authorized?: boolean;
  problems?: string[];
  /** The operation's success answer has no body (204): the tool's result is empty by design. */
  emptyAnswer?: boolean;
};

export type FakeProviderStats = {
  /** Every request to the token endpoint, whatever its outcome. */
  tokenRequests: number;
  /** Successful authorization_code exchanges. */
  authorizationCodeGrants: number;
  /** Successful refresh_token grants. */
  refreshGrants: number;
  /** Successful revocations. */
  revocations: number;
  /** Query parameters of every authorize request. */
  authorizeRequests: Record<string, string>[];
  /** Every request to an API route (token and revoke endpoints excluded). */
  apiCalls: RecordedApiCall[];
  /** The client that made each successful grant at the token endpoint. */
  tokenGrants: { grantType: "authorization_code" | "refresh_token"; clientId: string }[];
};

export type FakeProvider<User> = {
  /** Base URL of this fake, e.g. http://127.0.0.1:PORT */
  url: string;
  clientId: string;
  clientSecret: string;
  /** BROKER_PROVIDER_<NAME>_* settings pointing the broker at this fake. */
  env: Record<string, string>;
  stats: FakeProviderStats;
  /** Registers another OAuth app (as a customer would at the vendor) and returns its credentials. */
  registerClient(): { clientId: string; clientSecret: string };
  /** A new secret for a registered app; the old one stops working. */
  rotateClientSecret(clientId: string): string;
  /** Every access and refresh token (and API key) ever issued. */
  issuedSecrets(): string[];
  /** The user the authorize step approves as; merged over the current one. */
  setUser(user: Partial<User>): void;
  /** The user the next authorization will approve as. */
  currentUser(): User;
  /** The next authorize request redirects back with error=access_denied. */
  denyNextAuthorization(): void;
  /** Every access token issued so far stops working (expired, as the vendor reports it). */
  expireAllAccessTokens(): void;
  /** Every refresh token issued so far stops working (the vendor's invalid_grant). */
  revokeAllRefreshTokens(): void;
  /** The next `times` API calls answer `response` instead. */
  failNext(times: number, response: FakeFailure): void;
  /** The next `times` token endpoint requests answer `response` instead. */
  failNextTokenRequest(times: number, response: FakeFailure): void;
  setApiDelay(ms: number): void;
  setTokenEndpointDelay(ms: number): void;
  /** The next token endpoint request waits, once `arrived`, until `release()` is called. */
  holdNextTokenRequest(): { arrived: Promise<void>; release(): void };
  /** API responses carry the received Authorization value in body fields and a header. */
  echoCredentials(on: boolean): void;
};

export type GitHubUser = { login: string; id: number; name: string | null; email: string | null };
export type SlackUser = { id: string; name: string; teamId: string; teamName: string; teamDomain: string };
export type LinearUser = { id: string; name: string; email: string; organizationName: string; urlKey: string };

export type GitHubFake = FakeProvider<GitHubUser>;
/** A press of a button in one of the app's messages (sandbox/slack-interactions.ts). */
export type ButtonPress = {
  /** The channel id and ts of the message whose button is pressed. */
  channel: string;
  ts: string;
  actionId: string;
  /** Who presses it (default: the fake's current user). */
  user?: Partial<SlackUser>;
  /** Seconds since the epoch the request is signed at (default: the fake's now). */
  timestamp?: number;
};

export type SignedInteraction = { body: string; headers: Record<string, string>; payload: Record<string, unknown> };

export type SlackFake = FakeProvider<SlackUser> & {
  /** The app's signing secret (also `env.BROKER_SLACK_SIGNING_SECRET`). */
  signingSecret: string;
  /** A copy of a channel's messages (by channel id), oldest first, thread replies included (with `thread_ts`). */
  messages(channel: string): Record<string, any>[];
  /**
   * The request Slack sends the app's interactivity URL when `press.user` presses a button of a
   * message: a signed `block_actions` payload (see slack-interactions.ts). The test posts it.
   */
  buttonPress(press: ButtonPress): SignedInteraction;
};
export type LinearFake = FakeProvider<LinearUser> & {
  /** Personal API keys accepted as `Authorization: <key>` (no "Bearer"). */
  apiKeys: ReadonlySet<string>;
  /** Registers a personal API key acting as the current user; returns it. */
  addApiKey(key?: string): string;
};
