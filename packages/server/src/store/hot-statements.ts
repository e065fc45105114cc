/**
 * The hot path's statements, declared once as Kysely builders and compiled ahead of time into
 * src/store/sql/{sqlite,postgres}.ts (`npm run generate:sql -w @toolbroker/server`; a unit test
 * fails when those files differ from what these builders compile). At run time only the
 * checked-in text runs (store/prepared.ts), so a reviewer reads the SQL each engine sees.
 *
 * Each statement's text is the same whatever the number of rows. On PostgreSQL it takes its rows
 * as ONE parameter, a JSON array of row objects read by `json_populate_recordset` (which types
 * every field by the table's own column), and the statements that run together are fused into one
 * statement with data-modifying WITH clauses, also compiled here. On SQLite, which has no round
 * trip to save, a one-row statement runs once per row with its values bound directly (reading the
 * rows from JSON there cost more than it saved). No SQL text is ever rewritten at run time.
 */
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, sql } from "kysely";
import type { Compilable, QueryCreator } from "kysely";
import type { StoreKind } from "./database.js";
import type { AuditEventsTable, IdempotencyKeysTable, InvocationsTable, UsageEventsTable } from "./schema.js";

/** Every column of `T`, listed: a column added to the table and not here fails to compile. */
const allColumns =
  <T>() =>
  <const C extends readonly (keyof T & string)[]>(columns: C & ([Exclude<keyof T, C[number]>] extends [never] ? unknown : "a column is missing")) =>
    columns;

export const AUDIT_COLUMNS = allColumns<AuditEventsTable>()([
  "id",
  "tenant_id",
  "seq",
  "occurred_at",
  "actor_type",
  "actor_id",
  "action",
  "target_type",
  "target_id",
  "outcome",
  "agent_app_id",
  "tool_name",
  "data",
  "prev_hash",
  "hash",
  "end_user_id",
]);

export const INVOCATION_COLUMNS = allColumns<InvocationsTable>()([
  "id",
  "tenant_id",
  "env",
  "agent_app_id",
  "actor_type",
  "actor_id",
  "tool_name",
  "provider",
  "connection_id",
  "secret_item_id",
  "status",
  "error_code",
  "upstream_status",
  "latency_ms",
  "arguments_redacted",
  "arguments_sealed",
  "arguments_fingerprint",
  "outcome_sealed",
  "approval_id",
  "idempotency_key",
  "request_fingerprint",
  "created_at",
  "completed_at",
  "end_user_id",
  "metered_period",
  "trace_id",
]);

export const USAGE_COLUMNS = allColumns<UsageEventsTable>()(["id", "tenant_id", "env", "agent_app_id", "tool_name", "invocation_id", "period", "occurred_at", "end_user_id"]);

export const CLAIM_COLUMNS = allColumns<IdempotencyKeysTable>()([
  "tenant_id",
  "env",
  "agent_app_id",
  "key",
  "request_fingerprint",
  "status",
  "invocation_id",
  "response_status",
  "response_sealed",
  "created_at",
  "expires_at",
]);

/** What a key's completion sets, with the scope it is found by. */
export const COMPLETION_COLUMNS = ["tenant_id", "env", "agent_app_id", "key", "invocation_id", "response_status"] as const satisfies readonly (keyof IdempotencyKeysTable)[];
const KEY_SCOPE = ["tenant_id", "env", "agent_app_id", "key"] as const;

/** The rows parameter's stand-in while compiling PostgreSQL's statements: the one value each binds. */
export const ROWS = "$rows";
/** A column's stand-in while compiling SQLite's statements, which bind one row's values. */
const COLUMN = "$column:";
const markerRow = (columns: readonly string[]) => Object.fromEntries(columns.map((column) => [column, `${COLUMN}${column}`]));

/** PostgreSQL: the rows of the one parameter, typed by the table's own columns, as a table `row`. */
function rowsOf(table: string, columns: readonly string[], rows: unknown = ROWS) {
  // A query of its own: one built from the creator of a WITH chain would repeat the chain.
  return compilerFor("postgres")
    .selectFrom(sql`json_populate_recordset(null::${sql.table(table)}, ${rows})`.as("row"))
    .select(columns.map((column) => sql.ref(`row.${column}`).as(column)));
}

