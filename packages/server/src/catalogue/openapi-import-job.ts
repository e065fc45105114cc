/**
 * One OpenAPI import as its worker thread runs it: the document parsed and turned into tools, and
 * each tool checked as a declared one would be, so that nothing heavy is left for the request
 * thread. The outcome is plain data, because it crosses threads.
 */
import { BrokerError } from "../errors.js";
import { createToolCompiler } from "./tool-catalogue.js";
import type { ToolDeclaration } from "../providers/declaration-schema.js";
import { createToolCheck } from "./declaration-checks.js";
import { toolsFromOpenApi, type OpenApiImportResult } from "./openapi-import.js";
import { OpenApiImportError, type IMPORT_LIMITS } from "./openapi-schemas.js";

export type ImportJob = { document: string | Record<string, unknown>; providerId: string; operationIds?: string[] | undefined };

export type ImportOutcome =
  | { ok: true; tools: ToolDeclaration[]; skipped: OpenApiImportResult["skipped"] }
  /** The document as a whole cannot be imported (`limit`: a documented limit it exceeds). */
  | { ok: false; fault: "document"; message: string; path?: string | undefined; limit?: { name: keyof typeof IMPORT_LIMITS; max: number } | undefined }
  /** A tool it would create is not a valid declaration. */
  | { ok: false; fault: "declaration"; message: string; details: Record<string, unknown> };

export async function runImportJob(job: ImportJob): Promise<ImportOutcome> {
  let imported: OpenApiImportResult;
  try {
    imported = await toolsFromOpenApi(job.document, { providerId: job.providerId, ...(job.operationIds ? { operationIds: job.operationIds } : {}) });
  } catch (error) {
    if (error instanceof OpenApiImportError) return { ok: false, fault: "document", message: error.message, path: error.path, limit: error.limit };
    throw error;
  }
  const check = createToolCheck(schemaChecker());
  const tools: ToolDeclaration[] = [];
  for (const [index, tool] of imported.tools.entries()) {
    try {
      tools.push(check(tool, job.providerId));
    } catch (error) {
      if (!(error instanceof BrokerError) || error.code !== "invalid_declaration") throw error;
      return { ok: false, fault: "declaration", message: `imported tool ${tool.name}: ${error.message}`, details: { ...error.details, tool: tool.name, index } };
    }
  }
  return { ok: true, tools, skipped: imported.skipped };
}

/**
 * The compiler the pipeline uses for tenants' schemas (patterns on RE2), one per import so that
 * nothing piles up; generated APIs repeat the same schema across operations, so each distinct one
 * is compiled once.
 */
function schemaChecker() {
  const compiler = createToolCompiler({ linearPatterns: true });
  const problems = new Map<string, string | undefined>();
  return {
    problemWith(schema: Record<string, unknown>) {
      const key = JSON.stringify(schema);
      if (!problems.has(key)) problems.set(key, compiler.problemWith(schema));
      return problems.get(key);
    },
  };
}
