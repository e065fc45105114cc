/**
 * Connect sessions over HTTP: the API that creates them, and the hosted pages an end user opens
 * (`/connect/{token}`), which need no credential but the token in their path. Everything that
 * connects an account is a form post from that page (connect-page-guard.ts).
 */
import { Type, type Static } from "@sinclair/typebox";
import type { FastifyReply } from "fastify";
import { bindToBrowser } from "../connections/browser-binding.js";
import { BrokerError } from "../errors.js";
import type { App } from "../http/app-type.js";
import { actorOf, type Credential } from "../http/credentials.js";
import { connectedPage, sendPage } from "../http/html-page.js";
import { EndUserId, EnvSchema, errorResponses, Label, Timestamp, Uuid } from "../http/schemas.js";
import { choosePage, explainConnectError, LOCAL_TIME_SCRIPT_PATH, startFromPage, VALUE_FIELD_PREFIX, type PageBranding } from "./connect-html.js";
import { LOCAL_TIME_SCRIPT } from "./local-time-script.js";
import { PAGE_TOKEN_FIELD, type ConnectPageGuard } from "./connect-page-guard.js";
import { CONNECT_SESSION_TTL_MS, type ConnectSessionService, type OpenSession, type SessionCreator } from "./connect-session-service.js";

const CreateBody = Type.Object(
  {
    end_user_id: EndUserId,
    providers: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { minItems: 1, maxItems: 50, description: "Providers the page offers; default: every provider that can be connected" }),
    ),
    redirect_url: Type.Optional(
      Type.String({ maxLength: 2000, description: "Where the browser goes after each connect, with `?connected_account_id=…&provider=…` (or `secret_item_id`). https, or http on loopback" }),
    ),
    label: Type.Optional(Label),
    env: Type.Optional(EnvSchema),
  },
  { additionalProperties: false },
);

const ConnectSession = Type.Object({
  id: Uuid,
  connect_url: Type.String({ description: "`{BROKER_PUBLIC_URL}/connect/{token}`: give it to the end user; it is the session's only credential" }),
  expires_at: Timestamp,
  end_user_id: Type.String(),
  env: EnvSchema,
  providers: Type.Array(Type.String()),
  redirect_url: Type.Union([Type.String(), Type.Null()]),
  label: Type.Union([Type.String(), Type.Null()]),
});

const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 100 }) });
const ProviderParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 100 }), provider: Type.String({ minLength: 1, maxLength: 50 }) });
// The page's hidden field; missing or wrong, the post is 403 (it did not come from the page).
const PageToken = Type.Optional(Type.String({ maxLength: 2000, description: "The hidden field of the connect page's forms: it proves the post comes from this browser's view of the page" }));
// The provider's connect_input values (a Zendesk subdomain) as `value_<name>` fields; checked by the connect itself.
const VALUE_FIELDS = { [`^${VALUE_FIELD_PREFIX}[a-z][a-z0-9_]{0,39}$`]: Type.String({ maxLength: 300 }) };
const StartForm = Type.Object({ [PAGE_TOKEN_FIELD]: PageToken }, { additionalProperties: false, patternProperties: VALUE_FIELDS });
// U+FFFD is what a form's broken percent-encoding decodes to: refused rather than stored as a key.
const ApiKeyForm = Type.Object(
  { api_key: Type.String({ minLength: 1, maxLength: 4096, pattern: "^[^\\u0000-\\u001F\\u007F\\uFFFD]+$" }), [PAGE_TOKEN_FIELD]: PageToken },
  { additionalProperties: false, patternProperties: VALUE_FIELDS },
);

/** The `value_<name>` fields of a posted form, by name. */
const valuesOf = (form: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(form)
      .filter((entry): entry is [string, string] => entry[0].startsWith(VALUE_FIELD_PREFIX) && typeof entry[1] === "string")
      .map(([field, value]) => [field.slice(VALUE_FIELD_PREFIX.length), value]),
  );
/** An HTML page, documented as such (the envelope stays JSON for API clients). */
const Html = { description: "An HTML page", content: { "text/html": { schema: Type.String() } } };
const PAGE_ERRORS = errorResponses(400, 403, 404, 410, 422);