/** SQLite: one row's values; PostgreSQL: every row of the parameter. */
function insertRows(db: QueryCreator<any>, kind: StoreKind, table: string, columns: readonly string[], rows?: unknown) {
  if (kind === "sqlite") return db.insertInto(table).values(markerRow(columns));
  return db.insertInto(table).columns(columns as string[]).expression(rowsOf(table, columns, rows));
}

function completeKeys(db: QueryCreator<any>, kind: StoreKind, rows?: unknown) {
  const update = db.updateTable("idempotency_keys");
  if (kind === "sqlite") {
    const row = markerRow(COMPLETION_COLUMNS);
    return update
      .set({ status: sql.lit("completed"), invocation_id: row.invocation_id, response_status: row.response_status })
      .where((eb: any) => eb.and(KEY_SCOPE.map((column) => eb(column, "=", row[column]))));
  }
  return update
    .from(rowsOf("idempotency_keys", COMPLETION_COLUMNS, rows).as("completed"))
    .set((eb: any) => ({ status: sql.lit("completed"), invocation_id: eb.ref("completed.invocation_id"), response_status: eb.ref("completed.response_status") }))
    .where((eb: any) => eb.and(KEY_SCOPE.map((column) => eb(`idempotency_keys.${column}`, "=", eb.ref(`completed.${column}`)))));
}

const STATEMENTS = {
  "audit_events.insert": (db: QueryCreator<any>, kind: StoreKind, rows?: unknown) => insertRows(db, kind, "audit_events", AUDIT_COLUMNS, rows),
  "invocations.insert": (db: QueryCreator<any>, kind: StoreKind, rows?: unknown) => insertRows(db, kind, "invocations", INVOCATION_COLUMNS, rows),
  /** One usage event per invocation at most. */
  "usage_events.insert": (db: QueryCreator<any>, kind: StoreKind, rows?: unknown) =>
    insertRows(db, kind, "usage_events", USAGE_COLUMNS, rows).onConflict((oc) => oc.column("invocation_id").doNothing()),
  /** A claim is inserted unless its scope holds one; answers the claims inserted. */
  "idempotency_keys.claim": (db: QueryCreator<any>, kind: StoreKind, rows?: unknown) =>
    insertRows(db, kind, "idempotency_keys", CLAIM_COLUMNS, rows)
      .onConflict((oc) => oc.columns([...KEY_SCOPE]).doNothing())
      .returning("invocation_id"),
  /** Points each key at its finished invocation. */
  "idempotency_keys.complete": completeKeys,
} satisfies Record<string, (db: QueryCreator<any>, kind: StoreKind, rows?: unknown) => Compilable>;

export type HotStatementName = keyof typeof STATEMENTS;
export const HOT_STATEMENT_NAMES = Object.keys(STATEMENTS) as HotStatementName[];

/**
 * Statements that run together (store/prepared.ts, runTogether): on PostgreSQL each list is one
 * statement, every part but the last a WITH clause. A call may leave parts out (no rows): their
 * parameter is an empty array.
 */
export const COMBINATIONS = {
  /** An invocation batch's rows (invocations/invocation-writes.ts). */
  "invocation-batch": ["invocations.insert", "usage_events.insert", "idempotency_keys.complete", "audit_events.insert"],
} as const satisfies Record<string, readonly HotStatementName[]>;

const compilers = new Map<StoreKind, Kysely<any>>();

/** A Kysely that only compiles, in the engine's dialect. */
function compilerFor(kind: StoreKind): Kysely<any> {
  let compiler = compilers.get(kind);
  if (!compiler) compilers.set(kind, (compiler = newCompiler(kind)));
  return compiler;
}

function newCompiler(kind: StoreKind): Kysely<any> {
  return new Kysely<any>({
    dialect: {
      createAdapter: () => (kind === "sqlite" ? new SqliteAdapter() : new PostgresAdapter()),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => (kind === "sqlite" ? new SqliteIntrospector(db) : new PostgresIntrospector(db)),
      createQueryCompiler: () => (kind === "sqlite" ? new SqliteQueryCompiler() : new PostgresQueryCompiler()),
    },
  });
}

/** Compiles a statement and checks that it binds exactly `expected`, in that order. */
function compiled(query: Compilable, expected: readonly unknown[]): string {
  const { sql: text, parameters } = query.compile();
  if (parameters.length !== expected.length || parameters.some((value, i) => value !== expected[i])) {
    throw new Error(`hot statement binds ${JSON.stringify(parameters)}, not ${JSON.stringify(expected)}: ${text}`);
  }
  return text;
}

