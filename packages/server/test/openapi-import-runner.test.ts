/**
 * Issue 36: imports run on a worker thread with a time and a memory budget; a thread that
 * exceeds one is replaced, and the next import runs as usual.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createOpenApiImporter, type OpenApiImporter } from "../src/catalogue/openapi-import-runner.js";

const document = { openapi: "3.0.3", info: { title: "t", version: "1" }, paths: { "/ping": { get: { operationId: "ping", responses: { 200: { description: "ok" } } } } } };

describe("OpenAPI imports on worker threads", () => {
  let importer: OpenApiImporter | undefined;
  afterEach(() => importer?.close());

  it("answers the tools of a document, checked as declarations", async () => {
    importer = createOpenApiImporter();
    const outcome = await importer.run({ document, providerId: "demo" });
    expect(outcome).toMatchObject({ ok: true, tools: [{ name: "demo.ping", risk: "low" }], skipped: [] });
  });

  it("stops an import at its time budget, then serves the next one on a fresh thread", async () => {
    importer = createOpenApiImporter({ threads: 1, timeBudgetMs: 1 });
    expect(await importer.run({ document, providerId: "demo" })).toEqual({ ok: false, fault: "budget", limit: "import_time_ms", max: 1 });
  });

  it("stops an import that needs more memory than its thread may use", async () => {
    importer = createOpenApiImporter({ threads: 1, memoryMb: 16 });
    // 1.5 MB of YAML whose parse tree does not fit in 16 MB.
    const yaml = `openapi: 3.0.3\ninfo: { title: t, version: "1" }\npaths: {}\nx:\n${"  - [a, b, c, d, e, f, g, h]\n".repeat(50_000)}`;
    expect(await importer.run({ document: yaml, providerId: "demo" })).toEqual({ ok: false, fault: "budget", limit: "import_memory_mb", max: 16 });
  }, 60_000);

  it("ends a thread left idle, and starts another for the next import", async () => {
    importer = createOpenApiImporter({ threads: 1, idleMs: 50 });
    expect((await importer.run({ document, providerId: "demo" })).ok).toBe(true);
    expect(importer.idleThreads()).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(importer.idleThreads()).toBe(0);
    expect((await importer.run({ document, providerId: "demo" })).ok).toBe(true);
  });

  it("runs at most `threads` imports at once and queues the rest", async () => {
    importer = createOpenApiImporter({ threads: 1 });
    const outcomes = await Promise.all([1, 2, 3].map(() => importer!.run({ document, providerId: "demo" })));
    expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, true, true]);
  });
});
