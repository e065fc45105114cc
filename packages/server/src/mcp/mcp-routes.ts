/**
 * The MCP endpoint, `/mcp` (Streamable HTTP), served by the official SDK's per-request handler,
 * plus the RFC 9728 metadata that tells a client which token it needs and the short page that
 * metadata points people to. Only a broker JWT is accepted, and every 401 names the metadata.
 */
import { Readable } from "node:stream";
import { createMcpHandler, hostHeaderValidationResponse, localhostAllowedHostnames, originValidationResponse } from "@modelcontextprotocol/server";
import { Type } from "@sinclair/typebox";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { escapeHtml, page, sendPage } from "../http/html-page.js";
import { isLoopbackHostname } from "../shared/loopback.js";
import { unauthorized } from "../errors.js";
import { callerFrom } from "../invocations/caller.js";
import { mcpServerFactory, type McpAuthExtra } from "./mcp-server.js";
import type { RateLimiter } from "../http/rate-limit.js";
import type { McpCalls } from "./mcp-calls.js";
import type { McpTools } from "./mcp-tools.js";

export const MCP_PATH = "/mcp";
export const RESOURCE_METADATA_PATH = "/.well-known/oauth-protected-resource/mcp";
const DOCUMENTATION_PATH = "/docs/mcp";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Host and Origin must name this broker (DNS-rebinding protection), checked before the credential. */
    checkHostAndOrigin?: boolean;
  }
}

type McpRouteDeps = { tools: McpTools; calls: McpCalls; limiter: RateLimiter; publicUrl: string };

const ProtectedResourceMetadata = Type.Object({
  resource: Type.String({ description: "`{BROKER_PUBLIC_URL}/mcp`" }),
  authorization_servers: Type.Array(Type.String(), { description: "The broker's own token issuer (BROKER_PUBLIC_URL): broker JWTs come from POST /v1/broker/token" }),
  bearer_methods_supported: Type.Array(Type.String()),
  resource_name: Type.String(),
  resource_documentation: Type.String(),
});

/** The host names a request may be addressed to: the public URL's, and any loopback name when that is loopback. */
export function allowedHostnames(publicUrl: string): string[] {
  const { hostname } = new URL(publicUrl);
  return isLoopbackHostname(hostname) ? [...new Set([hostname, ...localhostAllowedHostnames()])] : [hostname];
}

/**
 * An Origin the SDK accepts by host name must also have the public URL's scheme and port: a page
 * on another port of the same machine is another site.
 */
function originMatchesPublicUrl(origin: string | undefined, publicUrl: URL): boolean {
  if (!origin) return true;
  const { protocol, port } = new URL(origin);
  return protocol === publicUrl.protocol && port === publicUrl.port;
}

/**
 * Runs before the credential hooks (app.ts registers it first), so a page that a browser was
 * tricked into calling us from is refused whatever it sends. A missing Origin passes: agents are
 * not browsers.
 */
