/**
 * Checkpoints a SQLite file's write-ahead log on a thread of its own. SQLite checkpoints inside
 * the COMMIT that pushes the log past its threshold: copying the log's pages into the database
 * file and syncing both then runs on the event loop, in the middle of a request. Here a worker
 * thread, with its own connection, checkpoints every `intervalMs` instead (PASSIVE: it never
 * waits for, nor blocks, a reader or a writer), and the request thread keeps only a far higher
 * threshold of its own as a backstop, should this thread ever fall behind or stop.
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** The log grows well past SQLite's default threshold (1,000 pages) before the request thread checkpoints itself. */
export const BACKSTOP_CHECKPOINT_PAGES = 10_000;

const DEFAULT_INTERVAL_MS = 50;

// Plain JavaScript evaluated in the worker, so the same code runs from the build and from source
// (tests, tsx): a worker cannot load a .ts file. One statement, kept for the worker's life: a
// statement left to the garbage collector can abort the process on Node 24 (store/database.ts).
const THREAD_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
let db;
let checkpoint;
try {
  db = new Database(workerData.file, { fileMustExist: true });
  db.exec("PRAGMA busy_timeout = 0;");
  checkpoint = db.prepare("PRAGMA wal_checkpoint(PASSIVE)");
} catch {
  // Without a connection the request thread's backstop threshold checkpoints instead.
  process.exit(0);
}
const timer = setInterval(() => {
  try {
    checkpoint.get();
  } catch {
    // Busy (another connection is checkpointing) or the file is failing: try again next time.
  }
}, workerData.intervalMs);
parentPort.once("message", () => {
  clearInterval(timer);
  try { db.close(); } catch {}
  process.exit(0);
});
`;

export type Checkpointer = { stop(): Promise<void> };

export function startCheckpointer(file: string, intervalMs = DEFAULT_INTERVAL_MS): Checkpointer {
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { file, driver, intervalMs } });
  // A failing thread only leaves checkpoints to the backstop; it must never take the process down.
  worker.on("error", () => {});
  // Checkpoints are housekeeping: they never keep the process alive on their own.
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  return {
    async stop() {
      worker.ref();
      worker.postMessage("stop");
      await exited;
    },
  };
}
