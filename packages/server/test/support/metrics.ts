/** Reading Prometheus text the broker serves at /metrics, for the metrics suites. */
import type { TestBroker } from "./broker.js";

export type Sample = { name: string; labels: Record<string, string>; value: number };

/** Every sample line of a Prometheus text exposition (comments skipped). */
export function parseSamples(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]!] = pair[2]!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The sum of `name`'s samples whose labels include `labels`. */
export function sumOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((total, sample) => total + sample.value, 0);
}

export async function scrape(url: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string; contentType: string | null }> {
  const response = await fetch(`${url}/metrics`, { headers });
  return { status: response.status, text: await response.text(), contentType: response.headers.get("content-type") };
}

export async function scrapeSamples(broker: TestBroker): Promise<Sample[]> {
  const { status, text } = await scrape(broker.url);
  if (status !== 200) throw new Error(`GET /metrics answered ${status}: ${text}`);
  return parseSamples(text);
}
