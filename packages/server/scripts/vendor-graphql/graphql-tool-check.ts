/**
 * One GraphQL tool (a POST of `{query, variables}`) against the vendor's schema: the document is
 * valid (graphql-js `validate`); each variable the tool sends is one the operation declares, typed
 * alike, input objects' fields the input type's, required ones (non-null without a default) always
 * sent; and the declared response schema's names and the mapping's pointers are in what the
 * operation selects (`data.<alias or field>…`).
 */
import {
  getNullableType,
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLScalarType,
  Kind,
  parse,
  typeFromAST,
  validate,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";
import { exampleRequests, toolArguments, type ToolUnderCheck } from "../vendor-openapi/tool-check.js";
import { alwaysSent, classifyTemplate, knownList, type ToolArguments } from "../vendor-openapi/value-check.js";

type Json = Record<string, any>;
type Check = { args: ToolArguments; problems: string[] };

/** The JSON types a GraphQL scalar takes as a variable's value (custom scalars: any). */
const SCALAR_JSON_TYPES: Record<string, string[]> = { Int: ["integer"], Float: ["integer", "number"], String: ["string"], ID: ["string", "integer"], Boolean: ["boolean"] };

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function argumentTypes(schema: Json): string[] {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return (schema.type as string[]).filter((type) => type !== "null");
  return [];
}

/** One value (by its JSON types and enum values) against an input type; lists take a single value too. */
function checkAgainst(types: string[], enumValues: unknown[] | undefined, type: GraphQLInputType, where: string, check: Check, inner?: (t: GraphQLInputType) => void) {
  const nullable = getNullableType(type) as GraphQLInputType;
  if (nullable instanceof GraphQLList) {
    if (types.includes("array")) inner?.(nullable.ofType as GraphQLInputType);
    else checkAgainst(types, enumValues, nullable.ofType as GraphQLInputType, where, check, inner);
    return;
  }
  if (nullable instanceof GraphQLScalarType) {
    const accepted = SCALAR_JSON_TYPES[nullable.name];
    if (accepted && types.some((t) => !accepted.includes(t))) check.problems.push(`${where}: ${types.join(" | ")} is sent, the schema's type is ${nullable.name}`);
  } else if (nullable instanceof GraphQLEnumType) {
    if (types.some((t) => t !== "string")) check.problems.push(`${where}: ${types.join(" | ")} is sent, the schema's type is the enum ${nullable.name}`);
    const names = nullable.getValues().map((value) => value.name);
    const outside = (enumValues ?? []).filter((value) => !names.includes(String(value)));
    if (outside.length) check.problems.push(`${where}: ${outside.map((v) => JSON.stringify(v)).join(", ")} not among ${nullable.name}'s values${knownList(names)}`);
  } else if (nullable instanceof GraphQLInputObjectType) {
    if (types.some((t) => t !== "object")) check.problems.push(`${where}: ${types.join(" | ")} is sent, the schema's type is the input ${nullable.name}`);
    else inner?.(nullable);
  }
}

/** A variables template (or what a hook built) against its input type. */
function checkValue(template: unknown, built: unknown, type: GraphQLInputType, where: string, check: Check) {
  const hookWrote = built !== undefined && template === undefined;
  if (typeof template === "string" && !hookWrote) {
    const source = classifyTemplate(template, check.args);
    if (source.kind === "argument") {
      const schema = source.schema;
      checkAgainst(argumentTypes(schema), schema.enum, type, `${where} (argument ${source.name})`, check, (inner) => {
        if (inner instanceof GraphQLInputObjectType) checkObject(Object.fromEntries(Object.keys(schema.properties ?? {}).map((key) => [key, undefined])), undefined, inner, where, check, true);
        else if (schema.items) checkValue(`{__item}`, undefined, inner, `${where}/items`, { ...check, args: { properties: { __item: schema.items }, required: new Set() } });
      });
    } else checkAgainst(["string"], source.kind === "literal" ? [source.value] : undefined, type, where, check);
    return;
  }
  const value = template ?? built;
  if (value === undefined) return;
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const nullable = getNullableType(type);
    if (nullable instanceof GraphQLInputObjectType) checkObject(value as Json, template === undefined ? undefined : (built as Json | undefined), nullable, where, check, false);
    else check.problems.push(`${where}: an object is sent, the schema's type is ${String(type)}`);
    return;
  }
  checkAgainst([jsonType(value)], Array.isArray(value) ? undefined : [value], type, where, check, (inner) => {
    if (Array.isArray(value)) value.forEach((item) => checkValue(typeof item === "string" ? item : undefined, typeof item === "string" ? undefined : item, inner, `${where}/items`, check));
  });
}

function checkObject(fields: Json, built: Json | undefined, type: GraphQLInputObjectType, where: string, check: Check, namesOnly: boolean) {
  const declared = type.getFields();
  for (const name of new Set([...Object.keys(fields), ...Object.keys(built ?? {})])) {
    const field = declared[name];
    if (!field) check.problems.push(`${where}/${name} is not a field of the input ${type.name}${knownList(Object.keys(declared).sort())}`);
    else if (!namesOnly) checkValue(fields[name], built?.[name], field.type, `${where}/${name}`, check);
  }
  if (namesOnly) return;
  for (const [name, field] of Object.entries(declared)) {
    if (!(field.type instanceof GraphQLNonNull) || field.defaultValue !== undefined) continue;
    if ((name in fields && alwaysSent(fields[name], check.args)) || built?.[name] !== undefined) continue;
    check.problems.push(`required ${where}/${name} of the input ${type.name} is ${name in fields ? `sent only when its optional argument is given (${JSON.stringify(fields[name])})` : "not sent"}`);
  }
}

