/**
 * Serves the operator console's static bundle (packages/console, built by `npm run build`) at
 * /console/, same origin as the API. Every path under /console/ that is not a file answers the
 * app's index.html, so deep links work on reload. A strict Content-Security-Policy: scripts and
 * styles only from this origin, no inline code, API calls only here and to the identity provider.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import type { App } from "../http/app-type.js";
import { errorPage, sendPage } from "../http/html-page.js";

/** packages/console/dist, from src/console/ and from dist/console/ alike. */
export const CONSOLE_DIST = fileURLToPath(new URL("../../../console/dist", import.meta.url));

export function consoleCsp(identityProviderOrigin: string | undefined): string {
  const provider = identityProviderOrigin ? ` ${identityProviderOrigin}` : "";
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self'${provider}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    `form-action 'self'${provider}`,
  ].join("; ");
}

export async function registerConsoleAssets(app: App, options: { directory: string; identityProviderOrigin: string | undefined }) {
  const built = existsSync(join(options.directory, "index.html"));
  await app.register(async (scope) => {
    scope.addHook("onSend", async (_request, reply) => {
      reply.header("content-security-policy", consoleCsp(options.identityProviderOrigin));
      reply.header("x-frame-options", "DENY");
      reply.header("x-content-type-options", "nosniff");
      reply.header("referrer-policy", "no-referrer");
    });
    if (built) {
      // One route per file found at start: a missing file falls through to the app below.
      await scope.register(fastifyStatic, { root: options.directory, prefix: "/console/", wildcard: false, index: false });
    }
    const app_ = async (_request: unknown, reply: Parameters<typeof sendPage>[0]) => {
      if (!built) {
        return sendPage(reply, 503, errorPage(503, "The console is not built in this checkout: run `npm run build -w @toolbroker/console`, then reload."));
      }
      return reply.header("cache-control", "no-store").sendFile("index.html");
    };
    scope.get("/console", { schema: { hide: true } }, async (_request, reply) => reply.redirect("/console/", 302));
    scope.get("/console/", { schema: { hide: true } }, app_);
    scope.get("/console/*", { schema: { hide: true } }, app_);
  });
}
