/**
 * The search, filters and pages of the catalogue's lists (GET /v1/tools, GET /v1/providers/{id}/tools).
 * The catalogue is held in memory, so a page is a slice of the list sorted by tool name, and the
 * cursor is the last name of the page before: a tool added or removed meanwhile moves no other.
 */
import { Type, type Static } from "@sinclair/typebox";
import { decodeCursor, encodeCursor, invalidCursor } from "../http/cursor.js";
import { StringEnum } from "../http/schemas.js";

export const MAX_TOOL_PAGE = 200;
export const DEFAULT_TOOL_PAGE = 50;

export const ToolListFilters = {
  q: Type.Optional(Type.String({ maxLength: 200, description: "Words to search for, e.g. `create issue`: each must appear in the tool's name, MCP name, title or description (case-insensitive)" })),
  risk: Type.Optional(StringEnum(["low", "high"] as const, { description: "Only tools of this risk" })),
  side_effect: Type.Optional(StringEnum(["read", "write"] as const, { description: "Only reads, or only writes" })),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_TOOL_PAGE, description: `Page size (1–${MAX_TOOL_PAGE}; ${DEFAULT_TOOL_PAGE} when only \`cursor\` is given). Without \`limit\` and \`cursor\` the whole match comes in one page` }),
  ),
  cursor: Type.Optional(Type.String({ maxLength: 512, description: "`next_cursor` of the page before" })),
};

const Filters = Type.Object(ToolListFilters);
export type ToolListQuery = Static<typeof Filters>;

export const NextCursor = Type.Union([Type.String(), Type.Null()], { description: "Pass as `cursor` for the next page; null on the last" });

/** The page of `items` (sorted by name) the query asks for, with the cursor of the next one. */
export function pageOfTools<T extends { name: string }>(items: readonly T[], { limit, cursor }: Pick<ToolListQuery, "limit" | "cursor">): { data: T[]; next_cursor: string | null } {
  if (limit === undefined && cursor === undefined) return { data: [...items], next_cursor: null };
  const after = cursor === undefined ? undefined : decodeCursor<{ after: string }>(cursor, ["after"]).after;
  if (after !== undefined && (typeof after !== "string" || after.length > 200)) throw invalidCursor();
  const size = limit ?? DEFAULT_TOOL_PAGE;
  const rest = after === undefined ? items : items.filter((item) => item.name > after);
  const data = rest.slice(0, size);
  return { data, next_cursor: rest.length > size ? encodeCursor({ after: data[data.length - 1]!.name }) : null };
}
