/**
 * The published JSON Schema of provider and tool declarations: what a tenant sends to
 * `POST /v1/providers` and `POST /v1/providers/{id}/tools`, what `GET /v1/catalogue/schema`
 * serves, and what the built-in catalogue is checked against. TypeBox gives the schema and the
 * TypeScript types from one source.
 */
import { Type, type Static } from "@sinclair/typebox";
import { StringEnum } from "../http/schemas.js";

export const PROVIDER_ID_PATTERN = "^[a-z][a-z0-9_-]{1,39}$";
export const OPERATION_PATTERN = "[a-z][a-z0-9_]{0,63}";
export const TOOL_NAME_PATTERN = `^[a-z][a-z0-9_-]{1,39}\\.${OPERATION_PATTERN}$`;
/** Limits every declaration keeps, so no tool costs more than a bounded amount of work per call. */
export const DECLARATION_LIMITS = {
  /** Output fields of `response.fields`. */
  responseFields: 200,
  /** Reference tokens of one JSON pointer (its nesting depth). */
  pointerTokens: 32,
  /** Entries of `request.query` and of `request.headers`. */
  queryTemplates: 100,
  headerTemplates: 50,
  /** Strings (templates) in `request.body`, its nesting depth, and its size as JSON. */
  bodyTemplates: 500,
  bodyDepth: 16,
  bodyBytes: 64 * 1024,
} as const;

/** A JSON pointer (RFC 6901): empty for the whole document, or at most 32 `/`-separated tokens. */
const JSON_POINTER = `^(/([^~/]|~[01])*){0,${DECLARATION_LIMITS.pointerTokens}}$`;
/** Header names as HTTP allows them (RFC 9110 token characters). */
const HEADER_NAME = "^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$";

const Pointer = Type.String({ pattern: JSON_POINTER, maxLength: 500, description: `A JSON pointer, e.g. /data/items (at most ${DECLARATION_LIMITS.pointerTokens} tokens)` });
const HttpsUrl = Type.String({ minLength: 8, maxLength: 2000, description: "An absolute https URL (http only where the broker allows private addresses)" });
const Template = Type.String({
  maxLength: 2000,
  description: "Text with `{argument}` placeholders. A value that is exactly one placeholder keeps the argument's JSON type; a missing argument leaves the entry out.",
});
const ArgumentName = Type.String({ pattern: "^[A-Za-z_][A-Za-z0-9_-]{0,99}$" });

export const OAuth2Auth = Type.Object(
  {
    type: Type.Literal("oauth2"),
    authorize_url: HttpsUrl,
    token_url: HttpsUrl,
    revocation_url: Type.Optional(HttpsUrl),
    scopes: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200, pattern: "^[\\x21-\\x7e]+$" }), { maxItems: 100, description: "Scopes asked for by default" })),
    scope_separator: Type.Optional(StringEnum([" ", ","] as const, { description: "How scopes are joined in the authorize URL (default a space)" })),
    pkce: Type.Optional(Type.Boolean({ description: "Send a PKCE S256 challenge (default true)" })),
    authorize_params: Type.Optional(
      Type.Record(Type.String({ pattern: "^[A-Za-z0-9_.-]{1,100}$" }), Type.String({ maxLength: 500 }), { description: "Extra authorize URL parameters, e.g. {\"prompt\": \"consent\"}" }),
    ),
    refresh: Type.Optional(StringEnum(["refresh_token", "none"] as const, { description: "refresh_token (default): expired tokens are refreshed; none: the provider's tokens do not expire" })),
    revocation_style: Type.Optional(
      StringEnum(["rfc7009", "bearer"] as const, {
        description:
          "How revocation_url is called: rfc7009 (default) POSTs a form with token, client_id and client_secret; bearer POSTs an empty form authorised by the token itself as a Bearer (Slack, Linear)",
      }),
    ),
    invalid_grant_errors: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 100, pattern: "^[\\x21-\\x7e]+$" }), {
        minItems: 1,
        maxItems: 20,
        description: "Token endpoint error codes meaning the refresh token is dead, so the connection becomes expired (default [\"invalid_grant\"]; GitHub also says bad_refresh_token)",
      }),
    ),
    client_auth: Type.Optional(
      StringEnum(["client_secret_post", "client_secret_basic"] as const, {
        description: "How the token endpoint is told the client: client_secret_post (default) sends client_id and client_secret in the form; client_secret_basic in an HTTP Basic header (Notion, Zoom)",
      }),
    ),
    extra_token_types: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 50, pattern: "^[A-Za-z0-9_.-]+$" }), {
        maxItems: 10,
        description: "token_type values besides Bearer the token endpoint may answer with and the broker accepts (Slack: bot, user)",
      }),
    ),
  },
  { additionalProperties: false },
);

