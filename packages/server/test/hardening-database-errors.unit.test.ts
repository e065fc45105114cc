/**
 * Issue 12, item 1: which database errors mean "the database is unavailable" (503), and the group
 * commit failing all its waiters at once on such an error — and writing what it holds on close.
 */
import { describe, expect, it } from "vitest";
import { databaseUnavailableReason, isDatabaseUnavailable } from "../src/store/database-errors.js";
import { createWriteBatcher } from "../src/store/write-batcher.js";

const withCode = (code: string, message = "x") => Object.assign(new Error(message), { code });

describe("database errors that mean the database is unavailable", () => {
  it.each([
    ["a refused connection", withCode("ECONNREFUSED")],
    ["a reset connection", withCode("ECONNRESET")],
    ["a timed out connection", withCode("ETIMEDOUT")],
    ["a broken pipe", withCode("EPIPE")],
    ["pg's lost connection", new Error("Connection terminated unexpectedly")],
    ["pg's unusable client", new Error("Client has encountered a connection error and is not queryable")],
    ["pg-pool's connect timeout", new Error("timeout exceeded when trying to connect")],
    ["a connection exception (class 08)", withCode("08006")],
    ["an administrator shutdown", withCode("57P01")],
    ["a server starting up", withCode("57P03")],
    ["too many connections", withCode("53300")],
    ["a full disk on the server", withCode("53100")],
    ["a read-only standby", withCode("25006")],
    ["SQLite I/O errors", withCode("SQLITE_IOERR_WRITE")],
    ["a full disk", withCode("SQLITE_FULL")],
    ["a file that cannot be opened", withCode("SQLITE_CANTOPEN")],
    ["a read-only file", withCode("SQLITE_READONLY")],
    ["a moved file", withCode("SQLITE_READONLY_DBMOVED")],
    ["a damaged file", withCode("SQLITE_CORRUPT")],
    ["not a database", withCode("SQLITE_NOTADB")],
    ["a lock held past the busy timeout", withCode("SQLITE_BUSY")],
    ["all addresses refusing", Object.assign(new AggregateError([withCode("ECONNREFUSED"), withCode("ECONNREFUSED")]), { code: "ECONNREFUSED" })],
    ["a wrapped cause", Object.assign(new Error("the credential vault is unavailable"), { cause: withCode("ECONNRESET") })],
  ])("%s", (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ["a unique violation", withCode("23505")],
    ["a foreign-key violation", withCode("23503")],
    ["a deadlock (a race, retried elsewhere)", withCode("40P01")],
    ["a serialization failure", withCode("40001")],
    ["a stale SQLite snapshot (a race)", withCode("SQLITE_BUSY_SNAPSHOT")],
    ["a SQLite constraint", withCode("SQLITE_CONSTRAINT_UNIQUE")],
    ["a bad byte sequence", withCode("22021")],
    ["a TypeError", new TypeError("Cannot read properties of null")],
    ["not an error", "ECONNREFUSED"],
  ])("not %s", (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it("reports a code, never a message that could carry a connection string", () => {
    expect(databaseUnavailableReason(withCode("ECONNREFUSED", "connect ECONNREFUSED postgres://user:secret@db:5432"))).toBe("ECONNREFUSED");
    expect(databaseUnavailableReason(new Error("Connection terminated unexpectedly"))).toBe("connection_lost");
  });
});

describe("the group commit when the database is unavailable", () => {
  it("rejects every waiter of the batch with the error, without retrying them one by one", async () => {
    const calls: number[][] = [];
    const batcher = createWriteBatcher<number>(async (items) => {
      calls.push(items);
      throw withCode("ECONNREFUSED");
    });
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map((n) => batcher.write(n)));
    expect(results.map((r) => r.status)).toEqual(Array(5).fill("rejected"));
    expect(calls).toEqual([[1, 2, 3, 4, 5]]);
  });

  it("still retries one by one when one item is bad, so the others are written", async () => {
    const written: number[] = [];
    const batcher = createWriteBatcher<number>(async (items) => {
      if (items.includes(3)) throw withCode("23505");
      written.push(...items);
    });
    const results = await Promise.allSettled([1, 2, 3, 4].map((n) => batcher.write(n)));
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    expect(written).toEqual([1, 2, 4]);
  });

  it("writes what it holds on close, then refuses new writes", async () => {
    const written: number[] = [];
    const batcher = createWriteBatcher<number>(async (items) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      written.push(...items);
    });
    const pending = [1, 2, 3].map((n) => batcher.write(n));
    await batcher.close();
    expect(written).toEqual([1, 2, 3]);
    await Promise.all(pending);
    await expect(batcher.write(4)).rejects.toMatchObject({ code: "service_unavailable" });
  });

  it("keeps writing after a flush ends, also for a write that arrives as it ends", async () => {
    const written: number[] = [];
    const batcher = createWriteBatcher<number>(async (items) => {
      written.push(...items);
    });
    await batcher.write(1).then(() => batcher.write(2));
    await batcher.write(3);
    expect(written).toEqual([1, 2, 3]);
  });
});
