/**
 * Hot-path statements compiled once and then run with fresh parameters. Kysely builds and
 * compiles a query on every call (a frozen node per value, visited into SQL text), which on
 * SQLite costs about as much as running the statement. The SQL text is the one Kysely compiles
 * for the same query, so SQLite's statement cache and PostgreSQL see the same statements.
 */
import { CompiledQuery, type Compilable } from "kysely";
import type { Executor, Store, StoreKind } from "./database.js";

/** Rows per INSERT on PostgreSQL: each statement is a round trip, and 100 × 22 columns stays far below its 65,535 parameters. */
const POSTGRES_ROWS_PER_INSERT = 100;
/** The largest piece on SQLite (64 × 22 columns, well under its 32,766 parameters). */
const SQLITE_MAX_ROWS_PER_INSERT = 64;

/**
 * How many of `remaining` rows the next INSERT takes. A prepared statement lives in the process on
 * SQLite, and one for each row count up to 100 took about 20 MB per table (a 100-row insert of 22
 * columns alone is some 200 KB), which the broker's memory grew by under load. So SQLite runs
 * pieces of 64, 32, … 1 rows: at most seven statements per table, a few more runs per batch.
 * PostgreSQL keeps no statement here and charges a round trip for each, so it takes up to 100 rows at once.
 */
export function rowsPerInsert(kind: StoreKind, remaining: number): number {
  if (kind === "postgres") return Math.min(remaining, POSTGRES_ROWS_PER_INSERT);
  return Math.min(SQLITE_MAX_ROWS_PER_INSERT, 2 ** Math.floor(Math.log2(remaining)));
}

/**
 * A multi-row INSERT of `columns`, compiled once per row count by `build` from placeholder rows
 * and run with the rows' values in column order (undefined is written as null), in pieces of
 * `rowsPerInsert` rows.
 */
export function preparedInsert<Row extends object>(
  { db, kind }: Pick<Store, "db" | "kind">,
  columns: readonly (keyof Row & string)[],
  build: (db: Executor, rows: Row[]) => Compilable,
) {
  const templates = new Map<number, string>();
  function template(count: number): string {
    let text = templates.get(count);
    if (text === undefined) {
      const placeholder = Object.fromEntries(columns.map((column) => [column, null])) as Row;
      const compiled = build(db, Array.from({ length: count }, () => placeholder)).compile();
      // Every value must be a bound parameter, in column order, or the values would go astray.
      if (compiled.parameters.length !== count * columns.length || compiled.parameters.some((value) => value !== null)) {
        throw new Error(`preparedInsert: the compiled INSERT does not bind ${count * columns.length} parameters`);
      }
      text = compiled.sql;
      templates.set(count, text);
    }
    return text;
  }
  return async (executor: Executor, rows: readonly Row[]): Promise<void> => {
    for (let start = 0; start < rows.length; ) {
      const count = rowsPerInsert(kind, rows.length - start);
      const parameters: unknown[] = [];
      for (let i = start; i < start + count; i++) for (const column of columns) parameters.push(rows[i]![column] ?? null);
      await executor.executeQuery(CompiledQuery.raw(template(count), parameters));
      start += count;
    }
  };
}

/**
 * A query compiled once with `marker` standing for its one varying value (which must appear
 * nowhere else among its parameters), run with the value in the marker's place.
 */
export function preparedQuery<Result>(compiled: CompiledQuery<Result>, marker: unknown) {
  const at = compiled.parameters.indexOf(marker);
  if (at < 0 || compiled.parameters.lastIndexOf(marker) !== at) throw new Error("preparedQuery: the marker must be bound exactly once");
  return async (executor: Executor, value: unknown): Promise<Result[]> => {
    const parameters = [...compiled.parameters];
    parameters[at] = value;
    return (await executor.executeQuery(CompiledQuery.raw(compiled.sql, parameters) as CompiledQuery<Result>)).rows;
  };
}
