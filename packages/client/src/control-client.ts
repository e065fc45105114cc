/**
 * The client a customer backend uses with its control key (`bk_test_…` / `bk_live_…`) to mint
 * short-lived broker JWTs for its agents. Control keys are server-side only: this
 * client refuses to start in a browser, a web worker or React Native unless `serverSide: true`
 * says the environment is in fact a server (e.g. a test runner with a simulated DOM).
 */
import { assertControlKey } from "./credential-checks.js";
import { detectClientSide } from "./environment.js";
import { UnsafeEnvironmentError } from "./errors.js";
import { createTransport, type Transport, type TransportOptions } from "./transport.js";
import type { BrokerToken, ConnectSession, ConnectSessionRequest, MintTokenRequest } from "./types.js";

export type ControlClientOptions = TransportOptions & {
  /** A control key, `bk_test_…` or `bk_live_…`. Never ship it to an agent, browser or app. */
  apiKey: string;
  /** Assert that this is a server even though it looks like a browser (jsdom, Electron main). */
  serverSide?: boolean;
};

export type MintTokenInput = Omit<MintTokenRequest, "env"> & {
  /** `test` or `live`; defaults to the env of the key (a `bk_test_` key mints `test` only). */
  env?: MintTokenRequest["env"];
};

export class ControlClient {
  readonly #transport: Transport;
  readonly #env: "test" | "live";

  constructor(options: ControlClientOptions) {
    if (typeof options !== "object" || options === null) throw new TypeError("ControlClient needs options: { baseUrl, apiKey }");
    const clientSide = options.serverSide === true ? undefined : detectClientSide();
    if (clientSide) {
      throw new UnsafeEnvironmentError(
        `ControlClient refuses to run in a ${clientSide}: a control key there can be read by anyone. Mint broker JWTs on your backend and give the agent only those; ` +
          "if this really is a server (e.g. a test with a simulated DOM), pass serverSide: true.",
      );
    }
    this.#env = assertControlKey(options.apiKey);
    const apiKey = options.apiKey;
    this.#transport = createTransport(options, { current: async () => apiKey });
  }

  /**
   * `POST /v1/broker/token`: a broker JWT for one agent app, to hand to an `AgentClient`. With
   * `end_user_id`, the token acts for that one user of yours: it may use their connections and
   * the shared ones, nothing else.
   */
  async mintToken(request: MintTokenInput, options: { signal?: AbortSignal } = {}): Promise<BrokerToken> {
    if (typeof request !== "object" || request === null || typeof request.agent_app_id !== "string") {
      throw new TypeError("mintToken needs { agent_app_id }");
    }
    const body: MintTokenRequest = {
      agent_app_id: request.agent_app_id,
      env: request.env ?? this.#env,
      ...(request.end_user_id !== undefined ? { end_user_id: request.end_user_id } : {}),
    };
    return this.#transport.send<BrokerToken>({ method: "POST", path: "/v1/broker/token", body, signal: options.signal });
  }

  /**
   * `POST /v1/connect-sessions`: a hosted page where one of your users connects their own
   * accounts. Send them to `connect_url`; connections made there belong to `end_user_id`.
   */
  async createConnectSession(request: ConnectSessionRequest, options: { signal?: AbortSignal } = {}): Promise<ConnectSession> {
    if (typeof request !== "object" || request === null || typeof request.end_user_id !== "string") {
      throw new TypeError("createConnectSession needs { end_user_id }");
    }
    return this.#transport.send<ConnectSession>({ method: "POST", path: "/v1/connect-sessions", body: request, signal: options.signal });
  }

  /**
   * A `getToken` for an `AgentClient` running next to this backend: each call mints a fresh
   * broker JWT (the agent client calls it lazily, and again after a 401).
   */
  tokenProvider(request: MintTokenInput): () => Promise<string> {
    return async () => (await this.mintToken(request)).access_token;
  }
}
