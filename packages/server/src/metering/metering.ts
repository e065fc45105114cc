/** Builds metering for the configured mode: `test` reports to the test ledger, `off` to nothing. */
import type { Clock } from "../clock.js";
import type { MeteringQueries } from "./metering-queries.js";
import { offReporter, type MeteringMode } from "./metering-reporter.js";
import { createMeteringService } from "./metering-service.js";
import { createTestLedger } from "./test-ledger.js";
import type { TestLedgerQueries } from "./test-ledger-queries.js";

type MeteringDeps = { queries: MeteringQueries; clock: Clock; mode: MeteringMode; ledgerQueries: TestLedgerQueries };

export function createMetering({ queries, clock, mode, ledgerQueries }: MeteringDeps) {
  const meteringLedger = createTestLedger({ queries: ledgerQueries, clock });
  const reporter = mode === "test" ? meteringLedger.reporter : offReporter;
  const metering = createMeteringService({ clock, reporter, queries });
  return { metering, meteringLedger };
}
