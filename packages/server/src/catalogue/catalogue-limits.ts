/**
 * The documented limits of a tenant's own catalogue (docs/catalogue.md, "Your own providers and tools"), and
 * how an OpenAPI import that did not produce tools is answered. Limits keep one tenant's catalogue
 * from costing every other tenant: each tool is compiled and held in memory on every instance.
 */
import { BrokerError } from "../errors.js";
import type { ImportOutcome } from "./openapi-import-job.js";
import type { ImportAborted } from "./openapi-import-runner.js";
import { IMPORT_LIMITS } from "./openapi-schemas.js";

export const CATALOGUE_LIMITS = {
  toolsPerTenant: IMPORT_LIMITS.toolsPerImport,
  providersPerTenant: 100,
} as const;

/** 422 catalogue_limit_reached: `limit` names the limit, `max` its value. */
export function catalogueLimitReached(limit: "tools_per_tenant" | "providers_per_tenant" | "tools_per_import", max: number, message: string, extra: Record<string, unknown> = {}) {
  return new BrokerError("catalogue_limit_reached", message, { limit, max, ...extra });
}

export function assertRoomFor(what: "tools" | "providers", existing: number, adding: number) {
  const max = what === "tools" ? CATALOGUE_LIMITS.toolsPerTenant : CATALOGUE_LIMITS.providersPerTenant;
  if (existing + adding <= max) return;
  const noun = what === "tools" ? "tools" : "providers";
  throw catalogueLimitReached(`${noun}_per_tenant`, max, `a tenant has at most ${max} ${noun} of its own; it has ${existing} and this would add ${adding}`, { existing, adding });
}

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** The error for an import whose document could not become tools. */
export function importRefusal(outcome: Exclude<ImportOutcome, { ok: true }> | ImportAborted): BrokerError {
  switch (outcome.fault) {
    case "declaration":
      return new BrokerError("invalid_declaration", outcome.message, outcome.details);
    case "budget": {
      const what = outcome.limit === "import_time_ms" ? `more than ${outcome.max / 1000} s` : `more than ${outcome.max} MB of memory`;
      return new BrokerError("invalid_declaration", `the OpenAPI document cannot be imported: it takes ${what} to import`, { path: "/document", limit: outcome.limit, max: outcome.max });
    }
    case "document": {
      const path = `/document${outcome.path ?? ""}`;
      if (outcome.limit?.name === "toolsPerImport") return catalogueLimitReached("tools_per_import", outcome.limit.max, outcome.message, { path });
      const limit = outcome.limit ? { limit: snakeCase(outcome.limit.name), max: outcome.limit.max } : {};
      return new BrokerError("invalid_declaration", `the OpenAPI document cannot be imported: ${outcome.message}`, { path, ...limit });
    }
  }
}
