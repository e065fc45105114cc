/**
 * Hot-path statements compiled ahead of time and run with fresh parameters. Kysely builds and
 * compiles a query on every call (a frozen node per value, visited into SQL text), which on
 * SQLite costs about as much as running the statement. The texts are checked in under
 * store/sql/, generated from Kysely builders (store/hot-statements.ts) and drift-tested.
 */
import { CompiledQuery } from "kysely";
import type { Executor, Store } from "./database.js";
import type { HotStatementName } from "./hot-statements.js";
import * as postgres from "./sql/postgres.js";
import * as sqlite from "./sql/sqlite.js";

/** A compiled statement, to run on its own or together with others (`runTogether`). */
export type Statement = CompiledQuery<unknown>;

/**
 * One of the hot path's checked-in statements (store/hot-statements.ts, store/sql/): answers the
 * statements that write `rows` (undefined fields written as null), none for no rows. The text
 * never depends on the number of rows. PostgreSQL takes them all as one JSON parameter, in one
 * statement; SQLite, which has no round trip to save, runs its one-row statement once per row
 * with the values bound directly (JSON there cost more than the statements it saved).
 */
export function hotStatement<Row extends object>({ kind }: Pick<Store, "kind">, name: HotStatementName) {
  if (kind === "postgres") {
    const text = postgres.statements[name];
    return (rows: readonly Row[]): Statement[] => (rows.length === 0 ? [] : [CompiledQuery.raw(text, [JSON.stringify(rows)])]);
  }
  const text = sqlite.statements[name];
  const columns = sqlite.columns[name] as readonly (keyof Row)[];
  return (rows: readonly Row[]): Statement[] => {
    const statements: Statement[] = [];
    for (const row of rows) {
      const values: unknown[] = [];
      for (const column of columns) values.push(row[column] ?? null);
      statements.push(CompiledQuery.raw(text, values));
    }
    return statements;
  };
}

/** A checked-in combination: its text, and which of its parts each statement's text is. */
type Combination = { text: string; parts: number; partOf: Map<string, number> };
const POSTGRES_COMBINATIONS: readonly Combination[] = Object.values(postgres.combinations).map(({ parts, sql }) => ({
  text: sql,
  parts: parts.length,
  partOf: new Map(parts.map((part, i) => [postgres.statements[part], i])),
}));

/** An empty part's parameter: no rows. */
const NO_ROWS = "[]";

/**
 * The checked-in statement that runs `statements` as one (each a part of it, in its order; the
 * parts left out get no rows), or undefined when no combination holds them all.
 */
function combined(statements: readonly Statement[]): Statement | undefined {
  search: for (const combination of POSTGRES_COMBINATIONS) {
    const parameters: unknown[] = new Array(combination.parts).fill(NO_ROWS);
    let previous = -1;
    for (const statement of statements) {
      const part = combination.partOf.get(statement.sql);
      if (part === undefined || part <= previous) continue search;
      parameters[part] = statement.parameters[0];
      previous = part;
    }
    return CompiledQuery.raw(combination.text, parameters);
  }
  return undefined;
}

/**
 * Runs statements that belong together, in order. On PostgreSQL, hot statements that a checked-in
 * combination holds (store/hot-statements.ts, COMBINATIONS) go as that one statement — the first
 * parts as data-modifying WITH clauses of the last — so they cost one round trip instead of one
 * each. Such clauses all see the database as it was when the statement began: none of the
 * statements may depend on another's changes (foreign keys may: they are checked at its end).
 * Anything else, and everything on SQLite (no round trips to save, no INSERT inside WITH), runs
 * one by one.
 */
export async function runTogether({ kind }: Pick<Store, "kind">, statements: readonly Statement[], executor: Executor): Promise<void> {
  const one = kind === "postgres" && statements.length > 1 ? combined(statements) : undefined;
  if (one) await executor.executeQuery(one);
  else for (const statement of statements) await executor.executeQuery(statement);
}

/**
 * A query compiled once with `marker` standing for its one varying value (which must appear
 * nowhere else among its parameters), run with the value in the marker's place.
 */
export function preparedQuery<Result>(compiled: CompiledQuery<Result>, marker: unknown) {
  const at = compiled.parameters.indexOf(marker);
  if (at < 0 || compiled.parameters.lastIndexOf(marker) !== at) throw new Error("preparedQuery: the marker must be bound exactly once");
  return async (value: unknown, executor: Executor): Promise<Result[]> => {
    const parameters = [...compiled.parameters];
    parameters[at] = value;
    return (await executor.executeQuery(CompiledQuery.raw(compiled.sql, parameters) as CompiledQuery<Result>)).rows;
  };
}
