import { Type } from "@sinclair/typebox";
import { EndUserId, StringEnum, Uuid } from "../http/schemas.js";
import { ApprovalNote } from "../invocations/invocation-schema.js";

const NullableUuid = Type.Union([Uuid, Type.Null()]);

export const ExecuteBody = Type.Object(
  {
    tool_name: Type.String({
      minLength: 1,
      maxLength: 200,
      description: "`<provider>.<operation>`, e.g. scm.get_authenticated_user; its MCP name (`scm_get_authenticated_user`) and a provider alias (`github.get_authenticated_user`) name the same tool",
    }),
    arguments: Type.Optional(
      Type.Object({}, {
        additionalProperties: true,
        default: {},
        description: "The tool's arguments (see GET /v1/tools). Optional: left out, they are `{}`, and a tool with required arguments answers 422 invalid_tool_args naming them",
      }),
    ),
    connected_account_id: Type.Optional(NullableUuid),
    secret_item_id: Type.Optional(NullableUuid),
    idempotency_key: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 255 }), Type.Null()])),
    approval_id: Type.Optional(NullableUuid),
    agent_app_id: Type.Optional(Uuid),
    end_user_id: Type.Optional(EndUserId),
  },
  {
    additionalProperties: false,
    description:
      "`agent_app_id` is required with a control key. `end_user_id` makes a control key act for that end user (a broker JWT carries it as a claim; if both name one, they must agree).",
  },
);

export const ContinueBody = Type.Object(
  { end_user_id: Type.Optional(EndUserId) },
  {
    additionalProperties: false,
    description:
      "Usually no body. A control key acting for an end user names it, as on execute; a call is only visible to its own end user. Any other field is refused.",
  },
);

export const ExecuteResult = Type.Object(
  { invocation_id: Uuid, result: Type.Unknown({ description: "Tool-specific, scrubbed of credentials" }), approval: Type.Optional(ApprovalNote) },
  { $id: "ExecuteResult" },
);

export const Tool = Type.Object({
  name: Type.String({ description: "`<provider>.<operation>`: the name execute, policies and audit use" }),
  mcp_name: Type.String({
    pattern: "^[a-zA-Z0-9_-]{1,64}$",
    description: "The name MCP lists it under and model APIs accept (`gmail_send_message`): unique in the tenant's catalogue; execute and MCP tools/call take either",
  }),
  title: Type.Union([Type.String(), Type.Null()], { description: "A short human title, when declared" }),
  description: Type.String(),
  provider: Type.String({ description: "The provider's id (canonical: `scm`, never its alias `github`)" }),
  risk: StringEnum(["low", "high"] as const),
  side_effect: StringEnum(["read", "write"] as const),
  destructive: Type.Boolean({ description: "It deletes or overwrites what was there" }),
  idempotent: Type.Union([Type.Boolean(), Type.Null()], { description: "Repeating it with the same arguments changes nothing more; null when not declared" }),
  scopes: Type.Array(Type.String(), { description: "The OAuth scopes it needs, when declared" }),
  auth_modes: Type.Array(StringEnum(["oauth2", "api_key"] as const)),
  arguments_schema: Type.Object({}, { additionalProperties: true, description: "JSON Schema of `arguments`" }),
});
