/**
 * What every browser test of the console shares: Debian's Chromium with the flags that keep it off
 * the network, the console build it serves, where screenshots go, the two viewports, and the one
 * line a suite prints when it is skipped for want of Chromium or the build.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const CHROMIUM = "/usr/bin/chromium";
export const CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
export const CONSOLE_DIST = fileURLToPath(new URL("../../dist", import.meta.url));
export const TEST_OUTPUT = fileURLToPath(new URL("../../test-output", import.meta.url));
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** True (and says so on stdout) when the suite cannot run here; `consoleBuild: false` for pages the broker renders itself. */
export function browserSuiteSkipped(suite: string, { consoleBuild = true } = {}): boolean {
  const missing = [
    !existsSync(CHROMIUM) && `${CHROMIUM} (apt-get install chromium)`,
    consoleBuild && !existsSync(`${CONSOLE_DIST}/index.html`) && "the console build (npm run build -w @toolbroker/console)",
  ].filter(Boolean);
  if (missing.length) process.stdout.write(`\n[console] ${suite} browser tests SKIPPED: missing ${missing.join(" and ")}\n\n`);
  return missing.length > 0;
}
