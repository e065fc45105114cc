import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { createWriteBatcher } from "./write-batcher.js";

/** A batch writer whose batches finish only when the test says so. */
function heldWrites() {
  const batches: { items: number[]; finish: () => void }[] = [];
  const writeBatch = (items: number[]) => new Promise<void>((finish) => batches.push({ items, finish }));
  return { batches, writeBatch };
}

describe("group commit: batches written at once", () => {
  it("writes one batch at a time by default: what arrives meanwhile waits for the next", async () => {
    const { batches, writeBatch } = heldWrites();
    const batcher = createWriteBatcher(writeBatch);
    const first = batcher.write(1);
    await nextTurn();
    const second = [batcher.write(2), batcher.write(3)];
    await nextTurn();
    expect(batches.map((batch) => batch.items)).toEqual([[1]]);
    batches[0]!.finish();
    await first;
    await nextTurn();
    expect(batches.map((batch) => batch.items)).toEqual([[1], [2, 3]]);
    batches[1]!.finish();
    await Promise.all(second);
  });

  it("with concurrency 2, starts a second batch while the first is still being written, and no more", async () => {
    const { batches, writeBatch } = heldWrites();
    const batcher = createWriteBatcher(writeBatch, { concurrency: 2 });
    const first = batcher.write(1);
    await nextTurn();
    const second = batcher.write(2);
    await nextTurn();
    const third = [batcher.write(3), batcher.write(4)];
    await nextTurn();
    expect(batches.map((batch) => batch.items)).toEqual([[1], [2]]);
    batches[1]!.finish();
    await second;
    await nextTurn();
    // The flush that wrote [2] takes what queued meanwhile; the first is still held.
    expect(batches.map((batch) => batch.items)).toEqual([[1], [2], [3, 4]]);
    batches[2]!.finish();
    batches[0]!.finish();
    await Promise.all([first, ...third]);
  });

  it("never strands a write that arrives as the last batch finishes, and close waits for every batch", async () => {
    const written: number[] = [];
    const batcher = createWriteBatcher(
      async (items: number[]) => {
        await nextTurn();
        written.push(...items);
      },
      { concurrency: 2 },
    );
    const writes: Promise<void>[] = [];
    for (let round = 0; round < 50; round += 1) {
      writes.push(batcher.write(round));
      // Each at a different moment of the flushes' progress, microtasks included.
      for (let tick = 0; tick < round % 5; tick += 1) await Promise.resolve();
      if (round % 7 === 0) await nextTurn();
    }
    await batcher.close();
    await Promise.all(writes);
    expect(written.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, index) => index));
    await expect(batcher.write(99)).rejects.toMatchObject({ code: "service_unavailable" });
  });
});
