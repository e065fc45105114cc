/**
 * `toolbroker <command>`: the same configuration as the server (see the CLI table in docs/configuration.md).
 * commander parses the arguments and writes the help; cli/commands.ts does the work.
 */
import { Command, CommanderError, Help, InvalidArgumentError, Option } from "commander";
import * as clientCommands from "./cli/client-commands.js";
import * as commands from "./cli/commands.js";
import { UsageError } from "./cli/commands.js";
import { listen } from "./cli/listen.js";
import { ConfigError, loadClientSettings, loadConfig, type ClientSettings, type Config } from "./config.js";
import { EVENT_TYPES } from "./events/event-outbox.js";
import { isUuid } from "./ids.js";

function tenantId(value: string): string {
  if (!isUuid(value)) throw new InvalidArgumentError("Expected a tenant id (uuid).");
  return value;
}

// Factories, so that no two commands share (and could alter) one Option object.
const tenantOption = () => new Option("--tenant <id>", "tenant id (uuid)").makeOptionMandatory().argParser(tenantId);
const issuerOption = () => new Option("--issuer <url>", "OIDC issuer of the subject (default: the configured issuer)");
const jsonOption = () => new Option("--json", "print JSON instead of text");

/** Wraps a command body for commander, which ignores what an action returns. */
type Run = <O>(action: (config: Config, options: O) => Promise<number>) => (options: O) => Promise<void>;
/** The same for the commands that talk to a broker over HTTP: they read the client settings instead (and take arguments). */
type RunClient = <A extends unknown[]>(action: (settings: ClientSettings, ...args: A) => Promise<number>) => (...args: A) => Promise<void>;

const commanderHelp = new Help();

function rootCommand(): Command {
  return new Command("toolbroker")
    .usage("<command> [options]")
    .description("Run the broker and administer its tenants, with the same configuration as the server.")
    .addHelpText("after", "\nrun `toolbroker <command> --help` for a command's options")
    // runCli decides exit codes and prints errors on one line, so commander must neither exit nor print them.
    .exitOverride()
    .configureOutput({ outputError: () => {} })
    .configureHelp({
      // Lower-case titles keep the `usage: toolbroker <command>` line scripts and tests have always seen.
      styleTitle: (title) => title.toLowerCase(),
      // List `keys create` rather than the bare group `keys`, so the top-level help names every command.
      visibleCommands: (cmd) => commanderHelp.visibleCommands(cmd).flatMap((sub) => (sub.commands.length ? [...sub.commands] : [sub])),
      subcommandTerm: (sub) => `${sub.parent?.parent ? `${sub.parent.name()} ` : ""}${commanderHelp.subcommandTerm(sub)}`,
    });
}

function addSetupCommands(program: Command, run: Run): void {
  program.command("serve").description("start the broker (what npm start runs)").action(run(commands.serve));
  program
    .command("demo")
    .description("start the broker with local sandbox providers standing in for GitHub, Slack and Linear (never in production; what npm run demo runs)")
    .action(run(commands.demo));
  program.command("worker").description("run the webhook delivery worker and the approval outbox alone (no HTTP API)").action(run(commands.worker));
  program.command("migrate").description("bring the database schema up to date").action(run(commands.migrate));
  program
    .command("bootstrap")
    .description("create a tenant with its admin, an agent app and one test and one live key")
    .requiredOption("--tenant <name>", "name of the new tenant")
    .requiredOption("--operator <subject>", "subject of the operator who becomes its admin")
    .addOption(issuerOption())
    .addOption(jsonOption())
    .action(run(commands.bootstrap));
  program
    .command("operator-token")
    .description("print an operator access token (development issuer only)")
    .requiredOption("--subject <subject>", "subject of the operator")
    .option("--ttl <duration>", "lifetime: 90s, 15m, 1h or 1d", "1h")
    .action(run(commands.operatorToken));
}