export function registerHostAndOriginCheck(app: FastifyInstance, publicUrl: string) {
  const hostnames = allowedHostnames(publicUrl);
  const publicOrigin = new URL(publicUrl);
  app.addHook("onRequest", async (request, reply) => {
    if (!request.routeOptions.config.checkHostAndOrigin) return;
    const probe = new Request(`http://placeholder${MCP_PATH}`, { headers: headersOf(request) });
    const refused = hostHeaderValidationResponse(probe, hostnames) ?? originValidationResponse(probe, hostnames);
    if (refused) return sendWebResponse(reply, refused);
    if (!originMatchesPublicUrl(probe.headers.get("origin") ?? undefined, publicOrigin)) {
      return reply.code(403).send({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Forbidden: the Origin is not this broker" } });
    }
  });
}

function headersOf(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    // The broker JWT was checked by the credential hook; the SDK never needs it, so it never holds it.
    if (name === "authorization" || value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  return headers;
}

/** The SDK's answer as it is; one without a body (202 to a notification) stays empty, never a JSON `null`. */
function sendWebResponse(reply: FastifyReply, response: Response) {
  reply.code(response.status);
  response.headers.forEach((value, name) => void reply.header(name, value));
  if (!response.body) return reply.send();
  return reply.send(Readable.fromWeb(response.body as import("node:stream/web").ReadableStream));
}

export function registerMcpRoutes(app: FastifyInstance, deps: McpRouteDeps) {
  const resourceMetadataUrl = `${deps.publicUrl}${RESOURCE_METADATA_PATH}`;
  const handler = createMcpHandler(mcpServerFactory(deps), {
    legacy: "stateless",
    // Refusals the SDK answers itself (bad headers, versions, bodies): the caller's mistake, worth a line, not a stack.
    onerror: (error) => app.log.info({ reason: error.message }, "MCP request refused"),
  });
  app.addHook("onClose", async () => handler.close());

  async function serve(request: FastifyRequest, reply: FastifyReply) {
    const caller = callerFrom(request.credential);
    // The route takes broker JWTs only, so this is always an agent; the check keeps the type honest.
    if (caller.kind !== "agent_app") throw unauthorized("a broker JWT is required");
    // The exchange ends when the client goes away: the SDK stops waiting (a call already sent upstream still completes and is recorded).
    const disconnected = new AbortController();
    reply.raw.on("close", () => reply.raw.writableFinished || disconnected.abort());
    // Only the query of the target: an absolute-form target (`POST http://elsewhere/mcp`) names no other resource here.
    const { search } = new URL(request.url, deps.publicUrl);
    const webRequest = new Request(`${deps.publicUrl}${MCP_PATH}${search}`, { method: request.method, headers: headersOf(request), signal: disconnected.signal });
    const extra: McpAuthExtra = { caller, log: request.log };
    const response = await handler.fetch(webRequest, {
      authInfo: { token: "", clientId: caller.agentAppId, scopes: [], extra },
      parsedBody: request.method === "POST" ? request.body : undefined,
    });
    return sendWebResponse(reply, response);
  }

  app.register(async (scope) => {
    // RFC 9728 §5.1 and MCP authorization: every 401 tells the client where to learn what token to bring.
    scope.addHook("onSend", async (_request, reply, payload) => {
      if (reply.statusCode === 401) reply.header("www-authenticate", `Bearer resource_metadata="${resourceMetadataUrl}"`);
      return payload;
    });
    scope.route({
      method: ["POST", "GET", "DELETE"],
      url: MCP_PATH,
      config: { credentials: ["broker_jwt"], checkHostAndOrigin: true },
      schema: { hide: true },
      handler: serve,
    });
  });

  app.get(
    RESOURCE_METADATA_PATH,
    {
      schema: {
        tags: ["mcp"],
        summary: "OAuth protected resource metadata of the MCP endpoint (RFC 9728)",
        description: "Public. What an MCP client needs to know before calling /mcp: a broker JWT as a Bearer header, issued by this broker.",
        response: { 200: ProtectedResourceMetadata },
      },
    },
    async () => ({
      resource: `${deps.publicUrl}${MCP_PATH}`,
      authorization_servers: [deps.publicUrl],
      bearer_methods_supported: ["header"],
      resource_name: "Toolbroker MCP",
      resource_documentation: `${deps.publicUrl}${DOCUMENTATION_PATH}`,
    }),
  );

  app.get(DOCUMENTATION_PATH, { schema: { hide: true } }, async (_request, reply) => sendPage(reply, 200, documentationPage(deps.publicUrl)));
}

function documentationPage(publicUrl: string): string {
  const url = escapeHtml(`${publicUrl}${MCP_PATH}`);
  return page(
    "Toolbroker MCP",
    `<h1>Toolbroker over MCP</h1>` +
      `<p>Endpoint: <code>${url}</code> (Streamable HTTP; protocol revisions 2025-06-18, 2025-11-25 and 2026-07-28).</p>` +
      `<p>Authenticate with <code>Authorization: Bearer &lt;broker JWT&gt;</code>. Your backend mints one with a control key at ` +
      `<code>POST /v1/broker/token</code>; it names the agent app and, optionally, the end user the agent acts for.</p>` +
      `<p>Calls that need a person's approval answer with a link to open. ` +
      `Clients of 2026-07-28 retry by themselves after it; others call the tool again with the same arguments.</p>` +
      `<p>A call for an end user who has not connected an account yet answers <code>credential_required</code>, without a link: ` +
      `the application tells its user to connect one (the broker raises <code>connection.required</code> for it), then the tool can be called again.</p>`,
  );
}
