/**
 * HTTP to a broker with what `toolbroker login` stored: operator requests carry the token and the
 * tenant header; agent requests carry a broker JWT minted with the CLI's control key. A token
 * from the development sign-in that has expired is renewed the same way, once, and saved. No
 * token ever appears in what these functions print or throw.
 */
import { isLoopbackHostname } from "../shared/loopback.js";
import { saveLogin, type StoredLogin } from "./client-config.js";
import { UsageError } from "./commands.js";

export type BrokerAnswer = { status: number; body: unknown; text: string; headers: Headers };

export type Me = { issuer: string; subject: string; tenants: { tenant_id: string; name: string; role: string }[] };

/** A broker base URL: http(s), no query; plain http only to this machine, so a token never crosses a network in the clear. */
export function brokerUrlOf(input: string): string {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new UsageError(`--url must be an http(s) URL (got "${input}")`);
  }
  if (!["http:", "https:"].includes(url.protocol) || url.search || url.hash || url.username || url.password) throw new UsageError(`--url must be an http(s) URL without query or credentials (got "${input}")`);
  if (url.protocol === "http:" && !isLoopbackHostname(url.hostname)) throw new UsageError(`--url must be https:// for a broker on another machine (got "${input}"): the token would travel in the clear`);
  return url.href.replace(/\/+$/, "");
}

export async function send(url: string, init: { method: string; token?: string; tenant?: string; body?: string; headers?: Record<string, string> }): Promise<BrokerAnswer> {
  const headers: Record<string, string> = { accept: "application/json", ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.tenant) headers["x-broker-tenant-id"] = init.tenant;
  if (init.body !== undefined) headers["content-type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(url, { method: init.method, headers, body: init.body, redirect: "manual" });
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    throw new Error(`could not reach the broker at ${new URL(url).origin} (${code}): is it running? (npm start, or npm run demo)`);
  }
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: kept as text
  }
  return { status: response.status, body, text, headers: response.headers };
}

/** The broker's development sign-in (what the console uses on this machine), or undefined where it has none. */
export async function developmentSignIn(brokerUrl: string, subject: string): Promise<string | undefined> {
  const answer = await send(`${brokerUrl}/v1/console/dev-session`, { method: "POST", body: JSON.stringify({ subject }), headers: { origin: new URL(brokerUrl).origin } });
  if (answer.status === 404) return undefined;
  const token = (answer.body as { access_token?: unknown } | undefined)?.access_token;
  if (answer.status !== 200 || typeof token !== "string") throw new Error(`the broker's development sign-in failed: HTTP ${answer.status} ${errorCodeOf(answer)}`.trim());
  return token;
}

export async function fetchMe(brokerUrl: string, token: string): Promise<Me> {
  const answer = await send(`${brokerUrl}/v1/me`, { method: "GET", token });
  if (answer.status === 401) throw new UsageError(`the broker at ${brokerUrl} does not accept this operator token (401): sign in again`);
  if (answer.status !== 200) throw new Error(`GET /v1/me answered HTTP ${answer.status} ${errorCodeOf(answer)}`.trim());
  return answer.body as Me;
}

export const errorCodeOf = (answer: BrokerAnswer) => {
  const error = (answer.body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  return error && typeof error.code === "string" ? `${error.code}: ${String(error.message)}` : "";
};

/** Requests as the stored login; `file` is where a renewed token is saved. */
export function createBrokerClient(file: string, login: StoredLogin) {
  const operator = async (method: string, path: string, body?: string): Promise<BrokerAnswer> => {
    const attempt = () => send(`${login.broker_url}${path}`, { method, body, token: login.operator_token, tenant: login.tenant_id });
    const answer = await attempt();
    if (answer.status !== 401 || !login.development) return answer;
    const renewed = await developmentSignIn(login.broker_url, login.subject);
    if (!renewed) return answer;
    login.operator_token = renewed;
    saveLogin(file, login);
    return attempt();
  };

  /** The CLI's own control key for `env`, created (as "toolbroker CLI") the first time and kept in the login file. */
  const controlKey = async (env: "test" | "live"): Promise<string> => {
    const stored = login.control_keys?.[env];
    if (stored) return stored.key;
    const created = await operator("POST", "/v1/keys", JSON.stringify({ env, name: "toolbroker CLI" }));
    const key = created.body as { id?: string; key?: string };
    if (created.status !== 201 || !key.key || !key.id) throw new Error(`creating the CLI's ${env} control key failed: HTTP ${created.status} ${errorCodeOf(created)}`.trim());
    login.control_keys = { ...login.control_keys, [env]: { id: key.id, key: key.key } };
    saveLogin(file, login);
    return key.key;
  };

  /** The agent app to mint for: the one named, or the tenant's only (or oldest) active one. */
  const agentApp = async (named: string | undefined): Promise<string> => {
    if (named) return named;
    const listed = await operator("GET", "/v1/agent-apps");
    const apps = ((listed.body as { data?: { id: string; status: string }[] }).data ?? []).filter((app) => app.status === "active");
    if (listed.status !== 200 || apps.length === 0) throw new UsageError("the tenant has no active agent app: create one (toolbroker api POST /v1/agent-apps -d '{\"name\":\"…\"}') or pass --app ID");
    return apps[0]!.id;
  };

  return {
    login,
    operator,
    async brokerJwt(options: { app?: string; env: "test" | "live" }): Promise<{ token: string; agentAppId: string }> {
      const agentAppId = await agentApp(options.app);
      const mint = async () =>
        send(`${login.broker_url}/v1/broker/token`, { method: "POST", token: await controlKey(options.env), body: JSON.stringify({ agent_app_id: agentAppId, env: options.env }) });
      let minted = await mint();
      // The stored key was revoked (in the console, say): forget it and make a new one, once.
      if (minted.status === 401 && login.control_keys?.[options.env]) {
        delete login.control_keys[options.env];
        minted = await mint();
      }
      const token = (minted.body as { access_token?: unknown } | undefined)?.access_token;
      if (minted.status !== 200 || typeof token !== "string") throw new Error(`minting a broker JWT failed: HTTP ${minted.status} ${errorCodeOf(minted)}`.trim());
      return { token, agentAppId };
    },
    agent: (method: string, path: string, token: string, body?: string) => send(`${login.broker_url}${path}`, { method, body, token }),
  };
}

export type BrokerClient = ReturnType<typeof createBrokerClient>;
