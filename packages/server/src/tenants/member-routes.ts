import { Type } from "@sinclair/typebox";
import type { App } from "../http/app-type.js";
import { actorOf, operatorOf } from "../http/credentials.js";
import { errorResponses, IdParams, StringEnum, Timestamp, Uuid } from "../http/schemas.js";
import type { MemberProfiles } from "./member-profiles.js";

const GroupName = Type.String({ pattern: "^[A-Za-z0-9_.-]{1,64}$", description: "A group policy rules may name as approvers" });
const SlackUserId = Type.String({ pattern: "^[A-Z0-9]{1,32}:[A-Z0-9]{1,32}$", description: "<team id>:<user id>, as Slack sends them (T0123ABC:U0456DEF)" });
const Email = Type.String({ format: "email", maxLength: 254 });
const DisplayName = Type.String({ minLength: 1, maxLength: 100, pattern: "^[^\\u0000-\\u001F\\u007F]+$" });

const Member = Type.Object({
  id: Uuid,
  issuer: Type.String(),
  subject: Type.String(),
  role: StringEnum(["admin", "viewer"] as const),
  email: Type.Union([Type.String(), Type.Null()]),
  display_name: Type.Union([Type.String(), Type.Null()]),
  slack_user_id: Type.Union([Type.String(), Type.Null()]),
  groups: Type.Array(Type.String()),
  created_at: Timestamp,
});

const MemberPatch = Type.Object(
  {
    email: Type.Optional(Type.Union([Email, Type.Null()])),
    display_name: Type.Optional(Type.Union([DisplayName, Type.Null()])),
    slack_user_id: Type.Optional(Type.Union([SlackUserId, Type.Null()])),
    groups: Type.Optional(Type.Union([Type.Array(GroupName, { maxItems: 50 }), Type.Null()])),
  },
  { additionalProperties: false, minProperties: 1 },
);

export function registerMemberRoutes(app: App, deps: { memberProfiles: MemberProfiles }) {
  const tags = ["members"];
  app.get(
    "/v1/members",
    {
      config: { credentials: ["operator"] },
      schema: { tags, summary: "The tenant's members, oldest first", response: { 200: Type.Object({ data: Type.Array(Member) }), ...errorResponses(401) } },
    },
    async (request) => ({ data: await deps.memberProfiles.list(request.credential.tenantId) }),
  );

  app.patch(
    "/v1/members/:id",
    {
      config: { credentials: ["operator"] },
      schema: {
        tags,
        summary: "Change what approvals know of a member: email and Slack identity (the member themselves), display name and groups (admins)",
        description:
          "Only the fields sent change; null clears one. `email` and `slack_user_id` reach the member and act as them (approval emails, Slack buttons), " +
          "so only the member themselves sets them: 403 forbidden for anyone else, admins included. `display_name` and `groups` need the admin role (403 forbidden). " +
          "409 conflict when another member already has the Slack identity; 404 for another tenant's member.",
        params: IdParams,
        body: MemberPatch,
        response: { 200: Member, ...errorResponses(400, 401, 403, 404, 409, 415) },
      },
    },
    async (request) => {
      const operator = operatorOf(request);
      return deps.memberProfiles.update(operator.tenantId, request.params.id, request.body, { memberId: operator.memberId, role: operator.role, actor: actorOf(operator) });
    },
  );
}
