/**
 * Issue 16: the MCP Inspector's CLI (`@modelcontextprotocol/inspector-cli`), a client nobody here
 * wrote, lists and calls the broker's tools over Streamable HTTP with a broker JWT.
 * Issue 41: the commands docs/mcp.md shows (`npm run -s inspect -- …` from the repository root)
 * work as written.
 */
import { execFile, execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScmTenant, startScmWorld, type ScmTenant, type ScmWorld } from "./support/approvals.js";

const INSPECTOR = join(dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/inspector-cli")), "index.js");
// It finds its own package.json through a path relative to the working directory, so it runs from its folder.
const run = (file: string, args: string[], options: { timeout: number }) => promisify(execFile)(file, args, { ...options, cwd: dirname(INSPECTOR) });
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

/** The sh block of docs/mcp.md that runs the Inspector, exactly as a reader copies it. */
function documentedInspectorCommands(): string {
  const doc = readFileSync(join(ROOT, "docs/mcp.md"), "utf8");
  const block = [...doc.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!).find((text) => text.includes("inspect"));
  if (!block) throw new Error("docs/mcp.md shows no Inspector command");
  return block;
}

const hasCommand = (name: string) => {
  try {
    execFileSync("sh", ["-c", `command -v ${name}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

/** Splits the JSON documents the Inspector prints one after the other (not always on a new line). */
function jsonDocuments(stdout: string): unknown[] {
  const documents: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let index = 0; index < stdout.length; index++) {
    const char = stdout[index];
    if (inString) {
      if (char === "\\") index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{") {
      if (depth++ === 0) start = index;
    } else if (char === "}" && --depth === 0) documents.push(JSON.parse(stdout.slice(start, index + 1)));
  }
  return documents;
}

describe("the MCP Inspector CLI against the broker", () => {
  let world: ScmWorld;
  let tenant: ScmTenant;

  beforeAll(async () => {
    world = await startScmWorld("sqlite");
    tenant = await createScmTenant(world);
  });
  afterAll(async () => world?.close());

  const inspect = async (...args: string[]) => {
    const { stdout } = await run(process.execPath, [INSPECTOR, `${world.broker.url}/mcp`, "--transport", "http", "--header", `Authorization: Bearer ${tenant.token}`, ...args], { timeout: 30_000 });
    return JSON.parse(stdout);
  };

  it("lists the tools", { timeout: 60_000 }, async () => {
    const listed = await inspect("--method", "tools/list");
    expect(listed.tools.map((tool: { name: string }) => tool.name)).toEqual(expect.arrayContaining(["scm_get_authenticated_user", "scm_delete_repository"]));
  });

  it("calls a tool and prints its structured content", { timeout: 60_000 }, async () => {
    const result = await inspect("--method", "tools/call", "--tool-name", "scm_get_repository", "--tool-arg", `owner=${tenant.owner}`, "repo=hello-world");
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent).toMatchObject({ full_name: `${tenant.owner}/hello-world` });
  });

  it("fails without a token, as the broker answers 401", { timeout: 60_000 }, async () => {
    await expect(run(process.execPath, [INSPECTOR, `${world.broker.url}/mcp`, "--transport", "http", "--method", "tools/list"], { timeout: 30_000 })).rejects.toThrow(/401|Unauthorized|unauthorized/);
  });

  describe("the commands docs/mcp.md shows, from the repository root", () => {
    it("mint a JWT with curl, list the tools and call one through `npm run -s inspect`", { timeout: 90_000, skip: !hasCommand("curl") || !hasCommand("jq") }, async () => {
      const script = documentedInspectorCommands();
      expect(script).toMatch(/^npm run -s inspect -- \$BROKER\/mcp /m);
      const { stdout } = await promisify(execFile)("sh", ["-euc", script], {
        cwd: ROOT,
        timeout: 80_000,
        env: { ...process.env, BROKER: world.broker.url, KEY: tenant.testKey, APP: tenant.agentAppId },
      });
      const [listed, called] = jsonDocuments(stdout) as [{ tools: { name: string }[] }, { isError?: boolean; structuredContent: unknown }];
      expect(listed.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["scm_get_authenticated_user", "scm_delete_repository"]));
      expect(called.isError ?? false).toBe(false);
      expect(called.structuredContent).toMatchObject({ login: tenant.owner });
    });

    it("`npm run inspect -- --help` prints the CLI's options, not a crash", { timeout: 60_000 }, async () => {
      const { stdout } = await promisify(execFile)("npm", ["run", "-s", "inspect", "--", "--help"], { cwd: ROOT, timeout: 50_000 });
      expect(stdout).toMatch(/Usage: inspector-cli \[options\] <target\.\.\.>/);
      expect(stdout).toMatch(/--method <method>/);
    });

    it("passes the Inspector's failure on as the exit status (a JWT the broker refuses)", { timeout: 60_000 }, async () => {
      const refused = promisify(execFile)("npm", ["run", "-s", "inspect", "--", `${world.broker.url}/mcp`, "--transport", "http", "--header", "Authorization: Bearer not-a-jwt", "--method", "tools/list"], { cwd: ROOT, timeout: 50_000 });
      await expect(refused).rejects.toMatchObject({ code: 1 });
    });
  });
});