function addAdminCommands(program: Command, run: Run): void {
  program
    .command("members")
    .description("manage a tenant's members")
    .command("add")
    .description("grant an identity access to a tenant")
    .addOption(tenantOption())
    .requiredOption("--subject <subject>", "subject of the identity")
    .addOption(issuerOption())
    .addOption(new Option("--role <role>", "its role").choices(["admin", "viewer"]).default("admin"))
    .action(run(commands.membersAdd));
  program
    .command("keys")
    .description("manage control keys")
    .command("create")
    .description("create a control key, printed once")
    .addOption(tenantOption())
    .addOption(new Option("--env <env>", "environment of the key").choices(["test", "live"]).makeOptionMandatory())
    .option("--name <name>", 'name of the key (default: "<env> key")')
    .addOption(jsonOption())
    .action(run(commands.keysCreate));
  program
    .command("agent-apps")
    .description("manage agent apps")
    .command("create")
    .description("create an agent app")
    .addOption(tenantOption())
    .requiredOption("--name <name>", "name of the agent app")
    .addOption(jsonOption())
    .action(run(commands.agentAppsCreate));
  program
    .command("audit")
    .description("check the audit log")
    .command("verify")
    .description("check a tenant's audit hash chain; exit 1 if broken")
    .addOption(tenantOption())
    .action(run(commands.auditVerify));
  program
    .command("rotate-master-key")
    .description("re-wrap data keys under the first BROKER_MASTER_KEYS entry")
    .action(run(commands.rotateMasterKey));
}

const envOption = () => new Option("--env <env>", "environment of the broker JWT").choices(["test", "live"]).default("test");

/** Commands that talk to a running broker over HTTP with what `login` stored (issue 41). */
function addClientCommands(program: Command, run: RunClient): void {
  program
    .command("login")
    .description("sign in to a broker and store its URL, an operator token and the tenant for the commands below (development: no token needed)")
    .option("--url <url>", "the broker (default: BROKER_PUBLIC_URL, or http://127.0.0.1:$PORT)")
    .option("--token <token>", "an operator access token (default: the broker's development sign-in, outside production only)")
    .option("--subject <subject>", "who signs in through the development sign-in", "demo-operator")
    .addOption(new Option("--tenant <id>", "tenant id (uuid); needed when the operator is a member of several").argParser(tenantId))
    .addHelpText("after", "\nStored in $TOOLBROKER_CONFIG, else $XDG_CONFIG_HOME/toolbroker/config.json, else ~/.config/toolbroker/config.json (mode 0600).")
    .action(run(clientCommands.login));
  program.command("logout").description("forget the stored login and revoke the control keys the CLI made").action(run(clientCommands.logout));
  program.command("whoami").description("who the stored login is, at which broker and tenant").action(run(clientCommands.whoami));
  program
    .command("api")
    .description("send one authenticated request to the logged-in broker and print the answer's body (like gh api)")
    .argument("<method>", "GET, POST, PUT, PATCH or DELETE")
    .argument("<path>", "e.g. /v1/approvals")
    .option("-d, --data <json>", "the request body (JSON)")
    .addOption(new Option("--as <caller>", "operator: the stored token and tenant; agent: a broker JWT minted for an agent app").choices(["operator", "agent"]).default("operator"))
    .option("--app <id>", "with --as agent: the agent app (default: the tenant's first active one)")
    .addOption(envOption())
    .option("-q, --query <path>", "print only the value at this path of the answer, e.g. .data[0].approval_id")
    .option("--fail", "exit 22 when the broker answers 400 or more (otherwise 0 whenever it answered; the status goes to stderr)")
    .action(run(clientCommands.api));
  program
    .command("token")
    .description("print a broker JWT for an agent app, minted with a control key the CLI keeps in its login")
    .option("--app <id>", "the agent app (default: the tenant's first active one)")
    .addOption(envOption())
    .action(run(clientCommands.token));
  program
    .command("listen")
    .description("tail the tenant's events live, one line each; --forward-to POSTs each one to a local URL, signed")
    .option("--forward-to <url>", "a URL on this machine, e.g. http://127.0.0.1:3000/webhooks")
    .option("--secret <whsec>", "sign with this whsec_ secret (default: a new one, printed at start)")
    .addOption(new Option("--type <type>", "only events of this type").choices([...EVENT_TYPES]))
    .addOption(jsonOption())
    .action(run(listen));
}

