/**
 * V8 chooses how far the heap may grow before its next full collection from how fast the program
 * allocates; under a steady stream of requests it lets garbage pile up to several times the live
 * heap (the broker's RSS climbed from about 150 MB to 250 – 330 MB under load and stayed there).
 * A fixed factor keeps the heap near what is live. V8 reads the flag each time it sets a new limit,
 * so setting it at start works; NODE_OPTIONS cannot carry it.
 */
import { setFlagsFromString } from "node:v8";

export function limitHeapGrowth(percent: number, setFlags: (flags: string) => void = setFlagsFromString): void {
  if (percent > 0) setFlags(`--heap-growing-percent=${percent}`);
}
