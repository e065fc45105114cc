/**
 * Compiled tenant tools, held per tenant. A tenant's bucket keeps one compiled tool per declared
 * tool (its current version), so a tenant's own catalogue, however large, can only replace its own
 * entries, and a rebuild recompiles only the tools whose declaration (or provider) changed.
 * Buckets go least recently used first once all of them together hold `maxTotal` tools: an active
 * tenant keeps its tools while others come and go.
 */
import { LRUCache } from "lru-cache";
import type { ResolvedProvider } from "../providers/catalogue.js";
import type { CatalogueTool, createToolCompiler } from "./tool-catalogue.js";
import type { StoredTool } from "./catalogue-queries.js";
import { toolFromDeclaration } from "../providers/declared-tool.js";

/** Published in docs/catalogue.md: five tenants at the tools-per-tenant limit. */
export const MAX_COMPILED_TOOLS = 10_000;

type Compiler = Pick<ReturnType<typeof createToolCompiler>, "compile" | "forget">;
type Held = { version: string; entry: CatalogueTool };
type Bucket = Map<string, Held>;

export function createCompiledTools({ compiler, maxTotal = MAX_COMPILED_TOOLS }: { compiler: Compiler; maxTotal?: number }) {
  const forgetAll = (bucket: Bucket) => bucket.forEach(({ entry }) => compiler.forget(entry));
  const buckets = new LRUCache<string, Bucket>({ maxSize: maxTotal, sizeCalculation: (bucket) => Math.max(1, bucket.size), dispose: forgetAll });

  function bucketOf(tenantId: string): Bucket {
    let bucket = buckets.get(tenantId);
    if (!bucket) {
      bucket = new Map();
      buckets.set(tenantId, bucket);
    }
    return bucket;
  }

  return {
    /** The compiled tool, reused while neither it nor its provider's declaration changed. */
    compiled(stored: StoredTool, provider: ResolvedProvider, providerVersion: string): CatalogueTool {
      const bucket = bucketOf(stored.tenantId);
      const version = `${stored.updatedAt}:${providerVersion}`;
      const held = bucket.get(stored.id);
      if (held?.version === version) return held.entry;
      if (held) compiler.forget(held.entry);
      const entry = compiler.compile(toolFromDeclaration(stored.declaration, provider), provider);
      bucket.set(stored.id, { version, entry });
      return entry;
    },
    /** After the tenant's declarations were read again: tools no longer declared are dropped. */
    keepOnly(tenantId: string, tools: readonly StoredTool[]) {
      const bucket = buckets.get(tenantId);
      if (!bucket) return;
      const declared = new Set(tools.map((tool) => tool.id));
      for (const [id, held] of bucket) {
        if (declared.has(id)) continue;
        compiler.forget(held.entry);
        bucket.delete(id);
      }
    },
    /** After a rebuild: the bucket's size is counted again towards `maxTotal`. */
    recount(tenantId: string) {
      const bucket = buckets.get(tenantId);
      if (bucket) buckets.set(tenantId, bucket);
    },
    /** How many compiled tools the tenant holds (for tests and metrics). */
    heldBy: (tenantId: string) => buckets.peek(tenantId)?.size ?? 0,
  };
}

export type CompiledTools = ReturnType<typeof createCompiledTools>;