/** What the operation selects: response key → its selection (resolving fragments). */
type Selected = Map<string, Selected>;
function selections(document: DocumentNode, set: SelectionSetNode | undefined): Selected {
  const out: Selected = new Map();
  for (const selection of set?.selections ?? []) {
    if (selection.kind === Kind.FIELD) {
      const key = selection.alias?.value ?? selection.name.value;
      const children = selections(document, selection.selectionSet);
      const existing = out.get(key);
      if (existing) for (const [k, v] of children) existing.set(k, v);
      else out.set(key, children);
    } else {
      const fragmentSet =
        selection.kind === Kind.INLINE_FRAGMENT
          ? selection.selectionSet
          : document.definitions.find((d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === selection.name.value)?.["selectionSet" as never];
      for (const [k, v] of selections(document, fragmentSet as SelectionSetNode | undefined)) out.set(k, v);
    }
  }
  return out;
}

/** A pointer into `{data: …}` names what the operation selects (array indexes pass through lists). */
function pointerProblem(selected: Selected, pointer: string): string | undefined {
  const tokens = pointer.split("/").slice(1);
  if (tokens[0] !== "data") return tokens[0] === "errors" ? undefined : `${pointer}: a GraphQL answer has data and errors, not ${tokens[0]}`;
  let current = selected;
  let walked = "/data";
  for (const token of tokens.slice(1)) {
    if (/^\d+$/.test(token)) continue;
    const next = current.get(token);
    if (!next) return `${pointer}: ${walked}/${token} is not selected by the query${knownList([...current.keys()])}`;
    current = next;
    walked += `/${token}`;
  }
  return undefined;
}

/** The declared response schema's property names under data, against the selection. */
function declaredProblems(declared: Json | undefined, selected: Selected, where: string, out: string[]) {
  for (const [name, property] of Object.entries((declared?.properties ?? {}) as Record<string, Json>)) {
    const next = selected.get(name);
    if (!next) {
      out.push(`response.schema names ${where}/${name}, which the query does not select${knownList([...selected.keys()])}`);
      continue;
    }
    const nested = property.items ?? property;
    if (next.size) declaredProblems(nested, next, `${where}/${name}`, out);
  }
}

export function checkGraphQlTool(schema: GraphQLSchema, input: ToolUnderCheck): { operation?: string; problems: string[] } {
  const { tool } = input;
  const body = tool.request.body as Json | undefined;
  if (tool.request.method !== "POST" || typeof body?.query !== "string") return { problems: ["the tool sends no GraphQL document (a POST with a body whose query is the document)"] };
  const problems: string[] = [];
  const args = toolArguments(tool);
  const built = exampleRequests(input, args, problems);
  let document: DocumentNode;
  try {
    document = parse(body.query);
  } catch (error) {
    return { problems: [`the query does not parse: ${(error as Error).message}`] };
  }
  problems.push(...validate(schema, document).map((error) => `the query is not valid against the schema: ${error.message}`));
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!operation) return { problems: [...problems, "the document has no operation"] };
  const label = `${operation.operation} ${operation.name?.value ?? "(anonymous)"}`;
  const check: Check = { args, problems };
  const variables = new Map(operation.variableDefinitions?.map((definition) => [definition.variable.name.value, definition]) ?? []);
  const templates = (body.variables ?? {}) as Json;
  const fullVariables = ((built.full?.body as Json | undefined)?.variables ?? {}) as Json;
  const minimalVariables = ((built.minimal?.body as Json | undefined)?.variables ?? fullVariables) as Json;
  for (const name of new Set([...Object.keys(templates), ...Object.keys(fullVariables)])) {
    const definition = variables.get(name);
    if (!definition) {
      problems.push(`variable ${name} is not declared by ${label}${knownList([...variables.keys()])}`);
      continue;
    }
    const type = typeFromAST(schema, definition.type as never) as GraphQLInputType | undefined;
    if (type) checkValue(templates[name], name in templates ? undefined : fullVariables[name], type, `variable $${name}`, check);
  }
  for (const [name, definition] of variables) {
    if (definition.type.kind !== Kind.NON_NULL_TYPE || definition.defaultValue) continue;
    if ((name in templates && alwaysSent(templates[name], args)) || minimalVariables[name] !== undefined) continue;
    problems.push(`required variable $${name} of ${label} is ${name in templates ? `sent only when its optional argument is given (${JSON.stringify(templates[name])})` : "not sent"}`);
  }
  const selected = selections(document, operation.selectionSet);
  const data: Selected = new Map([["data", selected]]);
  const mapping = tool.response;
  declaredProblems(mapping?.schema as Json | undefined, data, "", problems);
  for (const pointer of [mapping?.root, ...Object.values(mapping?.fields ?? {}).map((field) => `${mapping?.root ?? ""}${field}`)]) {
    const problem = pointer ? pointerProblem(selected, pointer) : undefined;
    if (problem) problems.push(problem);
  }
  return { operation: label, problems: [...new Set(problems)] };
}
