/**
 * DESIGN §5 CLI: `toolbroker <command>` run as a real child process on the same configuration
 * and database as a running broker, whose HTTP API then accepts what the CLI printed. Every
 * command runs on SQLite; the database commands run once more on PostgreSQL when it is available.
 */
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBroker, testMasterKey, type TestBroker } from "./support/broker.js";
import { runToolbroker } from "./support/cli.js";
import { createTestDatabase, POSTGRES_URL, type DbKind, type TestDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { call } from "./support/http.js";

type Bootstrap = { tenant_id: string; agent_app_id: string; control_keys: { test: string; live: string }; operator_token: string };

// Each command is a fresh Node process; leave a loaded machine room.
const SLOW = { timeout: 120_000 };

function cliEnv(database: TestDatabase, masterKeys: string): Record<string, string> {
  return {
    BROKER_ENV: "test",
    BROKER_DATA_DIR: database.dataDir,
    BROKER_MASTER_KEYS: masterKeys,
    ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
  };
}

/**
 * A database shared by the CLI and a broker started on it with the same master keys (the CLI
 * and the broker also share the development issuer's key file in the data dir), bootstrapped
 * through the CLI.
 */
function cliSession(kind: DbKind) {
  const masterKeys = testMasterKey("cli-1");
  const session = {} as { database: TestDatabase; broker: TestBroker; env: Record<string, string>; boot: Bootstrap };

  beforeAll(async () => {
    session.database = await createTestDatabase(kind);
    session.env = cliEnv(session.database, masterKeys);
    session.broker = await startBroker(kind, { database: session.database, env: { BROKER_MASTER_KEYS: masterKeys } });
    const result = await runToolbroker(["bootstrap", "--tenant", "Acme", "--operator", "alice", "--json"], session.env);
    expect(result.code, result.stderr).toBe(0);
    session.boot = JSON.parse(result.stdout) as Bootstrap;
  }, SLOW.timeout);
  afterAll(async () => {
    await session.broker.close();
    await session.database.drop();
  });

  return {
    session,
    masterKeys,
    cli: (...args: string[]) => runToolbroker(args, session.env),
    operator: (token: string) => ({ token, tenant: session.boot.tenant_id }),
    mint: (key: string, agentAppId: string, env: "test" | "live") =>
      call(session.broker, "POST", "/v1/broker/token", { token: key, body: { agent_app_id: agentAppId, env } }),
  };
}

/** Every command of DESIGN §5 (and serve, worker), with the options its `--help` must list. */
const COMMANDS: [string, string[]][] = [
  ["serve", []],
  ["worker", []],
  ["migrate", []],
  ["bootstrap", ["--tenant <name>", "--operator <subject>", "--issuer <url>", "--json"]],
  ["operator-token", ["--subject <subject>", "--ttl <duration>"]],
  ["members add", ["--tenant <id>", "--subject <subject>", "--issuer <url>", "--role <role>", '"admin", "viewer"']],
  ["keys create", ["--tenant <id>", "--env <env>", '"test", "live"', "--name <name>", "--json"]],
  ["agent-apps create", ["--tenant <id>", "--name <name>", "--json"]],
  ["audit verify", ["--tenant <id>"]],
  ["rotate-master-key", []],
  ["login", ["--url <url>", "--token <token>", "--subject <subject>", "--tenant <id>", "config.json"]],
  ["logout", []],
  ["whoami", []],
  ["api", ["<method>", "<path>", "-d, --data <json>", "--as <caller>", '"operator", "agent"', "--app <id>", "-q, --query <path>", "--fail"]],
  ["token", ["--app <id>", "--env <env>"]],
  ["listen", ["--forward-to <url>", "--secret <whsec>", "--type <type>", "connection.created", "--json"]],
];

// Help loads no configuration, so it works even where every command would refuse to start.
describe("toolbroker CLI help", SLOW, () => {
  const unconfigured = (...args: string[]) => runToolbroker(args, { BROKER_ENV: "production" });

  it("help and --help print the usage with every command and its description, exit 0", async () => {
    const [help, dashHelp, short] = await Promise.all([unconfigured("help"), unconfigured("--help"), unconfigured("-h")]);
    for (const result of [help, dashHelp, short]) expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(help.stdout).toMatch(/^usage: toolbroker <command> \[options\]\n/);
    for (const [command] of COMMANDS) expect(help.stdout).toMatch(new RegExp(`^  ${command}( \\[options\\])?( <[a-z]+>)* +[a-z]`, "m"));
    expect(help.stdout).toMatch(/members add \[options\] +grant an identity access to a tenant/);
    expect(dashHelp.stdout).toBe(help.stdout);
    expect(short.stdout).toBe(help.stdout);
  });

  // Sixteen commands, each a fresh Node process.
  it("<command> --help prints that command's usage, description and options, exit 0", { timeout: 300_000 }, async () => {
    // Four at a time: sixteen Node processes at once outlast the timeout on a loaded machine.
    const runs: { command: string; options: string[]; result: Awaited<ReturnType<typeof unconfigured>> }[] = [];
    for (let start = 0; start < COMMANDS.length; start += 4) {
      runs.push(...(await Promise.all(COMMANDS.slice(start, start + 4).map(async ([command, options]) => ({ command, options, result: await unconfigured(...command.split(" "), "--help") })))));
    }
    for (const { command, options, result } of runs) {
      expect(result, command).toMatchObject({ code: 0, stderr: "" });
      expect(result.stdout, command).toMatch(new RegExp(`^usage: toolbroker ${command} `));
      expect(result.stdout.split("\n")[2], command).toMatch(/^[a-z]/);
      for (const option of [...options, "-h, --help"]) expect(result.stdout, command).toContain(option);
    }
  });

  it("an unknown command is one line on stderr, then the usage, exit 2", async () => {
    const [root, nested] = await Promise.all([unconfigured("frobnicate"), unconfigured("keys", "destroy", "--tenant", "x")]);
    for (const [result, command] of [[root, "frobnicate"], [nested, "keys destroy"]] as const) {
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr.split("\n").slice(0, 3)).toEqual([`toolbroker: unknown command "${command}"`, "", "usage: toolbroker <command> [options]"]);
    }
  });

  it("a missing required option is one line on stderr naming it, then that command's own usage and options, exit 2", async () => {
    const [name, tenant] = await Promise.all([
      unconfigured("agent-apps", "create", "--tenant", "00000000-0000-4000-8000-000000000000"),
      unconfigured("keys", "create", "--env", "test"),
    ]);
    expect(name.code).toBe(2);
    expect(name.stderr.split("\n").slice(0, 3)).toEqual(["toolbroker: required option '--name <name>' not specified", "", "usage: toolbroker agent-apps create [options]"]);
    // Issue 41: not the global help.
    expect(tenant.code).toBe(2);
    expect(tenant.stderr.split("\n").slice(0, 3)).toEqual(["toolbroker: required option '--tenant <id>' not specified", "", "usage: toolbroker keys create [options]"]);
    expect(tenant.stderr).toContain("--env <env>");
    expect(tenant.stderr).not.toContain("rotate-master-key");
  });
});

