/**
 * Runs OpenAPI imports on worker threads, so that parsing a large or hostile document never holds
 * the request thread (and with it every tenant's requests). Each thread has a memory limit, each
 * job a time budget; a thread that exceeds either is terminated and replaced. At most `threads`
 * imports run at once; the others wait their turn. Threads start with the first import and end
 * after a while without one.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { ImportJob, ImportOutcome } from "./openapi-import-job.js";

/** Published in docs/catalogue.md. */
export const IMPORT_THREAD_LIMITS = { timeBudgetMs: 15_000, memoryMb: 256 } as const;

export type ImportRunnerOptions = { threads?: number; timeBudgetMs?: number; memoryMb?: number; idleMs?: number };

/** An idle thread is ended after this long, so that a broker importing once a day does not keep its heap. */
const IDLE_MS = 30_000;
/** What a job that did not finish answers: the budget it exceeded. */
export type ImportAborted = { ok: false; fault: "budget"; limit: "import_time_ms" | "import_memory_mb"; max: number };

// From source (tests, tsx) the worker's TypeScript needs tsx registered in the thread first; the
// build runs the compiled .js directly.
const FROM_SOURCE = import.meta.url.endsWith(".ts");
const ENTRY = new URL(`./openapi-import-worker.${FROM_SOURCE ? "ts" : "js"}`, import.meta.url);
// tsx's ESM API registered in the thread, as bin/toolbroker.js does (a worker ignores --import in
// execArgv on Node 20). The CommonJS build of that API cannot register the ESM hooks.
const SOURCE_BOOTSTRAP = `
const { workerData } = require("node:worker_threads");
import(workerData.tsx).then(({ register }) => {
  register();
  return import(workerData.entry);
});
`;

function tsxEsmApi(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve("tsx/package.json");
  const { exports } = require(manifest) as { exports: Record<string, { import: { default: string } }> };
  return new URL(exports["./esm/api"]!.import.default, pathToFileURL(manifest)).href;
}

function startThread(memoryMb: number): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 8 };
  const worker = FROM_SOURCE
    ? new Worker(SOURCE_BOOTSTRAP, { eval: true, workerData: { tsx: tsxEsmApi(), entry: ENTRY.href }, resourceLimits })
    : new Worker(ENTRY, { resourceLimits });
  // A job learns of its thread's failure through its own listeners; a thread failing between jobs
  // (or after its job was answered) must never take the process down.
  worker.on("error", () => {});
  return worker;
}

export function createOpenApiImporter({ threads = 2, timeBudgetMs = IMPORT_THREAD_LIMITS.timeBudgetMs, memoryMb = IMPORT_THREAD_LIMITS.memoryMb, idleMs = IDLE_MS }: ImportRunnerOptions = {}) {
  const idle: { worker: Worker; timer: NodeJS.Timeout }[] = [];
  const waiting: (() => void)[] = [];
  let running = 0;
  let closed = false;

  async function turn(): Promise<void> {
    if (running < threads) {
      running += 1;
      return;
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  }

  function release(worker: Worker | undefined) {
    if (worker && closed) void worker.terminate();
    else if (worker) park(worker);
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }

  function park(worker: Worker) {
    worker.unref();
    const parked = {
      worker,
      timer: setTimeout(() => {
        idle.splice(idle.indexOf(parked), 1);
        void worker.terminate();
      }, idleMs).unref(),
    };
    idle.push(parked);
  }

  function unpark(): Worker | undefined {
    const parked = idle.pop();
    if (parked) clearTimeout(parked.timer);
    return parked?.worker;
  }

  /** One job on one thread; the thread is returned only when the job ended cleanly. */
  function runOn(worker: Worker, job: ImportJob): Promise<{ outcome: ImportOutcome | ImportAborted; reusable: boolean }> {
    return new Promise((resolve, reject) => {
      const settle = (result: { outcome: ImportOutcome | ImportAborted; reusable: boolean } | Error) => {
        clearTimeout(timer);
        worker.off("message", onMessage).off("error", onError).off("exit", onExit);
        if (result instanceof Error) reject(result);
        else resolve(result);
      };
      const onMessage = (message: ImportOutcome | { crashed: string }) =>
        settle("crashed" in message ? new Error(`OpenAPI import failed on its thread: ${message.crashed}`) : { outcome: message, reusable: true });
      const onError = (error: Error & { code?: string }) =>
        settle(error.code === "ERR_WORKER_OUT_OF_MEMORY" ? { outcome: { ok: false, fault: "budget", limit: "import_memory_mb", max: memoryMb }, reusable: false } : error);
      const onExit = (code: number) => settle(new Error(`the OpenAPI import thread exited (code ${code})`));
      const timer = setTimeout(() => {
        void worker.terminate();
        settle({ outcome: { ok: false, fault: "budget", limit: "import_time_ms", max: timeBudgetMs }, reusable: false });
      }, timeBudgetMs);
      worker.on("message", onMessage).on("error", onError).on("exit", onExit);
      worker.ref();
      try {
        worker.postMessage(job);
      } catch (error) {
        settle(error as Error);
      }
    });
  }

  return {
    async run(job: ImportJob): Promise<ImportOutcome | ImportAborted> {
      if (closed) throw new Error("the OpenAPI importer is closed");
      await turn();
      let worker: Worker | undefined;
      try {
        if (closed) throw new Error("the OpenAPI importer is closed");
        worker = unpark() ?? startThread(memoryMb);
        const { outcome, reusable } = await runOn(worker, job);
        if (!reusable) worker = undefined;
        return outcome;
      } catch (error) {
        if (worker) void worker.terminate();
        worker = undefined;
        throw error;
      } finally {
        release(worker);
      }
    },
    /** Threads started and waiting for an import. */
    idleThreads: () => idle.length,
    async close() {
      closed = true;
      await Promise.all(
        idle.splice(0).map(({ worker, timer }) => {
          clearTimeout(timer);
          return worker.terminate();
        }),
      );
    },
  };
}

export type OpenApiImporter = ReturnType<typeof createOpenApiImporter>;