/** Compiles a SQLite statement: its text, and the columns it binds in order (every value must be one). */
function compiledRow(query: Compilable): { sql: string; columns: string[] } {
  const { sql: text, parameters } = query.compile();
  const columns = parameters.map((value) => (typeof value === "string" && value.startsWith(COLUMN) ? value.slice(COLUMN.length) : undefined));
  if (columns.includes(undefined)) throw new Error(`hot statement binds a value that is not a column: ${text}`);
  return { sql: text, columns: columns as string[] };
}

export type CompiledHotStatements = {
  statements: Record<HotStatementName, string>;
  /** SQLite only: each statement binds one row's values, these columns in this order. */
  columns: Partial<Record<HotStatementName, string[]>>;
  /** PostgreSQL only: SQLite has no INSERT inside WITH, and no round trips to save. */
  combinations: Partial<Record<keyof typeof COMBINATIONS, string>>;
};

/** What the generated files hold for one engine. */
export function compileHotStatements(kind: StoreKind): CompiledHotStatements {
  const db = compilerFor(kind);
  if (kind === "sqlite") {
    const rows = HOT_STATEMENT_NAMES.map((name) => [name, compiledRow(STATEMENTS[name](db, kind))] as const);
    return {
      statements: Object.fromEntries(rows.map(([name, row]) => [name, row.sql])) as Record<HotStatementName, string>,
      columns: Object.fromEntries(rows.map(([name, row]) => [name, row.columns])),
      combinations: {},
    };
  }
  const statements = Object.fromEntries(HOT_STATEMENT_NAMES.map((name) => [name, compiled(STATEMENTS[name](db, kind), [ROWS])])) as Record<HotStatementName, string>;
  const combinations = Object.fromEntries(
    Object.entries(COMBINATIONS).map(([name, parts]) => {
      const markers = parts.map((_, i) => `${ROWS}${i}`);
      const last = parts.length - 1;
      let creator: QueryCreator<any> = db;
      for (let i = 0; i < last; i++) {
        const part = parts[i]!;
        creator = creator.with(`s${i}`, (qc) => STATEMENTS[part](qc, kind, markers[i]) as never);
      }
      return [name, compiled(STATEMENTS[parts[last]!](creator, kind, markers[last]), markers)];
    }),
  ) as Record<keyof typeof COMBINATIONS, string>;
  return { statements, columns: {}, combinations };
}

/** A statement's text as a template literal of the generated module. */
const literal = (text: string) => `\`${text.replace(/[\\`$]/g, (c) => `\\${c}`)}\``;

/** The generated module of one engine, as checked in under src/store/sql/. */
export function renderHotStatements(kind: StoreKind): string {
  const { statements, columns, combinations } = compileHotStatements(kind);
  const columnEntries = Object.entries(columns).map(([name, list]) => `  ${JSON.stringify(name)}: [${list!.map((column) => JSON.stringify(column)).join(", ")}],\n`);
  const statementEntries = Object.entries(statements).map(([name, text]) => `  ${JSON.stringify(name)}:\n    ${literal(text)},\n`);
  const combinationEntries = Object.entries(combinations).map(
    ([name, text]) => `  ${JSON.stringify(name)}: {\n    parts: [${COMBINATIONS[name as keyof typeof COMBINATIONS].map((part) => JSON.stringify(part)).join(", ")}],\n    sql: ${literal(text!)},\n  },\n`,
  );
  return [
    `// Generated by \`npm run generate:sql -w @toolbroker/server\` from src/store/hot-statements.ts: do not edit.`,
    kind === "sqlite"
      ? `// The hot path's statements as SQLite runs them: each writes one row, its values bound in the order of \`columns\`.`
      : `// The hot path's statements as PostgreSQL runs them: each binds its rows as one JSON parameter.`,
    ``,
    `export const statements = {\n${statementEntries.join("")}} as const;`,
    ``,
    `/** The columns each statement binds, in order (SQLite). */`,
    `export const columns: Partial<Record<keyof typeof statements, readonly string[]>> = {\n${columnEntries.join("")}};`,
    ``,
    `/** Statements run together as one (store/prepared.ts, runTogether; PostgreSQL): the parts in order, and the one statement. */`,
    `export const combinations: Record<string, { parts: readonly (keyof typeof statements)[]; sql: string }> = {\n${combinationEntries.join("")}};`,
    ``,
  ].join("\n");
}
