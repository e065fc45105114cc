/**
 * A connect starts only from a press on the broker's own page, never from a navigation. Without
 * this, a link holder could send someone the URL that starts a provider's flow (or a page that
 * redirects or auto-submits to it): their browser would be bound to the flow, and the account they
 * approve would be connected to the link's end user (login CSRF).
 *
 * The page gives this browser a random nonce in an HttpOnly cookie and its forms a token sealed
 * under the master key and bound to the session and that nonce. A post must carry both, and come
 * from the page's own origin (`Sec-Fetch-Site`, `Origin`) when the browser says where it comes from.
 * Another site can neither read the cookie nor make a token for it; any broker instance checks it.
 */
import { randomBytes } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { BrokerError } from "../errors.js";
import type { Vault } from "../vault/vault.js";

/** The hidden field of every form on the page. */
export const PAGE_TOKEN_FIELD = "page_token";

const NONCE = /^[A-Za-z0-9_-]{43}$/;
const COOKIE_MAX_AGE_SECONDS = 60 * 60;

/** Which hosted page a guard protects: its cookie, its tokens' binding and what a refused post is told. */
export type GuardedPage = { name: string; refusal: string };

const CONNECT_PAGE: GuardedPage = {
  name: "connect",
  refusal: "this request did not come from the connect page: open the connect link and press the button there",
};

type GuardDeps = { vault: Pick<Vault, "sealSystem" | "openFromClient">; publicUrl: string; page?: GuardedPage };

/** The guard of the hosted connect pages; the approval page (approvals/) uses the same with its own `page`. */
export function createConnectPageGuard({ vault, publicUrl, page = CONNECT_PAGE }: GuardDeps) {
  const secure = publicUrl.startsWith("https:");
  // `__Host-` (https only) keeps a sibling subdomain from planting a nonce of its choosing.
  const cookieName = `${secure ? "__Host-" : ""}toolbroker_${page.name}_page`;
  const ownOrigin = new URL(publicUrl).origin;
  const bindingOf = (sessionId: string, nonce: string) => `${page.name}-page|${sessionId}|${nonce}`;

  function nonceOf(request: FastifyRequest): string | undefined {
    const prefix = `${cookieName}=`;
    const pair = (request.headers.cookie ?? "").split(";").map((part) => part.trim()).find((part) => part.startsWith(prefix));
    const value = pair?.slice(prefix.length);
    return value !== undefined && NONCE.test(value) ? value : undefined;
  }

  /** A browser that says where the post comes from must say: this very origin. Browsers that say nothing rely on the token. */
  function fromOwnPage(request: FastifyRequest): boolean {
    const site = request.headers["sec-fetch-site"];
    if (site !== undefined && site !== "same-origin") return false;
    // The page's no-referrer policy makes a browser send `Origin: null` on its own form posts.
    const origin = request.headers.origin;
    return origin === undefined || origin === "null" || origin === ownOrigin;
  }

  return {
    /** The token the page's forms carry, for this browser (given a nonce cookie when it has none). */
    issue(request: FastifyRequest, reply: FastifyReply, sessionId: string): string {
      const nonce = nonceOf(request) ?? randomBytes(32).toString("base64url");
      const attributes = ["Path=/", `Max-Age=${COOKIE_MAX_AGE_SECONDS}`, "HttpOnly", "SameSite=Lax", ...(secure ? ["Secure"] : [])];
      reply.header("set-cookie", `${cookieName}=${nonce}; ${attributes.join("; ")}`);
      return vault.sealSystem(`${page.name}-page`, bindingOf(sessionId, nonce));
    },

    /** Refuses a post that did not come from this browser's view of this session's page. */
    check(request: FastifyRequest, sessionId: string, token: string | undefined): void {
      const nonce = nonceOf(request);
      const valid = fromOwnPage(request) && nonce !== undefined && token !== undefined && vault.openFromClient(token, bindingOf(sessionId, nonce)) !== undefined;
      if (!valid) {
        throw new BrokerError("forbidden", page.refusal, { reason: `not_from_${page.name}_page` });
      }
    },
  };
}

export type ConnectPageGuard = ReturnType<typeof createConnectPageGuard>;
