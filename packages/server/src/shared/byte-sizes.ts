/** Sizes in messages: a limit a person reads at a glance, and exactly. */

/** "1 MiB", "16 KiB", "1500 bytes": a size as people read it. */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of [["MiB", 1024 * 1024], ["KiB", 1024]] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  }
  return `${bytes} bytes`;
}

const exactBytes = (bytes: number) => `${bytes.toLocaleString("en-US")} bytes`;

/** "1 MiB (1,048,576 bytes)", "1,500 bytes": a limit in the unit people read, and exactly, so it can be compared with a file size. */
export function formatByteLimit(bytes: number): string {
  const short = formatBytes(bytes);
  return short.endsWith(" bytes") ? exactBytes(bytes) : `${short} (${exactBytes(bytes)})`;
}
