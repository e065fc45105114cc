/**
 * `toolbroker listen [--forward-to URL]`: tails the tenant's events (GET /v1/events) like `stripe
 * listen`, one line each, and with --forward-to POSTs each one to a local URL signed with Standard
 * Webhooks headers under a `whsec_` secret printed at start, reporting the local answer's status.
 *
 * Polls once a second. A transaction may commit a moment after one that raised a later event, so
 * each poll re-reads the last REREAD_MS and skips the ids already seen.
 */
import { Agent, request } from "undici";
import type { ClientSettings } from "../config.js";
import { isLoopbackHostname, localhostFirstLookup } from "../shared/loopback.js";
import { generateSigningSecret, signedHeaders } from "../webhooks/signing.js";
import { createBrokerClient, errorCodeOf, type BrokerClient } from "./broker-client.js";
import { requireLogin } from "./client-config.js";
import { KEEP_RUNNING, UsageError } from "./commands.js";

const POLL_MS = 1000;
const REREAD_MS = 10_000;
const FORWARD_TIMEOUT_MS = 10_000;

type BrokerEvent = { id: string; type: string; occurred_at: string; data: Record<string, unknown> };
type ListenOptions = { forwardTo?: string; secret?: string; type?: string; json?: boolean };

/** Only this machine: listen forwards to a local development server, never across a network. */
function forwardTarget(input: string): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new UsageError(`--forward-to must be a URL (got "${input}")`);
  }
  if (!["http:", "https:"].includes(url.protocol) || !isLoopbackHostname(url.hostname) && !url.hostname.endsWith(".localhost")) {
    throw new UsageError(`--forward-to must be a URL on this machine, e.g. http://127.0.0.1:3000/webhooks (got "${input}")`);
  }
  return url;
}

export async function listen(settings: ClientSettings, options: ListenOptions): Promise<number> {
  const target = options.forwardTo ? forwardTarget(options.forwardTo) : undefined;
  if (options.secret !== undefined && !/^whsec_[A-Za-z0-9+/]{24,}={0,2}$/.test(options.secret)) throw new UsageError("--secret must be a whsec_ secret (whsec_ and base64)");
  const secret = target ? (options.secret ?? generateSigningSecret()) : undefined;
  const client = createBrokerClient(settings.configFile, requireLogin(settings.configFile));
  const forward = target && secret ? createForwarder(target, secret) : undefined;
  const tail = createTail(client, options.type);
  await tail.start();
  const { login } = client;
  process.stdout.write(`Listening for events of tenant "${login.tenant_name}" (${login.tenant_id}) at ${login.broker_url}; Ctrl-C stops.\n`);
  if (target && secret) process.stdout.write(`Forwarding to ${target.href}, signed (Standard Webhooks) with ${secret}\n`);

  let stopped = false;
  const loop = async () => {
    while (!stopped) {
      try {
        for (const event of await tail.next()) {
          const outcome = forward ? await forward(event) : undefined;
          process.stdout.write(options.json ? `${JSON.stringify({ ...event, ...(outcome ? { forwarded: outcome } : {}) })}\n` : `${eventLine(event)}${outcome ? `  -> ${outcome}` : ""}\n`);
        }
      } catch (error) {
        process.stderr.write(`toolbroker listen: ${(error as Error).message}; retrying\n`);
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  };
  const stop = () => {
    stopped = true;
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  void loop();
  return KEEP_RUNNING;
}

const eventLine = (event: BrokerEvent) => `${event.occurred_at}  ${event.type.padEnd(24)} ${event.id}`;

/** New events since the tail started, each once, oldest first. */
function createTail(client: BrokerClient, type: string | undefined) {
  const seen = new Map<string, number>();
  let watermark = 0;
  let startedAt = 0;
  const page = async (since: string, cursor?: string) => {
    const query = new URLSearchParams({ since, limit: "200", ...(type ? { type } : {}), ...(cursor ? { cursor } : {}) });
    const answer = await client.operator("GET", `/v1/events?${query}`);
    if (answer.status !== 200) throw new Error(`GET /v1/events answered HTTP ${answer.status} ${errorCodeOf(answer)}`.trim());
    return answer.body as { data: BrokerEvent[]; next_cursor: string | null };
  };
  return {
    /** From the broker's clock (its Date header), so a skewed local clock neither loses nor replays events. */
    async start() {
      const answer = await client.operator("GET", "/v1/events?limit=1");
      if (answer.status !== 200) throw new Error(`GET /v1/events answered HTTP ${answer.status} ${errorCodeOf(answer)}`.trim());
      startedAt = watermark = Date.parse(answer.headers.get("date") ?? "") || Date.now();
    },
    async next(): Promise<BrokerEvent[]> {
      const since = new Date(Math.max(startedAt, watermark - REREAD_MS)).toISOString();
      const fresh: BrokerEvent[] = [];
      let cursor: string | undefined;
      do {
        const listed = await page(since, cursor);
        for (const event of listed.data) {
          if (seen.has(event.id)) continue;
          const at = Date.parse(event.occurred_at);
          seen.set(event.id, at);
          watermark = Math.max(watermark, at);
          fresh.push(event);
        }
        cursor = listed.next_cursor ?? undefined;
      } while (cursor);
      for (const [id, at] of seen) if (at < watermark - 2 * REREAD_MS) seen.delete(id);
      return fresh;
    },
  };
}

/** POSTs an event as its webhook delivery would carry it, signed under `secret`; answers what to report. */
function createForwarder(target: URL, secret: string) {
  // `localhost` and `*.localhost` are answered here, never by a resolver.
  const agent = new Agent({ connect: { lookup: localhostFirstLookup(() => { throw new Error("only loopback"); }) } });
  return async (event: BrokerEvent): Promise<string> => {
    const body = JSON.stringify({ type: event.type, timestamp: event.occurred_at, data: event.data });
    const headers = { ...signedHeaders([secret], event.id, new Date(), body), "content-type": "application/json", "user-agent": "toolbroker-listen" };
    try {
      const answer = await request(target, { method: "POST", headers, body, dispatcher: agent, headersTimeout: FORWARD_TIMEOUT_MS, bodyTimeout: FORWARD_TIMEOUT_MS });
      await answer.body.dump();
      return String(answer.statusCode);
    } catch (error) {
      return `failed (${(error as { code?: string }).code ?? (error as Error).message})`;
    }
  };
}
