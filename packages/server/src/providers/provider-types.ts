/**
 * What the broker runs for a provider and its tools. Every provider, built-in or tenant-defined,
 * is built from a declaration (declaration-schema.ts) by declared-provider.ts;
 * a built-in one adds the few named hooks its vendor's quirks need, from its own folder.
 */
import type { ConnectionValueSpecs } from "./connection-values.js";
import type { UpstreamRequest, UpstreamResponse } from "./upstream-client.js";

export type AuthMode = "oauth2" | "api_key";

export type TokenSet = {
  accessToken: string;
  refreshToken: string | undefined;
  /** Epoch ms, or undefined when the provider issues non-expiring tokens. */
  expiresAt: number | undefined;
  scopes: string[];
};

/** A vendor error hidden inside an HTTP 200 token response (GitHub, Slack). */
export type TokenResponseError = { error: string; description?: string | undefined };

export type OAuthSettings = {
  authorizeUrl: string;
  tokenUrl: string;
  revokeUrl?: string;
  defaultScopes: string[];
  scopeSeparator: " " | ",";
  /** Send a PKCE S256 challenge (default true). */
  pkce?: boolean;
  /** How the token endpoint is told the client: in the form (default) or in an HTTP Basic header (Zoom, Notion). */
  clientAuth?: "client_secret_post" | "client_secret_basic";
  /** False when the provider's tokens never need refreshing, whatever `expires_in` says. */
  tokensExpire?: boolean;
  /** Extra authorize parameters the vendor needs (e.g. Linear's response_type is standard; Slack's user_scope). */
  authorizeParams?: Record<string, string>;
  /** Detects an error a vendor returns with HTTP 200. */
  inspectTokenResponse?: (body: Record<string, unknown>) => TokenResponseError | undefined;
  /** Vendor error codes that mean "this refresh token is dead": the connection becomes expired. */
  invalidGrantErrors: string[];
  /** Non-standard token_type values the vendor returns (Slack: "bot", "user"). */
  extraTokenTypes?: string[];
  /** Builds the vendor's revocation call, or undefined when the vendor has none. */
  revocation?: (input: { token: string; clientId: string; clientSecret: string; revokeUrl: string; apiBaseUrl: string }) => {
    url: string;
    request: UpstreamRequest;
  };
};

export type PresentedCredential = { headers: Record<string, string>; query?: Record<string, string> };

export const bearer = (secret: string): PresentedCredential => ({ headers: { authorization: `Bearer ${secret}` } });

export type AccountIdentity = { displayName: string; accountId: string };

export type ApiCaller = (req: UpstreamRequest) => Promise<UpstreamResponse>;

export type ToolRisk = "low" | "high";
export type SideEffect = "read" | "write";

export type ToolDefinition = {
  /** `<provider>.<operation>` */
  name: string;
  /** A short human title (MCP `title`), when declared. */
  title?: string;
  description: string;
  /** JSON Schema of `arguments`; compiled once with Ajv. */
  argumentsSchema: Record<string, unknown>;
  risk: ToolRisk;
  sideEffect: SideEffect;
  /** A write that deletes or overwrites what was there (MCP's destructiveHint); repeating it changes nothing more. */
  destructive?: boolean;
  /** Repeating the call with the same arguments changes nothing more (MCP's idempotentHint), when declared. */
  idempotent?: boolean;
  /** The OAuth scopes the tool needs, when declared. */
  scopes?: readonly string[];
  authModes: AuthMode[];
  /**
   * JSON pointers into `arguments` of the fields the vendor compares case-insensitively (GitHub
   * owners, repositories and logins; Slack channel names). Policy conditions on them, or inside them, ignore case too, so a rule
   * on `hello-world` also holds for `Hello-World`, which the vendor treats as the same thing.
   */
  caseInsensitiveArguments?: readonly string[];
  buildRequest(args: Record<string, any>): UpstreamRequest;
  /** The request path as declared, placeholders unfilled (`/repos/{owner}/{repo}`): what traces show instead of the path sent. */
  pathTemplate?: string;
  /**
   * JSON Schema of the 2xx upstream body: what `mapResponse` relies on. A body that does not match
   * is an `upstream_error` (`unexpected_response`), never a crash in the mapper.
   */
  responseSchema: Record<string, unknown>;
  /** Maps a 2xx upstream body to the tool result; may throw to report an in-band vendor error. */
  mapResponse(response: UpstreamResponse, args: Record<string, any>): unknown;
};

