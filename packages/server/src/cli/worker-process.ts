/** `toolbroker worker`: the webhook delivery worker and the approval outbox alone, without the HTTP API. */
import { pino } from "pino";
import { createServices } from "../app.js";
import type { Config } from "../config.js";
import { censorChildBindings, REQUEST_LOG_OPTIONS } from "../http/request-log.js";
import { readableLogStream } from "../http/readable-log.js";
import { openRuntime } from "../runtime.js";
import { lockSqliteInstance } from "../store/instance-lock.js";

export async function runWorkerProcess(config: Config): Promise<void> {
  // One process per SQLite file, this one included; held until the process ends.
  lockSqliteInstance({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }, "worker");
  const runtime = await openRuntime(config);
  const services = await createServices(runtime);
  // `serve`'s log options: what a failed delivery logs is censored by the same rules.
  const log = pino({ level: config.logLevel, base: { component: "webhook-delivery" }, ...REQUEST_LOG_OPTIONS }, config.logFormat === "pretty" ? readableLogStream() : undefined);
  censorChildBindings(log);
  services.webhooks.worker.start(log);
  services.approvalOutbox.start(log.child({ component: "approval-outbox" }));
  log.info({ store: runtime.store.kind, timeout_ms: config.webhookTimeoutMs }, "webhook delivery worker started");

  const shutdown = async () => {
    log.info("webhook delivery worker stopping");
    await services.webhooks.close();
    await services.approvalOutbox.stop();
    services.redis?.disconnect();
    await runtime.store.close();
    process.exit(0);
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}
