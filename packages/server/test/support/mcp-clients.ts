/**
 * The official MCP clients, pointed at a broker: the v2 client (`@modelcontextprotocol/client`)
 * pinned to 2026-07-28, and the v1 SDK client (`@modelcontextprotocol/sdk`) speaking 2025-11-25 or,
 * through a transport that rewrites only the version it offers, 2025-06-18.
 */
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

export type LegacyVersion = "2025-11-25" | "2025-06-18";

/** A `tools/call` result as the tests read it (the SDKs' own types are unions over protocol eras). */
export type ToolCallResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, any>; _meta?: Record<string, string> };

/** An elicitation the broker asked for, and what the test's "user" answers. */
export type UrlElicitation = { message: string; url: string };
export type ElicitationAnswer = "accept" | "decline" | "cancel";

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

/** Offers an older protocol revision in `initialize`, as a client of that revision would. */
class VersionPinnedTransport extends LegacyTransport {
  constructor(
    url: URL,
    options: ConstructorParameters<typeof LegacyTransport>[1],
    private readonly version: LegacyVersion,
  ) {
    super(url, options);
  }

  override send(message: JSONRPCMessage, options?: Parameters<LegacyTransport["send"]>[1]) {
    if ("method" in message && message.method === "initialize" && message.params) {
      return super.send({ ...message, params: { ...message.params, protocolVersion: this.version } }, options);
    }
    return super.send(message, options);
  }
}

export async function connectLegacyClient(mcpUrl: string, token: string, version: LegacyVersion = "2025-11-25") {
  const client = new LegacyClient({ name: "legacy-test-agent", version: "1.0.0" });
  const url = new URL(mcpUrl);
  const options = { requestInit: bearer(token) };
  await client.connect(version === "2025-11-25" ? new LegacyTransport(url, options) : new VersionPinnedTransport(url, options, version));
  return client;
}

/**
 * A 2026-07-28 client that can open URLs for its user: each URL elicitation is recorded and
 * handed to `onUrl`, whose answer (after, say, a test approving the call) goes back to the broker.
 */
export async function connectModernClient(mcpUrl: string, token: string, onUrl: (elicitation: UrlElicitation) => Promise<ElicitationAnswer> = async () => "accept") {
  const elicitations: UrlElicitation[] = [];
  const client = new ModernClient(
    { name: "modern-test-agent", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: { elicitation: { url: {} } } },
  );
  client.setRequestHandler("elicitation/create", async (request) => {
    const params = request.params as { mode?: string; message: string; url?: string };
    if (params.mode !== "url" || !params.url) throw new Error(`unexpected elicitation: ${JSON.stringify(params)}`);
    const elicitation = { message: params.message, url: params.url };
    elicitations.push(elicitation);
    return { action: await onUrl(elicitation) };
  });
  await client.connect(new ModernTransport(new URL(mcpUrl), { requestInit: bearer(token) }));
  return { client, elicitations };
}
