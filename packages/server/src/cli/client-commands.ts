/**
 * The commands that talk to a running broker over HTTP, with what `toolbroker login` stored
 * (cli/client-config.ts), instead of opening its database: `login`, `logout`, `whoami`, `api`
 * and `token`. (`listen` is cli/listen.ts.)
 */
import type { ClientSettings } from "../config.js";
import { brokerUrlOf, createBrokerClient, developmentSignIn, fetchMe, type Me } from "./broker-client.js";
import { readLogin, removeLogin, requireLogin, saveLogin, type StoredLogin } from "./client-config.js";
import { UsageError } from "./commands.js";
import { valueAt } from "./json-path.js";

const DEVELOPMENT_SUBJECT = "demo-operator";

type LoginOptions = { url?: string; token?: string; subject?: string; tenant?: string };

/** Signs in (a given token, or the broker's development sign-in), checks it with GET /v1/me, and saves it. */
export async function login(settings: ClientSettings, options: LoginOptions): Promise<number> {
  const brokerUrl = brokerUrlOf(options.url ?? settings.defaultBrokerUrl);
  const subject = options.subject ?? DEVELOPMENT_SUBJECT;
  const token = options.token ?? (await developmentSignIn(brokerUrl, subject));
  if (!token) {
    throw new UsageError(`the broker at ${brokerUrl} has no development sign-in (it uses an identity provider, or runs in production): pass --token with an operator access token`);
  }
  const me = await fetchMe(brokerUrl, token);
  const tenant = chooseTenant(me, options.tenant);
  const previous = readLogin(settings.configFile);
  // A control key the CLI made for this same broker and tenant is still good.
  const keep = previous && previous.broker_url === brokerUrl && previous.tenant_id === tenant.tenant_id ? previous.control_keys : undefined;
  const stored: StoredLogin = {
    broker_url: brokerUrl,
    issuer: me.issuer,
    subject: me.subject,
    tenant_id: tenant.tenant_id,
    tenant_name: tenant.name,
    role: tenant.role,
    operator_token: token,
    development: options.token === undefined,
    ...(keep ? { control_keys: keep } : {}),
  };
  saveLogin(settings.configFile, stored);
  process.stdout.write(`Logged in to ${brokerUrl} as ${me.subject} (${me.issuer}), tenant "${tenant.name}" (${tenant.tenant_id}, ${tenant.role}). Saved in ${settings.configFile}\n`);
  return 0;
}

function chooseTenant(me: Me, wanted: string | undefined): Me["tenants"][number] {
  const list = me.tenants.map((tenant) => `${tenant.tenant_id} (${tenant.name})`).join(", ");
  if (wanted) {
    const tenant = me.tenants.find((candidate) => candidate.tenant_id === wanted);
    if (!tenant) throw new UsageError(`${me.subject} is not a member of tenant ${wanted}${list ? `; their tenants: ${list}` : ""}`);
    return tenant;
  }
  if (me.tenants.length === 1) return me.tenants[0]!;
  if (me.tenants.length === 0) throw new UsageError(`${me.subject} is not a member of any tenant: ask an admin (toolbroker members add), or bootstrap one`);
  throw new UsageError(`${me.subject} is a member of several tenants: pass --tenant ID (${list})`);
}

export async function logout(settings: ClientSettings): Promise<number> {
  const stored = readLogin(settings.configFile);
  // The control keys the CLI made are revoked with it, best effort (the broker may be gone).
  for (const key of Object.values(stored?.control_keys ?? {})) {
    if (key) await createBrokerClient(settings.configFile, stored!).operator("DELETE", `/v1/keys/${key.id}`).catch(() => undefined);
  }
  const removed = removeLogin(settings.configFile);
  process.stdout.write(removed ? `Logged out: removed ${settings.configFile}\n` : "Not logged in.\n");
  return 0;
}

export async function whoami(settings: ClientSettings): Promise<number> {
  const stored = requireLogin(settings.configFile);
  const client = createBrokerClient(settings.configFile, stored);
  const answer = await client.operator("GET", "/v1/me");
  if (answer.status === 401) throw new UsageError(`the broker at ${stored.broker_url} no longer accepts the stored token: run toolbroker login`);
  const me = answer.body as Me;
  const tenant = me.tenants?.find((candidate) => candidate.tenant_id === stored.tenant_id);
  process.stdout.write(`${me.subject} (${me.issuer}) at ${stored.broker_url}, tenant "${tenant?.name ?? stored.tenant_name}" (${stored.tenant_id}, ${tenant?.role ?? "no longer a member"})\n`);
  return 0;
}

type ApiOptions = { data?: string; as: "operator" | "agent"; app?: string; env: "test" | "live"; query?: string; fail?: boolean };

/** `toolbroker api METHOD PATH`: one authenticated request; the answer's body on stdout (like `gh api`). */
export async function api(settings: ClientSettings, method: string, path: string, options: ApiOptions): Promise<number> {
  if (!path.startsWith("/") || path.startsWith("//")) throw new UsageError(`the path must start with / and is sent to the logged-in broker (got "${path}")`);
  if (options.data !== undefined) {
    try {
      JSON.parse(options.data);
    } catch {
      throw new UsageError("--data must be JSON");
    }
  }
  const client = createBrokerClient(settings.configFile, requireLogin(settings.configFile));
  const verb = method.toUpperCase();
  const answer =
    options.as === "agent"
      ? await client.agent(verb, path, (await client.brokerJwt({ app: options.app, env: options.env })).token, options.data)
      : await client.operator(verb, path, options.data);
  if (answer.status >= 400) process.stderr.write(`HTTP ${answer.status}\n`);
  if (options.query !== undefined) {
    const found = valueAt(answer.body, options.query);
    if (!found.found) throw new Error(`the answer (HTTP ${answer.status}) has no value at ${options.query}`);
    process.stdout.write(`${typeof found.value === "string" ? found.value : JSON.stringify(found.value)}\n`);
  } else if (answer.text) {
    process.stdout.write(typeof answer.body === "string" ? `${answer.text}\n` : `${JSON.stringify(answer.body, null, 2)}\n`);
  }
  return options.fail && answer.status >= 400 ? 22 : 0;
}

/** `toolbroker token`: a broker JWT for an agent app, minted with the CLI's control key. */
export async function token(settings: ClientSettings, options: { app?: string; env: "test" | "live" }): Promise<number> {
  const client = createBrokerClient(settings.configFile, requireLogin(settings.configFile));
  process.stdout.write(`${(await client.brokerJwt(options)).token}\n`);
  return 0;
}