export type ProviderDefinition = {
  id: string;
  displayName: string;
  /** One line on what it is, an https or data: icon (MCP `icons`), as declared. */
  description?: string;
  icon?: string;
  /** Other ids that name a built-in provider (`github` for `scm`): see providers/aliases.ts. */
  aliases?: readonly string[];
  authModes: AuthMode[];
  /** May name per-connection values as `{name}` (see connection-values.ts). */
  apiBaseUrl: string;
  /**
   * A built-in provider whose vendor's one OAuth app serves several products (Google, Microsoft,
   * Atlassian): BROKER_PROVIDER_<FAMILY>_* give the client (and URLs) unless the provider's own are set.
   */
  oauthClientFamily?: string;
  /** `basic`: an API key is `user:password`, sent base64-encoded as HTTP Basic credentials. */
  apiKeyFormat?: "basic";
  /** The declaration's `connection_values`: kept with each connection, filling the base URL. */
  connectionValues?: ConnectionValueSpecs;
  oauth?: OAuthSettings;
  /** Headers every API call carries (e.g. GitHub's Accept and API version). */
  apiHeaders: Record<string, string>;
  /** How a credential is presented: OAuth tokens as Bearer; API keys per vendor (a header or a query parameter). */
  presentCredential(credential: { kind: AuthMode; secret: string }): PresentedCredential;
  /** Reads the connected account's display identity right after the code exchange. */
  fetchIdentity(api: ApiCaller, tokenResponse: Record<string, unknown>): Promise<AccountIdentity>;
  /** Detects an error a vendor returns with a 2xx API response (Slack's `ok: false`). */
  inspectApiResponse?: (response: UpstreamResponse) => { status: number; message: string } | undefined;
  tools: ToolDefinition[];
  /** Argument names every tool of the provider compares without case (tools may name more). */
  caseInsensitiveArguments?: readonly string[];
  /** Declared by a tenant: its URLs are checked like webhook URLs, on every connection. */
  tenantDefined?: boolean;
};

/**
 * Code a built-in provider adds to its declaration where the vendor departs from what data can
 * say. Only the broker's own providers have hooks: a tenant's declaration is data alone.
 */
export type ProviderHooks = {
  /** Token endpoint and revocation quirks; `revocation` replaces the declared one. */
  oauth?: Pick<OAuthSettings, "inspectTokenResponse" | "revocation">;
  /**
   * An oauth2 provider also takes API keys, presented like this; an api_key provider presents its
   * key like this instead of as declared (a key of several values, e.g. Trello's key and token).
   */
  presentApiKey?: (secret: string) => PresentedCredential;
  /** Replaces the declared `identity` (e.g. an identity read from the token response). */
  fetchIdentity?: ProviderDefinition["fetchIdentity"];
  inspectApiResponse?: ProviderDefinition["inspectApiResponse"];
  /** By tool name; each must name a declared tool. */
  tools?: Readonly<Record<string, ToolHooks>>;
};

export type ToolHooks = {
  /** Completes the request built from the declaration with values a template cannot compute. */
  request?: (built: UpstreamRequest, args: Record<string, any>) => UpstreamRequest;
  /** Maps the 2xx body where pointers cannot express the result; the declaration then has no `root` or `fields`. */
  mapResponse?: ToolDefinition["mapResponse"];
};