describe("toolbroker CLI [sqlite]", SLOW, () => {
  const { session, masterKeys, cli, operator, mint } = cliSession("sqlite");

  it("migrate applies the migrations to a fresh database, then has nothing to do", async () => {
    const fresh = await createTestDatabase("sqlite");
    try {
      const first = await runToolbroker(["migrate"], cliEnv(fresh, masterKeys));
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toMatch(/^applied 0001-foundation/);
      expect(await runToolbroker(["migrate"], cliEnv(fresh, masterKeys))).toMatchObject({ code: 0, stdout: "schema is up to date\n" });
    } finally {
      await fresh.drop();
    }
  });

  it("bootstrap --json prints the tenant, agent app, one key per env and an operator token", () => {
    const { boot } = session;
    expect(Object.keys(boot).sort()).toEqual(["agent_app_id", "control_keys", "operator_token", "tenant_id"]);
    expect(boot.tenant_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(boot.agent_app_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(boot.control_keys.test).toMatch(/^bk_test_[0-9A-Za-z]{38}$/);
    expect(boot.control_keys.live).toMatch(/^bk_live_[0-9A-Za-z]{38}$/);
    expect(decodeJwt(boot.operator_token)).toMatchObject({ iss: "urn:toolbroker:dev-issuer", sub: "alice" });
  });

  it("prints keys the running broker accepts for minting broker tokens", async () => {
    const { boot } = session;
    expect((await mint(boot.control_keys.test, boot.agent_app_id, "test")).status).toBe(200);
    expect((await mint(boot.control_keys.live, boot.agent_app_id, "live")).status).toBe(200);
    expectError(await mint(boot.control_keys.test, boot.agent_app_id, "live"), 403, "environment_mismatch");
  });

  it("prints an operator token that makes the operator admin of the new tenant", async () => {
    const { boot, broker } = session;
    const apps = await call(broker, "GET", "/v1/agent-apps", operator(boot.operator_token));
    expect(apps.status).toBe(200);
    expect(apps.body.data).toEqual([expect.objectContaining({ id: boot.agent_app_id, status: "active" })]);
    expect((await call(broker, "POST", "/v1/agent-apps", { ...operator(boot.operator_token), body: { name: "by alice" } })).status).toBe(201);
  });

  it("operator-token --subject alice --ttl 10m prints a ten-minute token the broker accepts", async () => {
    const result = await cli("operator-token", "--subject", "alice", "--ttl", "10m");
    expect(result.code, result.stderr).toBe(0);
    const token = result.stdout.trim();
    const claims = decodeJwt(token);
    expect(claims.exp! - claims.iat!).toBe(600);
    expect((await call(session.broker, "GET", "/v1/keys", operator(token))).status).toBe(200);
  });

  it("members add grants a viewer read access only", async () => {
    const { boot, broker } = session;
    const added = await cli("members", "add", "--tenant", boot.tenant_id, "--subject", "bob", "--role", "viewer");
    expect(added.code, added.stderr).toBe(0);
    const [bob, carol] = await Promise.all([cli("operator-token", "--subject", "bob"), cli("operator-token", "--subject", "carol")]);
    expect((await call(broker, "GET", "/v1/keys", operator(bob.stdout.trim()))).status).toBe(200);
    expectError(await call(broker, "POST", "/v1/keys", { ...operator(bob.stdout.trim()), body: { env: "test" } }), 403, "forbidden");
    expectError(await call(broker, "GET", "/v1/keys", operator(carol.stdout.trim())), 401, "unauthorized");
  });

  it("keys create --json prints a new key the broker accepts", async () => {
    const { boot, broker } = session;
    const result = await cli("keys", "create", "--tenant", boot.tenant_id, "--env", "live", "--name", "ci", "--json");
    expect(result.code, result.stderr).toBe(0);
    const created = JSON.parse(result.stdout);
    expect(created).toMatchObject({ env: "live", name: "ci", status: "active", key: expect.stringMatching(/^bk_live_/) });
    expect((await mint(created.key, boot.agent_app_id, "live")).status).toBe(200);
    const listed = await call(broker, "GET", "/v1/keys", operator(boot.operator_token));
    expect(listed.body.data.map((k: { id: string }) => k.id)).toContain(created.id);
  });

  it("agent-apps create --json prints an agent app that can be minted for", async () => {
    const { boot } = session;
    const result = await cli("agent-apps", "create", "--tenant", boot.tenant_id, "--name", "CLI app", "--json");
    expect(result.code, result.stderr).toBe(0);
    const app = JSON.parse(result.stdout);
    expect(app).toMatchObject({ name: "CLI app", status: "active" });
    expect((await mint(boot.control_keys.test, app.id, "test")).status).toBe(200);
  });

  it("audits what the CLI did under the cli actor", async () => {
    const events = (await call(session.broker, "GET", "/v1/audit?limit=200", operator(session.boot.operator_token))).body.data as { action: string; actor: { type: string } }[];
    const cliActions = events.filter((e) => e.actor.type === "cli").map((e) => e.action);
    expect(cliActions).toEqual(expect.arrayContaining(["tenant.created", "member.added", "control_key.created", "agent_app.created"]));
  });

  it("audit verify exits 0 on an intact chain and 1 once a row is tampered with", async () => {
    await expectAuditVerifyDetectsTampering(session, cli);
  });

  it("exits 2 with the usage for an unknown command or no command", async () => {
    const runs = await Promise.all([["frobnicate"], [], ["keys", "destroy"]].map(async (args) => ({ args, result: await cli(...args) })));
    for (const { args, result } of runs) {
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stdout + result.stderr).toMatch(/usage: toolbroker <command>/);
    }
  });

  it("exits 2 with the usage for a missing or malformed option", async () => {
    const { boot } = session;
    const cases = [["keys", "create", "--tenant", boot.tenant_id], ["audit", "verify", "--tenant", "acme"], ["bootstrap", "--tenant", "X", "--nope"]];
    const runs = await Promise.all(cases.map(async (args) => ({ args, result: await cli(...args) })));
    for (const { args, result } of runs) {
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`usage: toolbroker ${args[0] === "bootstrap" ? "bootstrap" : `${args[0]} ${args[1]}`} \\[options\\]`));
    }
  });

  it("refuses to start in production without its settings, one line per problem", async () => {
    const result = await runToolbroker(["migrate"], { BROKER_ENV: "production", BROKER_DATA_DIR: session.database.dataDir });
    expect(result.code).toBe(78);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line).toMatch(/^toolbroker: /);
  });
});

