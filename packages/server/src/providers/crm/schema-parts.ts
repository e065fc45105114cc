/**
 * Pieces the CRM and productivity providers (Salesforce, HubSpot, Zendesk, Stripe, Notion,
 * Dropbox, Airtable) declare their tools with: model-safe argument schemas, response pointers,
 * the JSON-text arguments that carry a vendor's free-form records, and monogram icons.
 */
import type { ToolDeclaration } from "../declaration-schema.js";
import { BrokerError } from "../../errors.js";

export type JsonSchema = Record<string, unknown>;

export const text = (description: string, maxLength = 1000, extra: JsonSchema = {}): JsonSchema => ({ type: "string", maxLength, description, ...extra });
export const requiredText = (description: string, maxLength = 1000, extra: JsonSchema = {}): JsonSchema => text(description, maxLength, { minLength: 1, ...extra });
export const integer = (description: string, minimum: number, maximum: number): JsonSchema => ({ type: "integer", minimum, maximum, description });
export const boolean = (description: string): JsonSchema => ({ type: "boolean", description });
export const choice = (description: string, values: readonly string[]): JsonSchema => ({ type: "string", enum: [...values], description });
export const textList = (description: string, maxItems: number, itemMaxLength = 200): JsonSchema => ({
  type: "array",
  maxItems,
  items: { type: "string", minLength: 1, maxLength: itemMaxLength, description: "One entry" },
  description,
});

/** An identifier that becomes one path segment: visible characters, no "/" (the template encodes it anyway). */
export const identifier = (description: string, pattern = "^[A-Za-z0-9_.:-]{1,200}$"): JsonSchema => ({ type: "string", pattern, minLength: 1, maxLength: 200, description });

/** A tool's arguments: a closed object whose every property says what it is. */
export function argumentsOf(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return { type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

/** Output field → pointer, each field read from the property of the same name unless mapped. */
export const fieldsOf = (names: readonly string[], renamed: Record<string, string> = {}) => ({
  ...Object.fromEntries(names.map((name) => [name, `/${name}`])),
  ...renamed,
});

export const anyObject = { type: "object" };
export const listIn = (property: string, item: JsonSchema = anyObject): JsonSchema => ({
  type: "object",
  required: [property],
  properties: { [property]: { type: "array", items: item } },
});

/** Every scope the provider's tools need, so one connection serves all its tools. */
export const scopesOf = (tools: readonly ToolDeclaration[], base: readonly string[] = []) => [...new Set([...base, ...tools.flatMap((tool) => tool.scopes ?? [])])];

/** Icons as data: URIs, so no console or MCP client fetches a vendor's logo (and none is copied). */
export function monogramIcon(letters: string, background: string): string {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="${background}"/>` +
    `<text x="32" y="42" font-family="Helvetica,Arial,sans-serif" font-size="${letters.length > 1 ? 24 : 30}" font-weight="700" fill="#fff" text-anchor="middle">${letters}</text></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
}

/**
 * A vendor's free-form record (Salesforce fields, Airtable fields, Notion properties) as the
 * JSON text of an object: strict function calling and Gemini both refuse an open-ended object
 * argument, and a JSON string is what every model can write.
 */
export const jsonObjectText = (description: string, maxLength = 100_000): JsonSchema => ({
  type: "string",
  minLength: 2,
  maxLength,
  description: `${description} Give it as the JSON text of an object, e.g. {"Name": "Acme"}.`,
});

/** The object a JSON-text argument holds; anything else is the caller's mistake, named precisely. */
export function parseJsonObject(args: Record<string, unknown>, name: string): Record<string, unknown> {
  return parseJsonObjectAt(args[name], `/${name}`);
}

/** The object the JSON text at `field` (a pointer into the arguments) holds. */
export function parseJsonObjectAt(value: unknown, field: string): Record<string, unknown> {
  const fault = (message: string) => new BrokerError("invalid_tool_args", `argument ${field.slice(1)} ${message}`, { fields: [{ field, message }] });
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(value));
  } catch {
    throw fault("is not JSON text");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw fault("is not the JSON text of an object");
  return parsed as Record<string, unknown>;
}
