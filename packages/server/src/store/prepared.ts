/**
 * Hot-path statements compiled once and then run with fresh parameters. Kysely builds and
 * compiles a query on every call (a frozen node per value, visited into SQL text), which on
 * SQLite costs about as much as running the statement. The SQL text is the one Kysely compiles
 * for the same query, so SQLite's statement cache and PostgreSQL see the same statements.
 */
import { CompiledQuery, type Compilable, type QueryResult } from "kysely";
import type { Executor } from "./database.js";

/**
 * A multi-row INSERT of `columns`, compiled once per row count by `build` from placeholder rows
 * and run with the rows' values in column order (undefined is written as null).
 */
export function preparedInsert<Row extends object>(db: Executor, columns: readonly (keyof Row & string)[], build: (db: Executor, rows: Row[]) => Compilable) {
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
  return (executor: Executor, rows: readonly Row[]): Promise<QueryResult<unknown>> => {
    const parameters: unknown[] = [];
    for (const row of rows) for (const column of columns) parameters.push(row[column] ?? null);
    return executor.executeQuery(CompiledQuery.raw(template(rows.length), parameters));
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