/** The whole command line; `run` wraps each command's body (it loads the configuration). */
function buildProgram(run: Run, runClient: RunClient): Command {
  const program = rootCommand();
  addSetupCommands(program, run);
  addAdminCommands(program, run);
  addClientCommands(program, runClient);
  return program;
}

/** The words naming the command, so an unknown `keys destroy` is reported whole, as before. */
function commandWords(argv: string[]): string {
  const firstOption = argv.findIndex((arg) => arg.startsWith("-"));
  return (firstOption === -1 ? argv : argv.slice(0, firstOption)).join(" ");
}

/**
 * The command the words of argv name (`keys create`), or undefined when they name none: a usage
 * error there is followed by that command's own help, not the whole list of commands.
 */
function namedCommand(program: Command, argv: string[]): Command | undefined {
  let command: Command | undefined;
  let scope = program;
  for (const word of argv) {
    if (word.startsWith("-")) break;
    const sub = scope.commands.find((candidate) => candidate.name() === word);
    if (!sub) return undefined;
    command = scope = sub;
  }
  return command;
}

/** commander's error as one line, without its `error: ` prefix (runCli adds `toolbroker: `). */
function usageMessage(error: CommanderError, argv: string[]): string {
  const message = error.message.replace(/^error: /, "").replace(/\n/g, " ");
  return error.code === "commander.unknownCommand" ? `unknown command "${commandWords(argv)}"` : message;
}

/**
 * Runs one command and resolves to its exit code: 0 for help, 2 for a usage error (printed with
 * the usage on stderr), the command's own code otherwise, or KEEP_RUNNING for serve and worker.
 * The configuration is loaded only once a command runs, so help works without it.
 */
export async function runCli(argv: string[], config: () => Config, clientSettings: () => ClientSettings = loadClientSettings): Promise<number> {
  let code = 0;
  const run: Run = (action) => async (options) => {
    code = await action(config(), options);
  };
  // commander passes the arguments, the options, then the command itself, which no action needs.
  const runClient: RunClient = (action) => async (...args) => {
    code = await action(clientSettings(), ...(args.slice(0, -1) as typeof args));
  };
  const program = buildProgram(run, runClient);
  // Bare `toolbroker` has always printed the usage on stdout and exited 2.
  if (argv.length === 0) {
    program.outputHelp();
    return 2;
  }
  try {
    await program.parseAsync(argv, { from: "user" });
    return code;
  } catch (error) {
    // Help was printed: on request (exit 0), or on stderr for a group such as `keys` given no subcommand.
    if (error instanceof CommanderError && (error.exitCode === 0 || error.code === "commander.help")) return error.exitCode === 0 ? 0 : 2;
    if (!(error instanceof CommanderError || error instanceof UsageError)) throw error;
    const message = error instanceof CommanderError ? usageMessage(error, argv) : error.message;
    process.stderr.write(`toolbroker: ${message}\n\n`);
    const command = error instanceof CommanderError && error.code === "commander.unknownCommand" ? undefined : namedCommand(program, argv);
    // A command with subcommands (`keys`) has no options of its own to show: the whole list is more use.
    (command && command.commands.length === 0 ? command : program).outputHelp({ error: true });
    return 2;
  }
}

async function main(): Promise<void> {
  try {
    const code = await runCli(process.argv.slice(2), loadConfig);
    if (code >= 0) process.exit(code);
  } catch (error) {
    // 78 (EX_CONFIG): the configuration is unusable, one line per problem.
    if (error instanceof ConfigError) {
      for (const problem of error.problems) process.stderr.write(`toolbroker: ${problem}\n`);
      process.exit(78);
    }
    process.stderr.write(`toolbroker: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}

await main();
