/**
 * The package as an agent developer installs it: built with `tsc -p tsconfig.build.json`, imported
 * through its `exports` map, and the README's example run against a started broker, both as a
 * function and as the script a developer runs.
 */
import { execFile, execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decideWhenPending, startTestBed, upstreamCalls, type ClientTestBed } from "./support/broker-setup.js";

const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const DIST = join(PACKAGE_DIR, "dist");
const require = createRequire(import.meta.url);

/**
 * Imports a specifier only at run time: vite resolves literal imports while transforming this
 * file, before beforeAll has built dist/, which on a fresh clone does not exist yet.
 */
const importBuilt = <T>(specifier: string): Promise<T> => import(/* @vite-ignore */ specifier);

/** Every dist module a dist entry loads, following relative imports. */
function moduleGraph(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  const source = readFileSync(join(DIST, entry), "utf8");
  for (const [, target] of source.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+"(\.\/[^"]+)"/g)) moduleGraph(target!.slice(2), seen);
  for (const [, target] of source.matchAll(/import\("(\.\/[^"]+)"\)/g)) moduleGraph(target!.slice(2), seen);
  return seen;
}

describe("the published package", () => {
  let bed: ClientTestBed;
  let pkg: typeof import("@toolbroker/client");
  let example: typeof import("../examples/agent-loop.js");

  beforeAll(async () => {
    execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.build.json"], { cwd: PACKAGE_DIR, stdio: "pipe" });
    pkg = await importBuilt<typeof import("@toolbroker/client")>("@toolbroker/client");
    example = await import("../examples/agent-loop.js");
    bed = await startTestBed();
  }, 120_000);
  afterAll(() => bed?.close());

  it("declares no runtime dependencies, ESM only, free of side effects", () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, "package.json"), "utf8"));
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.type).toBe("module");
    expect(manifest.sideEffects).toBe(false);
    expect(Object.keys(manifest.exports)).toEqual([".", "./control", "./adapters", "./package.json"]);
  });

  it("is ready to publish: public, versioned, provenance-ready, built and tested before publishing", () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, "package.json"), "utf8"));
    expect(manifest.private).toBeUndefined();
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(manifest.version).not.toBe("0.0.0");
    expect(manifest.publishConfig).toEqual({ access: "public", provenance: true });
    // npm provenance checks that repository.url names the repository the workflow ran in.
    expect(manifest.repository).toMatchObject({ type: "git", directory: "packages/client" });
    expect(manifest.repository.url).toMatch(/^git\+https:\/\/github\.com\/[^/]+\/[^/]+\.git$/);
    expect(manifest.license).toBe("Apache-2.0");
    expect(manifest.engines.node).toBe(">=20");
    expect(manifest.scripts.prepublishOnly).toMatch(/npm run build.*npm test/);
    expect(manifest.files).toEqual(expect.arrayContaining(["dist", "README.md", "LICENSE"]));
    for (const [entry, conditions] of Object.entries(manifest.exports)) {
      if (typeof conditions === "string") continue;
      expect(Object.keys(conditions as object), entry).toEqual(["types", "default"]);
    }
    expect([manifest.main, manifest.types]).toEqual(["./dist/index.js", "./dist/index.d.ts"]);
  });

  it("serves each entry point through the exports map, with type declarations", async () => {
    expect(typeof pkg.AgentClient).toBe("function");
    expect("ControlClient" in pkg).toBe(false);
    const control = await importBuilt<typeof import("@toolbroker/client/control")>("@toolbroker/client/control");
    expect(typeof control.ControlClient).toBe("function");
    const adapters = await importBuilt<typeof import("@toolbroker/client/adapters")>("@toolbroker/client/adapters");
    expect(typeof adapters.toOpenAITools).toBe("function");
    expect(typeof adapters.toOpenAIStrictTools).toBe("function");
    expect(typeof adapters.toGeminiFunctionDeclarations).toBe("function");
    for (const entry of ["index", "control", "adapters"]) expect(readFileSync(join(DIST, `${entry}.d.ts`), "utf8").length).toBeGreaterThan(0);
  });

  it("keeps the control client and the adapters out of what the agent entry loads", () => {
    const agentGraph = moduleGraph("index.js");
    expect(agentGraph.has("index.js")).toBe(true);
    expect(agentGraph.has("agent-client.js")).toBe(true);
    expect(agentGraph.has("control-client.js")).toBe(false);
    expect(agentGraph.has("environment.js")).toBe(false);
    expect(agentGraph.has("adapters.js")).toBe(false);
    expect(agentGraph.has("model-schemas.js")).toBe(false);
    // The adapters stand alone: only their own schema rewriting and model-safe naming come with them.
    expect(moduleGraph("adapters.js")).toEqual(new Set(["adapters.js", "model-schemas.js", "model-names.js"]));
  });

  it("uses only web-platform globals: no Node built-ins, no process", () => {
    const graph = new Set([...moduleGraph("index.js"), ...moduleGraph("control.js"), ...moduleGraph("adapters.js")]);
    for (const file of graph) {
      const source = readFileSync(join(DIST, file), "utf8");
      expect(source, file).not.toMatch(/from\s+"node:|require\(|\bprocess\.|\bBuffer\b/);
      expect(source, file).not.toMatch(/from\s+"[^./]/);
    }
  });

  it("runs the example's loop: lists tools, executes, and waits through an approval and a denial", async () => {
    const client = new pkg.AgentClient({ baseUrl: bed.broker.url, token: await bed.mintToken() });
    const lines: string[] = [];
    const operator = (async () => {
      await decideWhenPending(bed, "approve");
      await decideWhenPending(bed, "deny");
    })();
    const outcomes = await example.runAgentLoop(client, {
      connectedAccountId: bed.accountId,
      pollInterval: 50,
      log: (line) => lines.push(line),
      plan: [
        { tool_name: "scm.get_authenticated_user", arguments: {} },
        { tool_name: "scm.delete_repository", arguments: { owner: "octocat", repo: "hello-world" } },
        { tool_name: "scm.delete_repository", arguments: { owner: "octocat", repo: "spoon-knife" } },
      ],
    });
    await operator;

    expect(outcomes).toEqual([
      { tool_name: "scm.get_authenticated_user", status: "succeeded", result: expect.objectContaining({ login: "octocat" }) },
      { tool_name: "scm.delete_repository", status: "succeeded", result: { deleted: true, full_name: "octocat/hello-world" } },
      { tool_name: "scm.delete_repository", status: "denied", error: "policy_denied" },
    ]);
    expect(lines[0]).toMatch(/tools available: .*scm_get_authenticated_user/);
    expect(lines.filter((line) => line.includes("waiting for a human to decide approval"))).toHaveLength(2);
    expect(upstreamCalls(bed, "DELETE", "/repos/octocat/hello-world")).toBe(1);
    expect(upstreamCalls(bed, "DELETE", "/repos/octocat/spoon-knife")).toBe(0);
  });

  it("runs as a script from its environment variables, minting its token with a control key", async () => {
    const tsx = join(dirname(require.resolve("tsx/package.json")), "dist/cli.mjs");
    const { stdout } = await promisify(execFile)(process.execPath, [tsx, "examples/agent-loop.ts"], {
      cwd: PACKAGE_DIR,
      env: {
        ...process.env,
        TOOLBROKER_URL: bed.broker.url,
        TOOLBROKER_CONTROL_KEY: bed.tenant.testKey,
        TOOLBROKER_AGENT_APP_ID: bed.tenant.agentAppId,
        TOOLBROKER_CONNECTED_ACCOUNT_ID: bed.accountId,
      },
    });
    expect(stdout).toMatch(/scm\.get_authenticated_user: .*"login":"octocat"/);
    expect(stdout).toMatch(/scm\.list_repositories: .*"repositories"/);
  });
});