function creatorOf(credential: Credential, env: "test" | "live" | undefined): SessionCreator {
  if (credential.kind === "control_key") {
    if (env !== undefined && env !== credential.env) throw new BrokerError("environment_mismatch", `a bk_${credential.env}_ key creates connect sessions for env "${credential.env}" only`);
    return { tenantId: credential.tenantId, env: credential.env, actor: actorOf(credential), owner: { issuer: "control_key", subject: credential.keyId } };
  }
  if (credential.kind !== "operator") throw new BrokerError("unauthorized", "a control key or an operator session is required");
  return { tenantId: credential.tenantId, env: env ?? "test", actor: actorOf(credential), owner: { issuer: credential.issuer, subject: credential.subject } };
}

/** Appends the new handle to the application's redirect URL. */
export function redirectWith(redirectUrl: string, params: Record<string, string>): string {
  const target = new URL(redirectUrl);
  for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
  return target.toString();
}

/** Origins a post from the page may be redirected to: the providers' authorize pages, the application's redirect URL. */
const formTargetsOf = (session: OpenSession) => [
  ...session.options.flatMap((option) => (option.authorizeOrigin ? [option.authorizeOrigin] : [])),
  ...(session.row.redirect_url ? [new URL(session.row.redirect_url).origin] : []),
];

type ConnectRouteDeps = {
  connectSessions: ConnectSessionService;
  pageGuard: ConnectPageGuard;
  publicUrl: string;
  /** The tenant's name and logo for its end users' pages. */
  pageBranding: (tenantId: string) => Promise<PageBranding>;
  now: () => Date;
};

