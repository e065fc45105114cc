/**
 * Issue 16: the MCP Inspector's CLI (`@modelcontextprotocol/inspector-cli`), a client nobody here
 * wrote, lists and calls the broker's tools over Streamable HTTP with a broker JWT.
 */
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScmTenant, startScmWorld, type ScmTenant, type ScmWorld } from "./support/approvals.js";

const INSPECTOR = join(dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/inspector-cli")), "index.js");
// It finds its own package.json through a path relative to the working directory, so it runs from its folder.
const run = (file: string, args: string[], options: { timeout: number }) => promisify(execFile)(file, args, { ...options, cwd: dirname(INSPECTOR) });

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
});
