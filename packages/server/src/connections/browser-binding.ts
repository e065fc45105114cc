/**
 * Ties an OAuth flow started from a connect page to the browser that started it. Without this,
 * whoever holds a connect link could start a flow and send the provider's authorize URL to
 * someone else, whose account would then be connected to the link's end user. The start sets a
 * cookie named after the state; the callback of a connect-session flow requires it.
 */
import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { CALLBACK_PATH, OAUTH_STATE_TTL_MS } from "./connection-service.js";

const PREFIX = "toolbroker_connect_";

const cookieName = (state: string) => `${PREFIX}${createHash("sha256").update(`browser-binding:${state}`).digest("hex").slice(0, 32)}`;

export function bindToBrowser(reply: FastifyReply, state: string, secure: boolean) {
  const attributes = [`Path=${CALLBACK_PATH}`, `Max-Age=${OAUTH_STATE_TTL_MS / 1000}`, "HttpOnly", "SameSite=Lax", ...(secure ? ["Secure"] : [])];
  reply.header("set-cookie", `${cookieName(state)}=1; ${attributes.join("; ")}`);
}

/** Whether the request carries the cookie that the start of this state's flow set. */
export function isBoundBrowser(request: FastifyRequest, state: string): boolean {
  const name = cookieName(state);
  return (request.headers.cookie ?? "").split(";").some((pair) => pair.trim().split("=")[0] === name);
}

export function forgetBrowserBinding(reply: FastifyReply, state: string) {
  reply.header("set-cookie", `${cookieName(state)}=; Path=${CALLBACK_PATH}; Max-Age=0; HttpOnly; SameSite=Lax`);
}