export const ApiKeyAuth = Type.Object(
  {
    type: Type.Literal("api_key"),
    in: StringEnum(["header", "query"] as const, { description: "Where the key travels" }),
    name: Type.String({ minLength: 1, maxLength: 100, pattern: "^[A-Za-z0-9_.-]+$", description: "The header or query parameter name, e.g. Authorization or api_key" }),
    prefix: Type.Optional(Type.String({ maxLength: 50, pattern: "^[\\x20-\\x7e]*$", description: "Put before the key, e.g. \"Bearer \"" })),
    format: Type.Optional(
      StringEnum(["raw", "basic"] as const, {
        description: "raw (default): the key is sent as it is; basic: the stored key is `user:password` and is sent base64-encoded after the prefix (use prefix \"Basic \"), as Zendesk's `email/token:api_token`",
      }),
    ),
  },
  { additionalProperties: false },
);

const ValueName = Type.String({ pattern: "^[a-z][a-z0-9_]{0,39}$" });

/**
 * A value kept with each connection and used in its URLs (`{name}` in api_base_url). Where it comes
 * from decides how far it is trusted: a value a person types is one DNS label or path segment and
 * never chooses a host on its own; an origin from a token response must match `allowed_hosts`.
 */
export const ConnectionValueDeclaration = Type.Union(
  [
    Type.Object(
      {
        source: Type.Literal("token_response"),
        pointer: Pointer,
        kind: Type.Optional(StringEnum(["origin", "segment"] as const, { description: "origin: an https origin (Salesforce instance_url); segment (default): one path segment" })),
        allowed_hosts: Type.Optional(
          Type.Array(Type.String({ minLength: 1, maxLength: 253, pattern: "^(\\*\\.)?[a-z0-9.-]+$" }), { maxItems: 20, description: "Host names an origin value may have; `*.` matches one or more labels" }),
        ),
      },
      { additionalProperties: false },
    ),
    Type.Object(
      {
        source: Type.Literal("api"),
        path: Type.String({ minLength: 1, maxLength: 500, pattern: "^/", description: "GET this path on the API base URL's origin with the new token (Atlassian: /oauth/token/accessible-resources)" }),
        pointer: Pointer,
        display_pointer: Type.Optional(Pointer),
        pattern: Type.String({ minLength: 1, maxLength: 200, description: "The value must match it (one path segment at most)" }),
      },
      { additionalProperties: false },
    ),
    Type.Object(
      {
        source: Type.Literal("connect_input"),
        label: Type.String({ minLength: 1, maxLength: 100 }),
        description: Type.Optional(Type.String({ maxLength: 500 })),
        pattern: Type.String({ minLength: 1, maxLength: 200, description: "The value must match it; it is always one DNS label (letters, digits, '-'), whatever the pattern" }),
      },
      { additionalProperties: false },
    ),
  ],
  { description: "Where a per-connection value comes from" },
);

export const ProviderDeclaration = Type.Object(
  {
    id: Type.String({ pattern: PROVIDER_ID_PATTERN, description: "Lower-case id; tools are named `<id>.<operation>`" }),
    display_name: Type.String({ minLength: 1, maxLength: 100, pattern: "^[^\\u0000-\\u001F\\u007F]+$" }),
    description: Type.Optional(Type.String({ maxLength: 500, description: "One line on what the provider is, shown in the console" })),
    icon: Type.Optional(Type.String({ maxLength: 20_000, pattern: "^(https://|data:image/(svg\\+xml|png);base64,)", description: "An https URL or a data: URI (SVG or PNG) shown in the console and as the MCP tools' icon" })),
    docs_url: Type.Optional(HttpsUrl),
    api_base_url: Type.String({ ...HttpsUrl, description: "An absolute https URL; it may name per-connection values as `{name}` (see connection_values)" }),
    connection_values: Type.Optional(Type.Record(ValueName, ConnectionValueDeclaration, { maxProperties: 10, description: "Values kept with each connection and used in its URLs" })),
    // `type: "object"` and `required` here, not only in the branches: a validator that honours
    // `discriminator` skips `oneOf`, and its discriminator keyword only applies to objects.
    auth: Type.Unsafe<Static<typeof OAuth2Auth> | Static<typeof ApiKeyAuth>>({
      type: "object",
      required: ["type"],
      oneOf: [OAuth2Auth, ApiKeyAuth],
      discriminator: { propertyName: "type" },
      description: "oauth2 (authorization code with PKCE) or api_key",
    }),
    default_headers: Type.Optional(Type.Record(Type.String({ pattern: HEADER_NAME }), Type.String({ maxLength: 1000, pattern: "^[\\x20-\\x7e]*$" }), { description: "Headers every call carries" })),
    case_insensitive_arguments: Type.Optional(Type.Array(ArgumentName, { maxItems: 50, description: "Argument names the API compares without case; policy conditions on them ignore case too" })),
    identity: Type.Optional(
      Type.Object(
        {
          path: Type.String({ minLength: 1, maxLength: 500, pattern: "^/", description: "GET this path with the new token to learn who connected" }),
          account_id: Pointer,
          display_name: Type.Optional(Pointer),
        },
        { additionalProperties: false, description: "How a new OAuth connection learns its account (without it the connection's account is the provider's display name)" },
      ),
    ),
  },
  { additionalProperties: false, $id: "ProviderDeclaration", title: "Provider declaration" },
);

