/** Builds metering for the configured mode: `test` reports to the test ledger, `off` to nothing. */
import type { Clock } from "../clock.js";
import type { Db } from "../store/database.js";
import { createMeteringQueries } from "./metering-queries.js";
import { offReporter, type MeteringMode } from "./metering-reporter.js";
import { createMeteringService } from "./metering-service.js";
import { createTestLedger } from "./test-ledger.js";

export function createMetering({ db, clock, mode }: { db: Db; clock: Clock; mode: MeteringMode }) {
  const meteringLedger = createTestLedger({ db, clock });
  const reporter = mode === "test" ? meteringLedger.reporter : offReporter;
  const metering = createMeteringService({ db, clock, reporter, queries: createMeteringQueries() });
  return { metering, meteringLedger };
}
