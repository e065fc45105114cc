/**
 * `npm pack -w @toolbroker/client` yields a package a user installs into a project of their own and
 * imports by name, with nothing else from this repository around it: the README's "install it from
 * the repository today" path, end to end. The empty project type-checks the example the tarball
 * ships against the tarball's own declarations, compiles it, and runs it against a real broker.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestBed, upstreamCalls, type ClientTestBed } from "./support/broker-setup.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const MANIFEST = JSON.parse(readFileSync(join(ROOT, "packages/client/package.json"), "utf8"));
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");

describe("the packed tarball in an empty project", () => {
  let work: string;
  let project: string;
  let tarball: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "toolbroker-client-pack-"));
    // dist/ is built by `npm ci` (the root's prepare); --ignore-scripts keeps prepack from rebuilding
    // it while another test file reads it.
    await run("npm", ["pack", "-w", "@toolbroker/client", "--pack-destination", work, "--silent", "--ignore-scripts"], { cwd: ROOT });
    tarball = join(work, readdirSync(work).find((name) => name.endsWith(".tgz"))!);
    project = join(work, "app");
    mkdirSync(project);
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "agent-app", version: "1.0.0", type: "module", private: true }));
    // --offline: the package has no dependencies, so nothing may need the network.
    await run("npm", ["install", "--no-audit", "--no-fund", "--offline", tarball], { cwd: project });
  }, 120_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("is named after the package and its version, and holds no workspace-only dependency", () => {
    expect(tarball.endsWith(`toolbroker-client-${MANIFEST.version}.tgz`)).toBe(true);
    const installed = JSON.parse(readFileSync(join(project, "node_modules/@toolbroker/client/package.json"), "utf8"));
    expect(installed.dependencies ?? {}).toEqual({});
    expect(installed.peerDependencies ?? {}).toEqual({});
    expect(readdirSync(join(project, "node_modules")).filter((name) => !name.startsWith("."))).toEqual(["@toolbroker"]);
    const lock = JSON.parse(readFileSync(join(project, "package-lock.json"), "utf8"));
    expect(Object.keys(lock.packages)).toEqual(["", "node_modules/@toolbroker/client"]);
  });

  it("ships the built entries, their declarations, the example, README and LICENSE, and no tests", () => {
    const files = listFiles(join(project, "node_modules/@toolbroker/client"));
    for (const file of ["dist/index.js", "dist/index.d.ts", "dist/control.js", "dist/control.d.ts", "dist/adapters.js", "dist/adapters.d.ts", "examples/agent-loop.ts", "README.md", "LICENSE", "package.json"]) {
      expect(files).toContain(file);
    }
    expect(files.filter((file) => file.includes(".test.") || file.startsWith("test/") || file.startsWith("scripts/"))).toEqual([]);
  });

  it("imports every entry by name", async () => {
    const script = [
      'const agent = await import("@toolbroker/client");',
      'const control = await import("@toolbroker/client/control");',
      'const adapters = await import("@toolbroker/client/adapters");',
      "console.log(JSON.stringify([typeof agent.AgentClient, typeof control.ControlClient, typeof adapters.toOpenAIStrictTools]));",
    ].join("\n");
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: project });
    expect(JSON.parse(stdout)).toEqual(["function", "function", "function"]);
  });

  describe("with a broker", () => {
    let bed: ClientTestBed;
    beforeAll(async () => {
      bed = await startTestBed();
    }, 60_000);
    afterAll(() => bed?.close());

    it("type-checks the shipped example with tsc, strict, against the installed declarations, then runs it", { timeout: 120_000 }, async () => {
      mkdirSync(join(project, "src"));
      writeFileSync(join(project, "src/agent-loop.ts"), readFileSync(join(project, "node_modules/@toolbroker/client/examples/agent-loop.ts")));
      // A plain Node project's settings: no DOM lib, the package's own declarations checked too
      // (skipLibCheck off). Only @types/node comes from the repository, as a user's project has it.
      const tsconfig = {
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          lib: ["ES2023"],
          strict: true,
          skipLibCheck: false,
          typeRoots: [join(ROOT, "node_modules/@types")],
          types: ["node"],
          rootDir: "src",
          outDir: "build",
        },
        include: ["src"],
      };
      writeFileSync(join(project, "tsconfig.json"), JSON.stringify(tsconfig));
      await run(process.execPath, [TSC, "-p", "tsconfig.json"], { cwd: project }).catch((error: { stdout?: string }) => {
        throw new Error(`tsc failed in the empty project:\n${error.stdout}`);
      });

      const { stdout } = await run(process.execPath, ["build/agent-loop.js"], {
        cwd: project,
        timeout: 60_000,
        env: {
          PATH: process.env.PATH,
          TOOLBROKER_URL: bed.broker.url,
          TOOLBROKER_CONTROL_KEY: bed.tenant.testKey,
          TOOLBROKER_AGENT_APP_ID: bed.tenant.agentAppId,
          TOOLBROKER_CONNECTED_ACCOUNT_ID: bed.accountId,
        },
      });
      expect(stdout).toMatch(/tools available: .*scm_get_authenticated_user/);
      expect(stdout).toMatch(/scm\.get_authenticated_user: .*"login":"octocat"/);
      expect(stdout).toMatch(/scm\.list_repositories: .*"repositories"/);
      expect(upstreamCalls(bed, "GET", "/user")).toBeGreaterThanOrEqual(1);
    });
  });
});

function listFiles(dir: string, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
  );
}
