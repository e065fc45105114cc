/**
 * A small loopback OAuth provider for the broker's tests of vendor OAuth variants (Salesforce's
 * instance_url, Atlassian's accessible-resources, Notion's Basic client auth and non-expiring
 * tokens, Google's refresh answers without a refresh token, Microsoft's rotating ones). It
 * auto-approves authorize requests, checks the client the way it is told to, records every
 * request, and answers API calls with what it saw. It imitates no vendor beyond what a test
 * configures; H2's sandbox serves the vendors themselves.
 */
import { randomBytes } from "node:crypto";
import { bearerToken, clientCredentials, header, redirect, sendJson, startServer, type FakeRequest } from "../../src/sandbox/http.js";

export type OAuthVariant = {
  client: { id: string; secret: string };
  /** How the token endpoint expects the client (default client_secret_post). */
  clientAuth?: "client_secret_post" | "client_secret_basic";
  /** `expires_in` of access tokens; null leaves it out (tokens that do not expire). */
  expiresIn?: number | null;
  /** On refresh: `rotate` issues a new refresh token and kills the old one; `omit` answers without one (the old stays valid). */
  refresh?: "rotate" | "omit";
  /** Extra fields of every token response (e.g. instance_url), or a function of the server's own URL. */
  tokenExtras?: (url: string) => Record<string, unknown>;
  /** The body of GET /oauth/token/accessible-resources (Atlassian). */
  accessibleResources?: unknown;
  /** Fields of every other API answer besides `ok` and `path` (what an identity call reads). */
  apiBody?: Record<string, unknown>;
};

export type RecordedRequest = { method: string; path: string; query: Record<string, string>; headers: Record<string, string | undefined>; fields: Record<string, string> };

export type OAuthVariantServer = {
  url: string;
  authorizeUrl: string;
  tokenUrl: string;
  requests: RecordedRequest[];
  /** Query parameters of each authorize request. */
  authorizations: Record<string, string>[];
  tokenRequests: { grantType: string; clientAuth: "basic" | "body" | "none"; refreshToken?: string }[];
  /** Makes every live access token expire at the provider (a 401 on its next use). */
  expireAccessTokens(): void;
  close(): Promise<void>;
};

const token = (prefix: string) => `${prefix}-${randomBytes(12).toString("hex")}`;

export async function startOAuthVariantServer(variant: OAuthVariant): Promise<OAuthVariantServer> {
  const codes = new Map<string, { redirectUri: string }>();
  const accessTokens = new Set<string>();
  const refreshTokens = new Set<string>();
  const requests: RecordedRequest[] = [];
  const authorizations: Record<string, string>[] = [];
  const tokenRequests: OAuthVariantServer["tokenRequests"] = [];
  let url = "";

  const issue = (withRefresh: boolean) => {
    const access = token("access");
    accessTokens.add(access);
    const body: Record<string, unknown> = { access_token: access, token_type: "Bearer", ...(variant.tokenExtras?.(url) ?? {}) };
    if (variant.expiresIn !== null) body.expires_in = variant.expiresIn ?? 3600;
    if (withRefresh) {
      const refresh = token("refresh");
      refreshTokens.add(refresh);
      body.refresh_token = refresh;
    }
    return body;
  };

  function clientOk(req: FakeRequest) {
    const presented = clientCredentials(req);
    const expected = variant.clientAuth ?? "client_secret_post";
    const via = presented.viaBasic ? "basic" : presented.clientSecret ? "body" : "none";
    const rightPlace = expected === "client_secret_basic" ? via === "basic" && !req.fields.client_secret : via === "body";
    return { ok: rightPlace && presented.clientId === variant.client.id && presented.clientSecret === variant.client.secret, via } as const;
  }

  const server = await startServer((req, res) => {
    requests.push({ method: req.method, path: req.path, query: req.query, headers: req.headers as Record<string, string | undefined>, fields: req.fields });
    if (req.method === "GET" && req.path === "/oauth/authorize") {
      authorizations.push(req.query);
      const code = token("code");
      codes.set(code, { redirectUri: req.query.redirect_uri ?? "" });
      const target = new URL(req.query.redirect_uri ?? "");
      target.searchParams.set("code", code);
      target.searchParams.set("state", req.query.state ?? "");
      return redirect(res, target.toString());
    }
    if (req.method === "POST" && req.path === "/oauth/token") {
      const client = clientOk(req);
      tokenRequests.push({ grantType: req.fields.grant_type ?? "", clientAuth: client.via, ...(req.fields.refresh_token ? { refreshToken: req.fields.refresh_token } : {}) });
      if (!client.ok) return sendJson(res, 401, { error: "invalid_client" });
      if (req.fields.grant_type === "authorization_code") {
        const grant = codes.get(req.fields.code ?? "");
        codes.delete(req.fields.code ?? "");
        if (!grant || grant.redirectUri !== req.fields.redirect_uri) return sendJson(res, 400, { error: "invalid_grant" });
        return sendJson(res, 200, issue(variant.expiresIn !== null));
      }
      if (req.fields.grant_type === "refresh_token") {
        const presented = req.fields.refresh_token ?? "";
        if (!refreshTokens.has(presented)) return sendJson(res, 400, { error: "invalid_grant" });
        if (variant.refresh === "omit") return sendJson(res, 200, issue(false));
        refreshTokens.delete(presented);
        return sendJson(res, 200, issue(true));
      }
      return sendJson(res, 400, { error: "unsupported_grant_type" });
    }
    const access = bearerToken(header(req, "authorization"));
    if (!access || !accessTokens.has(access)) return sendJson(res, 401, { message: "invalid token" });
    if (req.method === "GET" && req.path === "/oauth/token/accessible-resources") return sendJson(res, 200, variant.accessibleResources ?? []);
    if (req.path.endsWith("/me")) return sendJson(res, 200, { id: "user-1", name: "Ada", ...variant.apiBody });
    return sendJson(res, 200, { ok: true, path: req.path, ...variant.apiBody });
  });
  url = server.url;
  return {
    url,
    authorizeUrl: `${url}/oauth/authorize`,
    tokenUrl: `${url}/oauth/token`,
    requests,
    authorizations,
    tokenRequests,
    expireAccessTokens: () => accessTokens.clear(),
    close: () => server.close(),
  };
}
