/**
 * Two Ajv instances: JSON bodies are validated as sent (no coercion, so `""` or `123` never turn
 * into null or "123"), while query strings and path parameters, which are always text, are
 * coerced to the declared types.
 */
import { Ajv, type Options } from "ajv";
import addFormats from "ajv-formats";
import type { FastifySchemaCompiler } from "fastify";

function createAjv(options: Options): Ajv {
  const ajv = new Ajv({ removeAdditional: false, useDefaults: true, allErrors: true, strict: false, addUsedSchema: false, ...options });
  (addFormats as unknown as (instance: Ajv) => void)(ajv);
  return ajv;
}

export function createValidatorCompiler(): FastifySchemaCompiler<any> {
  const body = createAjv({ coerceTypes: false });
  const text = createAjv({ coerceTypes: "array" });
  return ({ schema, httpPart }) => (httpPart === "body" ? body : text).compile(schema as object);
}
