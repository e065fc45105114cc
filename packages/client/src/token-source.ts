/**
 * Where an `AgentClient` gets its broker JWT: a fixed `token`, checked at construction, and/or a
 * `getToken` callback, called lazily, checked on each result, and called once more after a 401
 * (an expired broker JWT). Concurrent calls share one `getToken` call.
 */
import { assertBrokerJwt } from "./credential-checks.js";
import { CredentialRefusedError } from "./errors.js";
import type { CredentialSource } from "./transport.js";

export type TokenOptions = {
  /** A broker JWT. Refused at construction if it is a control key or not a JWT. */
  token?: string;
  /** Returns a broker JWT (e.g. asks your backend to mint one); called again after a 401. */
  getToken?: () => string | Promise<string>;
};

export function createTokenSource(options: TokenOptions): CredentialSource {
  const { getToken } = options;
  if (options.token === undefined && !getToken) {
    throw new CredentialRefusedError("missing", "AgentClient needs `token` (a broker JWT) or `getToken` (a function that returns one)");
  }
  if (getToken !== undefined && typeof getToken !== "function") throw new TypeError("getToken must be a function");
  if (options.token !== undefined) assertBrokerJwt(options.token);

  let cached: string | undefined = options.token;
  let pending: Promise<string> | undefined;

  const fetchToken = (): Promise<string> => {
    pending ??= (async () => {
      try {
        const token = await getToken!();
        assertBrokerJwt(token);
        cached = token;
        return token;
      } finally {
        pending = undefined;
      }
    })();
    return pending;
  };

  return {
    current: async () => cached ?? fetchToken(),
    refresh: getToken
      ? async (rejected) => {
          // Another call may already have replaced the rejected token.
          if (cached !== undefined && cached !== rejected) return cached;
          cached = undefined;
          return fetchToken();
        }
      : undefined,
  };
}