export function registerConnectRoutes(app: App, deps: ConnectRouteDeps) {
  const tags = ["connect sessions"];
  const scriptUrl = `${deps.publicUrl}${LOCAL_TIME_SCRIPT_PATH}`;

  app.post(
    "/v1/connect-sessions",
    {
      config: { credentials: ["control_key", "operator"], role: "admin", validationError: { status: 422, code: "invalid_request" } },
      schema: {
        tags,
        summary: "Let one of your end users connect their own accounts through a hosted page",
        description:
          `Returns \`connect_url\`, valid ${CONNECT_SESSION_TTL_MS / 60_000} minutes. Connections made there belong to \`end_user_id\`: ` +
          "only broker tokens acting for that end user can use them. The env is the control key's (operators name it; default test). " +
          "The session may connect each provider several times. 422 invalid_request names the field; 422 provider_not_configured for a provider that cannot be connected; " +
          "403 environment_mismatch when a control key names another env.",
        body: CreateBody,
        response: { 201: ConnectSession, ...errorResponses(400, 401, 403, 413, 415, 422, 503) },
      },
    },
    async (request, reply) => {
      const { env, ...input } = request.body;
      reply.code(201);
      return deps.connectSessions.create(creatorOf(request.credential, env), input);
    },
  );

  app.get(
    "/connect/:token",
    {
      config: { htmlErrors: explainConnectError },
      schema: {
        tags,
        summary: "The hosted connect page (HTML)",
        description:
          "Lists the session's providers: a button (form) per OAuth provider, a form per API-key provider; the forms carry a token bound to this browser " +
          "(a cookie the page sets). It shows the tenant's branding (`PATCH /v1/branding`), each provider's icon and the scopes its OAuth flow asks for, in plain words, " +
          "and the expiry in the reader's time zone (a script the broker serves; UTC without it). " +
          "404 not_found for an unknown or cancelled link (its end user deleted, or the control key that made it revoked), 410 connect_session_expired; " +
          "to a browser (Accept: text/html) each is a page saying which, and to ask the app for a new link.",
        params: TokenParams,
        response: { 200: Html, ...PAGE_ERRORS },
      },
    },
    async (request, reply) => {
      const session = await deps.connectSessions.open(request.params.token);
      const pageToken = deps.pageGuard.issue(request, reply, session.row.id);
      const html = choosePage({
        connectUrl: `${deps.publicUrl}/connect/${request.params.token}`,
        pageToken,
        options: session.options,
        expiresAt: session.row.expires_at,
        now: deps.now(),
        branding: await deps.pageBranding(session.row.tenant_id),
        scriptUrl,
      });
      return sendPage(reply, 200, html, formTargetsOf(session), { dataImages: true, scripts: [scriptUrl] });
    },
  );

  // A static asset of the page, not an API operation: kept out of the OpenAPI description like the console's files.
  app.get(LOCAL_TIME_SCRIPT_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply
      .header("content-type", "text/javascript; charset=utf-8")
      .header("cache-control", "public, max-age=3600")
      .header("x-content-type-options", "nosniff")
      .send(LOCAL_TIME_SCRIPT),
  );

  app.get(
    "/connect/:token/:provider",
    {
      config: { htmlErrors: explainConnectError },
      schema: {
        tags,
        summary: "A page leading back to the connect page (a visit here starts nothing)",
        description: "Connecting starts with a post from the connect page's button, never with a navigation (a link someone else sent). 403 forbidden for a provider the session does not offer.",
        params: ProviderParams,
        response: { 200: Html, ...PAGE_ERRORS, ...errorResponses(503) },
      },
    },
    async (request, reply) => {
      const session = await deps.connectSessions.open(request.params.token);
      const option = deps.connectSessions.offered(session, request.params.provider);
      return sendPage(reply, 200, startFromPage(`${deps.publicUrl}/connect/${request.params.token}`, option));
    },
  );

  app.register(async (forms) => {
    // The connect page's forms are the one place a browser posts a form: parsed here only, everything else stays JSON.
    forms.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    forms.post(
      "/connect/:token/:provider",
      {
        config: { htmlErrors: explainConnectError },
        bodyLimit: 16 * 1024,
        schema: {
          tags,
          summary: "Start connecting one provider through OAuth, from the connect page's button (303 to the provider)",
          description:
            `Form field \`${PAGE_TOKEN_FIELD}\` from the page, with the cookie the page set. 403 forbidden when the post did not come from this browser's view of the page ` +
            "(no or another token or cookie, a cross-site `Sec-Fetch-Site` or `Origin`) or for a provider the session does not offer; 422 unprocessable for an API-key-only provider. " +
            "A provider that asks for per-connection values (its `connect_input` connection values, e.g. a Zendesk subdomain) takes each as the field `value_<name>`; a missing or refused one is 422 invalid_request.",
          params: ProviderParams,
          consumes: ["application/x-www-form-urlencoded"],
          body: StartForm,
          response: { 303: Type.Null(), ...PAGE_ERRORS, ...errorResponses(413, 415, 503) },
        },
      },
      async (request, reply: FastifyReply) => {
        const { token, provider } = request.params as { token: string; provider: string };
        const session = await deps.connectSessions.open(token);
        deps.pageGuard.check(request, session.row.id, (request.body as Static<typeof StartForm>)[PAGE_TOKEN_FIELD]);
        const { authorizeUrl, state } = await deps.connectSessions.beginOAuth(session, provider, valuesOf(request.body as Record<string, unknown>));
        bindToBrowser(reply, state, deps.publicUrl.startsWith("https:"));
        return reply.header("cache-control", "no-store").header("referrer-policy", "no-referrer").redirect(authorizeUrl, 303);
      },
    );
    forms.post(
      "/connect/:token/:provider/api-key",
      {
        config: { htmlErrors: explainConnectError },
        // On the route, not the parser, so the 413 names the limit that applied.
        bodyLimit: 16 * 1024,
        schema: {
          tags,
          summary: "Store an end user's API key from the hosted page",
          description:
            `Form fields \`api_key\`, the page's \`${PAGE_TOKEN_FIELD}\` (403 forbidden without it, as for the OAuth start) and \`value_<name>\` for each value the provider asks for (422 invalid_request when missing or refused; ` +
            "422 invalid_request too for a key that is not `user:password` where the provider sends it as HTTP Basic). " +
            "Becomes a write-only secret item of the session's end user; then 303 to the redirect URL with `secret_item_id`, or a page.",
          params: ProviderParams,
          consumes: ["application/x-www-form-urlencoded"],
          body: ApiKeyForm,
          response: { 200: Html, 303: Type.Null(), ...PAGE_ERRORS, ...errorResponses(409, 413, 415, 503) },
        },
      },
      async (request, reply: FastifyReply) => {
        const { token, provider } = request.params as { token: string; provider: string };
        const form = request.body as Static<typeof ApiKeyForm>;
        const session = await deps.connectSessions.open(token);
        deps.pageGuard.check(request, session.row.id, form[PAGE_TOKEN_FIELD]);
        const { item, redirectUrl, displayName } = await deps.connectSessions.saveApiKey(session, provider, form.api_key, valuesOf(form));
        if (redirectUrl) return reply.header("cache-control", "no-store").redirect(redirectWith(redirectUrl, { secret_item_id: item.secret_item_id, provider }), 303);
        return sendPage(reply, 200, connectedPage(`Your ${displayName} API key`, `${deps.publicUrl}/connect/${token}`));
      },
    );
  });
}
