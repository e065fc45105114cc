import { PostgresAdapter, sql, type Kysely } from "kysely";

/**
 * PostgreSQL: `audit_chain_tails(tenant_ids)` takes each tenant's chain lock, in the order given,
 * and then reads each chain's last row — one round trip where a lock and a lookup took two. The
 * read must come after the locks: a statement sees what was committed when it started, so a
 * lookup sent with the lock in one statement could miss the rows of the writer it waited for. A
 * VOLATILE function takes a fresh snapshot for each statement it runs, which gives that order.
 * The lock key is the one `store.lock(trx, "audit:<tenant>")` took before. SQLite, with its
 * single writer, needs neither lock nor function.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`
    create function audit_chain_tails(tenant_ids text[])
    returns table (chain_tenant_id text, last_seq integer, last_hash text)
    language plpgsql volatile
    as $$
    declare
      tenant text;
    begin
      foreach tenant in array tenant_ids loop
        perform pg_advisory_xact_lock(hashtextextended('audit:' || tenant, 0));
      end loop;
      return query
        select tail.tenant_id, tail.seq, tail.hash
        from unnest(tenant_ids) as wanted(id)
        cross join lateral (
          select e.tenant_id, e.seq, e.hash from audit_events e where e.tenant_id = wanted.id order by e.seq desc limit 1
        ) as tail;
    end
    $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`drop function audit_chain_tails(text[])`.execute(db);
}
