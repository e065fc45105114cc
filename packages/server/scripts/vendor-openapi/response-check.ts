/**
 * Whether a tool's response mapping reads what the vendor answers: its `root` and `fields`
 * pointers, and the property names its declared `response.schema` relies on, exist in the
 * operation's 2xx JSON response schema.
 */
import type { ToolDeclaration } from "../../src/providers/declaration-schema.js";
import { allowsType, deref, describeTypes, itemViews, propertyOf, typesOf, viewsOf, viewsOfAll, type Json, type OpenApiDocument, type SchemaView } from "./schema-views.js";
import { knownList } from "./value-check.js";

export type SuccessResponse = { status: string; schema: Json | undefined };

const isJsonMedia = (media: string) => /json/i.test(media) || media === "*/*";

/** The first 2xx response (by status) and its JSON schema, if it has one. */
export function successResponse(doc: OpenApiDocument, operation: Json): SuccessResponse | undefined {
  const statuses = Object.keys(operation.responses ?? {})
    .filter((status) => /^2(\d\d|XX)$/i.test(status))
    .sort();
  let first: SuccessResponse | undefined;
  for (const status of statuses) {
    const response = deref(doc, operation.responses[status] as Json);
    const media = Object.entries((response.content ?? {}) as Record<string, Json>).find(([type, content]) => isJsonMedia(type) && content.schema);
    if (media) return { status, schema: media[1].schema as Json };
    first ??= { status, schema: undefined };
  }
  return first;
}

const unescapeToken = (token: string) => token.replace(/~1/g, "/").replace(/~0/g, "~");

/** The views a pointer names, or the step where it leaves the schema. */
export function viewsAtPointer(doc: OpenApiDocument, views: SchemaView[], pointer: string): { views: SchemaView[] } | { problem: string } {
  if (pointer === "") return { views };
  let current = views;
  let walked = "";
  for (const token of pointer.slice(1).split("/").map(unescapeToken)) {
    const items = /^(0|[1-9]\d*)$/.test(token) ? itemViews(doc, current) : undefined;
    if (items) current = items;
    else {
      const lookup = propertyOf(current, token);
      if (!lookup.found) return { problem: `${walked}/${token} is not in the schema${knownList(lookup.known)}` };
      if (lookup.freeForm) return { views: viewsOf(doc, {}) };
      current = viewsOfAll(doc, lookup.schemas);
    }
    walked += `/${token}`;
  }
  return { views: current };
}

/** `fields` apply to each element when the root is an array: the item views then, else the root's. */
function fieldBases(doc: OpenApiDocument, rootViews: SchemaView[]): SchemaView[][] {
  const items = itemViews(doc, rootViews);
  const objects = rootViews.filter((view) => allowsType(view, "object") && view.types !== undefined);
  if (items && !objects.length) return [items];
  return items ? [rootViews, items] : [rootViews];
}

/** The declared schema's property names (and item and type shapes) against the vendor's. */
function checkDeclaredSchema(doc: OpenApiDocument, declared: Json, views: SchemaView[], where: string, problems: string[]) {
  const declaredTypes = typeof declared.type === "string" ? [declared.type] : Array.isArray(declared.type) ? (declared.type as string[]) : [];
  const vendorTypes = typesOf(views);
  if (declaredTypes.length && vendorTypes && !declaredTypes.some((type) => type !== "null" && views.some((view) => allowsType(view, type) || (type === "number" && view.types?.has("integer"))))) {
    problems.push(`response.schema ${where || "(the body)"} is ${declaredTypes.join(" | ")}, the description's is ${describeTypes(vendorTypes)}`);
    return;
  }
  const names = new Set([...Object.keys((declared.properties ?? {}) as Json), ...((declared.required ?? []) as string[])]);
  for (const name of names) {
    const lookup = propertyOf(views, name);
    if (!lookup.found) problems.push(`response.schema names ${where}/${name}, which is not in the description's response${knownList(lookup.known)}`);
    else if (!lookup.freeForm && declared.properties?.[name]) checkDeclaredSchema(doc, declared.properties[name] as Json, viewsOfAll(doc, lookup.schemas), `${where}/${name}`, problems);
  }
  if (declared.items && typeof declared.items === "object") {
    const items = itemViews(doc, views);
    if (items) checkDeclaredSchema(doc, declared.items as Json, items, `${where}/items`, problems);
  }
}

/**
 * The fields a tool asks for by name in the operation's `opt_fields` parameter (Asana's: the
 * description answers compact records and says this parameter lists "the exact set of fields that
 * the API should be sure to return"), with their parents (`assignee.name` → `assignee` too).
 */
function requestedFields(parameters: Json[], tool: ToolDeclaration): Set<string> {
  const asked = tool.request.query?.opt_fields;
  const described = parameters.some((parameter) => parameter.in === "query" && parameter.name === "opt_fields");
  const out = new Set<string>();
  if (!asked || !described || /[{}]/.test(asked)) return out;
  for (const path of asked.split(",").map((entry) => entry.trim())) {
    const parts = path.split(".");
    for (let i = 1; i <= parts.length; i++) out.add(parts.slice(0, i).join("."));
  }
  return out;
}

/** Problems with the tool's mapping of the operation's answer, and notes of what could not be checked. */
export function checkResponseMapping(doc: OpenApiDocument, operation: Json, parameters: Json[], label: string, tool: ToolDeclaration): { problems: string[]; notes: string[] } {
  const problems: string[] = [];
  const notes: string[] = [];
  const mapping = tool.response;
  const declared = mapping?.schema as Json | undefined;
  const readsBody = mapping?.root !== undefined || mapping?.fields !== undefined || (declared && (declared.properties || declared.items || declared.required));
  if (!readsBody) return { problems, notes };
  const success = successResponse(doc, operation);
  if (!success) {
    problems.push(`${label} has no 2xx response in the description, but the tool maps one`);
    return { problems, notes };
  }
  if (!success.schema) {
    notes.push(`${label} answers ${success.status} without a JSON schema in the description: the response mapping is not checked`);
    return { problems, notes };
  }
  const bodyViews = viewsOf(doc, success.schema);
  const what = `${label}'s ${success.status} response`;
  if (declared) {
    const declaredProblems: string[] = [];
    checkDeclaredSchema(doc, declared, bodyViews, "", declaredProblems);
    problems.push(...declaredProblems.map((problem) => `${problem} (${what})`));
  }
  let rootViews = bodyViews;
  if (mapping?.root !== undefined) {
    const root = viewsAtPointer(doc, bodyViews, mapping.root);
    if ("problem" in root) {
      problems.push(`root ${mapping.root}: ${root.problem} of ${what}`);
      return { problems, notes };
    }
    rootViews = root.views;
  }
  const requested = requestedFields(parameters, tool);
  for (const [field, pointer] of Object.entries(mapping?.fields ?? {})) {
    const attempts = fieldBases(doc, rootViews).map((base) => viewsAtPointer(doc, base, pointer));
    const failed = attempts.find((attempt): attempt is { problem: string } => "problem" in attempt);
    if (failed && requested.has(pointer.slice(1).split("/").map(unescapeToken).join("."))) {
      notes.push(`${label}: field ${field} (${pointer}) is outside the described (compact) response; taken as answered because the tool asks for it in opt_fields`);
    } else if (failed && attempts.every((attempt) => "problem" in attempt)) problems.push(`field ${field} (${pointer}): ${failed.problem} of ${what}${mapping?.root ? ` at root ${mapping.root}` : ""}`);
  }
  return { problems, notes };
}
