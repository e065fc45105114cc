/**
 * `npm pack -w @toolbroker/client` yields a package a user installs into a project of their own and
 * imports by name, with nothing else from this repository around it.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

it("packs, installs into an empty project and imports every entry", { timeout: 120_000 }, async () => {
  const work = mkdtempSync(join(tmpdir(), "toolbroker-client-pack-"));
  try {
    // dist/ is built by `npm ci` (the root's prepare); --ignore-scripts keeps prepack from rebuilding
    // it while another test file reads it.
    await run("npm", ["pack", "-w", "@toolbroker/client", "--pack-destination", work, "--silent", "--ignore-scripts"], { cwd: ROOT });
    const tarball = readdirSync(work).find((name) => name.endsWith(".tgz"))!;
    const project = join(work, "app");
    await run("mkdir", ["-p", project]);
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "agent-app", version: "1.0.0", type: "module", private: true }));
    await run("npm", ["install", "--no-audit", "--no-fund", "--offline", join(work, tarball)], { cwd: project });
    const script = [
      'const agent = await import("@toolbroker/client");',
      'const control = await import("@toolbroker/client/control");',
      'const adapters = await import("@toolbroker/client/adapters");',
      "console.log(JSON.stringify([typeof agent.AgentClient, typeof control.ControlClient, typeof adapters.toOpenAIStrictTools]));",
    ].join("\n");
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: project });
    expect(JSON.parse(stdout)).toEqual(["function", "function", "function"]);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
