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

/** A compiled statement, to run on its own or together with others (`runTogether`). */
export type Statement = CompiledQuery<unknown>;

/**
 * A multi-row INSERT of `columns` (or any statement over rows, such as an UPDATE from a VALUES
 * list), compiled once per row count by `build` from placeholder rows:
 * answers the statements that write `rows` (their values in column order, undefined written as
 * null), in pieces of `rowsPerInsert` rows. No rows, no statement.
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
  return (rows: readonly Row[]): Statement[] => {
    const statements: Statement[] = [];
    for (let start = 0; start < rows.length; ) {
      const count = rowsPerInsert(kind, rows.length - start);
      const parameters: unknown[] = [];
      for (let i = start; i < start + count; i++) for (const column of columns) parameters.push(rows[i]![column] ?? null);
      statements.push(CompiledQuery.raw(template(count), parameters));
      start += count;
    }
    return statements;
  };
}

/**
 * Runs statements that belong together, in order. On PostgreSQL they go as one statement — the
 * first ones as data-modifying WITH clauses of the last — so they cost one round trip instead of
 * one each. Such clauses all see the database as it was when the statement began: none of the
 * statements may depend on another's changes (foreign keys may: they are checked at its end).
 * SQLite has no round trips to save (and no INSERT inside WITH): it runs them one by one.
 */
export async function runTogether({ kind }: Pick<Store, "kind">, executor: Executor, statements: readonly Statement[]): Promise<void> {
  if (kind === "sqlite" || statements.length === 1) {
    for (const statement of statements) await executor.executeQuery(statement);
  } else if (statements.length > 1) {
    await executor.executeQuery(asOneStatement(statements));
  }
}

/**
 * A statement's text cut at its `$n` placeholders (quoted literals passed over: a `$1` inside one
 * is text), with the highest number, and whether it may go inside a combined statement: a WITH of
 * its own would change what the combined text means, and the scan knows plain quoted literals
 * only (not E'…' escapes or $$…$$ bodies).
 */
type Placeholders = { pieces: string[]; numbers: number[]; highest: number; combinable: boolean };
const placeholdersOf = new Map<string, Placeholders>();

function placeholders(text: string): Placeholders {
  let found = placeholdersOf.get(text);
  if (found === undefined) {
    const pieces: string[] = [];
    const numbers: number[] = [];
    let last = 0;
    for (const match of text.matchAll(/'(?:[^']|'')*'|\$(\d+)/g)) {
      if (match[1] === undefined) continue;
      pieces.push(text.slice(last, match.index));
      numbers.push(Number(match[1]));
      last = match.index + match[0].length;
    }
    pieces.push(text.slice(last));
    found = { pieces, numbers, highest: Math.max(0, ...numbers), combinable: !/^\s*with\b|\$\$|\bE'/i.test(text) };
    // The texts are the prepared statements' (a bounded set), compiled queries' otherwise: keep a bounded cache.
    if (placeholdersOf.size >= 1_000) placeholdersOf.clear();
    placeholdersOf.set(text, found);
  }
  return found;
}

/** `with s0 as (…), s1 as (…) <last>`, each statement's `$n` placeholders numbered after the ones before. */
export function asOneStatement(statements: readonly Statement[]): Statement {
  const parameters: unknown[] = [];
  const texts = statements.map((statement) => {
    const offset = parameters.length;
    const { pieces, numbers, highest, combinable } = placeholders(statement.sql);
    if (!combinable || highest !== statement.parameters.length) {
      throw new Error(`runTogether: cannot combine ${JSON.stringify(statement.sql.slice(0, 60))}`);
    }
    let text = pieces[0]!;
    for (let i = 0; i < numbers.length; i++) text += `$${numbers[i]! + offset}${pieces[i + 1]}`;
    for (const parameter of statement.parameters) parameters.push(parameter);
    return text;
  });
  const last = texts.pop()!;
  return CompiledQuery.raw(`with ${texts.map((text, i) => `s${i} as (${text})`).join(", ")} ${last}`, parameters);
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
