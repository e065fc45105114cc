import { Type } from "@sinclair/typebox";
import type { App } from "../http/app-type.js";
import { actorOf } from "../http/credentials.js";
import { EndUserId, EnvSchema, errorResponses, Timestamp } from "../http/schemas.js";
import type { EndUserService } from "./end-user-service.js";

const EndUser = Type.Object(
  {
    end_user_id: Type.String(),
    connection_count: Type.Integer({ description: "Active connections" }),
    secret_item_count: Type.Integer(),
    first_seen_at: Timestamp,
    last_used_at: Type.Union([Timestamp, Type.Null()], { description: "Last tool call with one of their connections or keys" }),
  },
  { $id: "EndUser", description: "One of your users, seen through the connections and keys they own" },
);

const ListQuery = Type.Object(
  {
    env: Type.Optional(EnvSchema),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    cursor: Type.Optional(Type.String({ maxLength: 1024 })),
  },
  { additionalProperties: false },
);

export function registerEndUserRoutes(app: App, deps: { endUsers: EndUserService }) {
  const tags = ["end users"];

  app.get(
    "/v1/end-users",
    {
      // Admins only, like the end users' connections themselves.
      config: { credentials: ["operator"], role: "admin" },
      schema: {
        tags,
        summary: "End users who own connections or keys, by id",
        description: "An end user appears once a connection or secret item belongs to them (revoked connections included, counted out of `connection_count`).",
        querystring: ListQuery,
        response: { 200: Type.Object({ data: Type.Array(EndUser), next_cursor: Type.Union([Type.String(), Type.Null()]) }), ...errorResponses(400, 401, 403, 503) },
      },
    },
    async (request) => {
      const { limit, ...filter } = request.query;
      return deps.endUsers.list(request.credential.tenantId, { ...filter, limit: limit ?? 50 });
    },
  );

  app.delete(
    "/v1/end-users/:end_user_id",
    {
      config: { credentials: ["operator"], role: "admin" },
      schema: {
        tags,
        summary: "Delete an end user's connections and keys",
        description:
          "Revokes every connection of the end user (upstream revocation attempted, one `connection.revoked` event each) and deletes their secret items. " +
          "Answers 200 with the counts, also when there was nothing left to delete, so it can be retried safely. Percent-encode the id in the path.",
        params: Type.Object({ end_user_id: EndUserId }),
        response: {
          200: Type.Object({ end_user_id: Type.String(), connections_revoked: Type.Integer(), secret_items_deleted: Type.Integer() }),
          ...errorResponses(400, 401, 403, 503),
        },
      },
    },
    async (request) => deps.endUsers.delete(request.credential.tenantId, request.params.end_user_id, actorOf(request.credential)),
  );
}