(POSTGRES_URL ? describe : describe.skip)("toolbroker CLI [postgres]", SLOW, () => {
  const { session, masterKeys, cli, operator, mint } = cliSession("postgres");

  it("migrate applies the migrations to a fresh PostgreSQL database, then has nothing to do", async () => {
    const fresh = await createTestDatabase("postgres");
    try {
      const first = await runToolbroker(["migrate"], cliEnv(fresh, masterKeys));
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toMatch(/^applied 0001-foundation/);
      expect(await runToolbroker(["migrate"], cliEnv(fresh, masterKeys))).toMatchObject({ code: 0, stdout: "schema is up to date\n" });
    } finally {
      await fresh.drop();
    }
  });

  it("bootstraps through DATABASE_URL, and the broker accepts the printed key and token", async () => {
    const { boot, broker } = session;
    expect((await mint(boot.control_keys.test, boot.agent_app_id, "test")).status).toBe(200);
    expect((await call(broker, "GET", "/v1/agent-apps", operator(boot.operator_token))).status).toBe(200);
    const created = JSON.parse((await cli("keys", "create", "--tenant", boot.tenant_id, "--env", "test", "--json")).stdout);
    expect((await mint(created.key, boot.agent_app_id, "test")).status).toBe(200);
  });

  it("audit verify exits 0 on an intact chain and 1 once a row is tampered with", async () => {
    await expectAuditVerifyDetectsTampering(session, cli);
  });
});

async function expectAuditVerifyDetectsTampering(
  session: { broker: TestBroker; boot: Bootstrap },
  cli: (...args: string[]) => ReturnType<typeof runToolbroker>,
) {
  const tenantId = session.boot.tenant_id;
  const intact = await cli("audit", "verify", "--tenant", tenantId);
  expect(intact.code, intact.stderr).toBe(0);
  expect(intact.stdout).toMatch(/^audit chain intact: \d+ events/);

  await session.broker.runtime.store.db.updateTable("audit_events").set({ outcome: "failure" }).where("tenant_id", "=", tenantId).where("seq", "=", 2).execute();
  const broken = await cli("audit", "verify", "--tenant", tenantId);
  expect(broken.code).toBe(1);
  expect(broken.stderr).toMatch(/BROKEN at seq 2/);
}
