/**
 * The broker as a real child process (`toolbroker serve`): the honest proof that something does not
 * kill the process, and the only way to send it a signal. `asTestBroker` lets the in-process test
 * helpers (call, connectAccount, …) talk to it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { TestBroker, TestTenant } from "./broker.js";
import { runToolbroker } from "./cli.js";

const BIN = fileURLToPath(new URL("../../bin/toolbroker.js", import.meta.url));

export type BrokerProcess = {
  /** Set once the process listens. */
  url: string;
  child: ChildProcess;
  /** stdout and stderr so far. */
  output(): string;
  alive(): boolean;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string>;
  /** Stops the process if it still runs (SIGKILL after 5 s without exit). */
  stop(): Promise<void>;
};

const baseEnv = () => ({ PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" });

/** Levels that still print Fastify's "Server listening at …" line, which tells the harness the port. */
const LEVELS_THAT_SHOW_LISTENING = new Set(["trace", "debug", "info"]);

export async function startBrokerProcess(env: Record<string, string>, command = "serve"): Promise<BrokerProcess> {
  const requestedLevel = env.BROKER_LOG_LEVEL ?? "info";
  // Port 0, read back from the log: a port picked beforehand can be taken by a parallel test's
  // broker, and the health check would then be answered by that one.
  const child = spawn(process.execPath, [BIN, command], {
    env: {
      ...baseEnv(),
      BROKER_ENV: "test",
      BROKER_HOST: "127.0.0.1",
      ...env,
      // A test that needs the port beforehand (its public URL names it) passes PORT itself.
      PORT: env.PORT ?? "0",
      BROKER_LOG_LEVEL: LEVELS_THAT_SHOW_LISTENING.has(requestedLevel) ? requestedLevel : "info",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const chunks: string[] = [];
  child.stdout!.on("data", (chunk) => chunks.push(String(chunk)));
  child.stderr!.on("data", (chunk) => chunks.push(String(chunk)));
  const exited = new Promise<number | string>((resolve) => child.once("exit", (code, signal) => resolve(signal ?? code ?? -1)));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const processHandle: BrokerProcess = {
    url: "",
    child,
    output: () => chunks.join(""),
    alive,
    exited,
    async stop() {
      if (!alive()) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
  await waitUntilListening(processHandle);
  return processHandle;
}

async function waitUntilListening(broker: BrokerProcess, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!broker.alive()) throw new Error(`the broker exited while starting:\n${broker.output()}`);
    const listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(broker.output());
    if (listening) {
      broker.url = listening[1]!;
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await broker.stop();
  throw new Error(`the broker did not start listening:\n${broker.output()}`);
}

/** `toolbroker bootstrap --json` with the same environment: a tenant with keys and an operator token. */
export async function bootstrapThroughCli(env: Record<string, string>): Promise<TestTenant> {
  const operatorSubject = "outage-operator";
  const result = await runToolbroker(["bootstrap", "--tenant", "Outage", "--operator", operatorSubject, "--json"], { BROKER_ENV: "test", ...env });
  if (result.code !== 0) throw new Error(`bootstrap failed (${result.code}): ${result.stderr}`);
  const created = JSON.parse(result.stdout);
  return {
    tenantId: created.tenant_id,
    agentAppId: created.agent_app_id,
    testKey: created.control_keys.test,
    liveKey: created.control_keys.live,
    operatorSubject,
    operatorToken: created.operator_token,
  };
}

/** Enough of a TestBroker for the HTTP helpers (`call`, `connectAccount`, `mintBrokerToken`). */
export const asTestBroker = (broker: Pick<BrokerProcess, "url">) => ({ url: broker.url, responses: [], logs: [] }) as unknown as TestBroker;

/**
 * A second broker, as a child process, on the same database, keys and issuer as an in-process test
 * broker: the one a crash test kills while the in-process one plays the broker after the restart.
 */
export function startSiblingProcess(config: TestBroker["config"], env: Record<string, string>): Promise<BrokerProcess> {
  return startBrokerProcess({
    ...env,
    BROKER_DATA_DIR: config.dataDir,
    BROKER_MASTER_KEYS: config.masterKeys!,
    BROKER_LOG_LEVEL: "warn",
    // The same issuer as the in-process broker, so both accept the test's broker JWT.
    BROKER_PUBLIC_URL: config.publicUrl,
    ...(config.databaseUrl ? { DATABASE_URL: config.databaseUrl } : {}),
  });
}
