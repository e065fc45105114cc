/**
 * Three kinds of test, one Vitest project each; `npm test` runs all three, and each runs alone
 * with `npm run test:<kind>` (`vitest run --project <kind>`). A file's name and folder say its kind:
 *
 * - unit: `*.unit.test.ts`, beside its module in src/ (or in test/ when it checks scripts or
 *   vendored files). Pure logic: no database, no network, no HTTP server, no child process or
 *   worker thread. Runs in seconds, without the global setup.
 * - service: `packages/server/test/service/*.test.ts`. A service (or its queries) against a real
 *   database, SQLite and PostgreSQL (`describeEachDatabase`), built as app.ts builds it
 *   (test/support/service-world.ts), with no HTTP in front of it. Races between callers live here.
 * - http: every other `*.test.ts` under a package's test/ (or src/): a broker started on loopback
 *   and driven over HTTP, CLI and child-process tests, the client against a broker, the
 *   console's browser tests. A test beside its module that is not pure ends up here too; move it
 *   to test/ instead.
 */
import { configDefaults, defineConfig } from "vitest/config";

const UNIT = ["packages/*/src/**/*.unit.test.ts", "packages/*/test/**/*.unit.test.ts"];
const SERVICE = ["packages/server/test/service/**/*.test.ts"];
const GLOBAL_SETUP = ["packages/server/test/support/global-setup.ts"];

/**
 * Every project's settings; the pool itself is the root's (Vitest runs one pool for all projects).
 * Without isolation Vitest runs projects one after the other anyway; `groupOrder` makes that unit,
 * service, http, so that `npm test` reports a broken rule within seconds.
 */
const shared = {
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: "forks",
  isolate: false,
} as const;

export default defineConfig({
  test: {
    pool: "forks",
    // Vitest leaves one core free by default; on a 2-core machine that runs every file in one process.
    maxWorkers: 2,
    minWorkers: 1,
    isolate: false,
    projects: [
      { test: { ...shared, name: "unit", include: UNIT, sequence: { groupOrder: 0 } } },
      { test: { ...shared, name: "service", include: SERVICE, globalSetup: GLOBAL_SETUP, sequence: { groupOrder: 1 } } },
      {
        test: {
          ...shared,
          name: "http",
          include: ["packages/*/test/**/*.test.ts", "packages/*/src/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...UNIT, ...SERVICE],
          globalSetup: GLOBAL_SETUP,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
