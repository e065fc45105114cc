/**
 * The worker thread's entry (see openapi-import-runner.ts): one import job per message, one
 * outcome per answer. A job that throws answers `crashed`, and the thread stays usable.
 */
import { parentPort } from "node:worker_threads";
import { runImportJob, type ImportJob } from "./openapi-import-job.js";

parentPort?.on("message", (job: ImportJob) => {
  runImportJob(job).then(
    (outcome) => parentPort?.postMessage(outcome),
    (error: unknown) => parentPort?.postMessage({ crashed: error instanceof Error ? error.message : String(error) }),
  );
});