export const ToolRequest = Type.Object(
  {
    method: StringEnum(["GET", "POST", "PUT", "PATCH", "DELETE"] as const),
    path: Type.String({ minLength: 1, maxLength: 1000, pattern: "^/", description: "Relative to the API base URL; `{argument}` placeholders are percent-encoded" }),
    query: Type.Optional(Type.Record(Type.String({ minLength: 1, maxLength: 100 }), Template, { maxProperties: DECLARATION_LIMITS.queryTemplates })),
    headers: Type.Optional(Type.Record(Type.String({ pattern: HEADER_NAME }), Template, { maxProperties: DECLARATION_LIMITS.headerTemplates })),
    body: Type.Optional(
      Type.Unknown({
        description:
          `JSON sent as the body; strings in it are templates ("{body}" sends the argument \`body\` as it is). At most ${DECLARATION_LIMITS.bodyTemplates} strings, ` +
          `${DECLARATION_LIMITS.bodyDepth} levels of nesting and ${DECLARATION_LIMITS.bodyBytes} bytes of JSON`,
      }),
    ),
    body_encoding: Type.Optional(StringEnum(["json", "form"] as const, { description: "json (default) or application/x-www-form-urlencoded" })),
  },
  { additionalProperties: false },
);

export const ToolResponse = Type.Object(
  {
    schema: Type.Optional(
      Type.Object({}, {
        additionalProperties: true,
        description: "JSON Schema the 2xx body must match before it is mapped; a body that does not is an upstream_error (reason unexpected_response). Without it any JSON is taken",
      }),
    ),
    root: Type.Optional(Pointer),
    fields: Type.Optional(
      Type.Record(Type.String({ minLength: 1, maxLength: 100 }), Pointer, {
        maxProperties: DECLARATION_LIMITS.responseFields,
        description:
          `Output field → pointer into the root (applied to each element when the root is an array); without it the whole root is returned. At most ${DECLARATION_LIMITS.responseFields} fields. ` +
          "A call whose mapping would take more than 200,000 element × field steps, or whose result holds more than 100,000 values, is refused: upstream_error, reason response_too_large",
      }),
    ),
  },
  { additionalProperties: false },
);

export const ToolDeclaration = Type.Object(
  {
    name: Type.String({ pattern: TOOL_NAME_PATTERN, description: "`<provider>.<operation>`" }),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "A short human title (MCP `title`)" })),
    description: Type.String({ minLength: 1, maxLength: 4000 }),
    arguments_schema: Type.Object({}, { additionalProperties: true, description: "JSON Schema of the arguments (type object)" }),
    risk: StringEnum(["low", "high"] as const, { description: "high needs a person's approval unless policy says otherwise" }),
    side_effect: StringEnum(["read", "write"] as const),
    destructive: Type.Optional(Type.Boolean()),
    idempotent: Type.Optional(Type.Boolean({ description: "Repeating the call with the same arguments has no further effect (MCP idempotentHint); reads always are" })),
    scopes: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200, pattern: "^[\\x21-\\x7e]+$" }), { maxItems: 20, description: "OAuth scopes the tool needs" })),
    case_insensitive_arguments: Type.Optional(Type.Array(ArgumentName, { maxItems: 50 })),
    request: ToolRequest,
    response: Type.Optional(ToolResponse),
  },
  { additionalProperties: false, $id: "ToolDeclaration", title: "Tool declaration" },
);

export type ProviderDeclaration = Static<typeof ProviderDeclaration>;
export type ToolDeclaration = Static<typeof ToolDeclaration>;
export type ToolRequestDeclaration = Static<typeof ToolRequest>;

/** The document served at GET /v1/catalogue/schema and kept in docs/catalogue.schema.json. */
export const CATALOGUE_SCHEMA = {
  $schema: "http://json-schema.org/draft-07/schema#",
  $id: "https://toolbroker.dev/schemas/catalogue.json",
  title: "Toolbroker catalogue declarations",
  description: "A provider declaration (POST /v1/providers) and a tool declaration (POST /v1/providers/{id}/tools).",
  definitions: { ProviderDeclaration, ToolDeclaration },
} as const;
