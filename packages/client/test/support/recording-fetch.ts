/**
 * A `fetch` for the client under test that goes to the real broker and records every exchange.
 * It can also simulate the network failing: before a request leaves (nothing reached the broker)
 * or after the broker answered (the answer is lost, as when a connection drops).
 */

export type Exchange = {
  method: string;
  path: string;
  /** Parsed JSON body sent, if any. */
  body: any;
  authorization: string | undefined;
  /** `performance.now()` when the request was made. */
  at: number;
  status?: number;
  headers?: Headers;
  /** Set when this exchange was made to fail. */
  failure?: "before_sending" | "answer_lost";
};

export type FaultPlan = {
  /** Fail this exchange before it reaches the broker. */
  failBeforeSending?: (exchange: Exchange, index: number) => boolean;
  /** Let this exchange reach the broker, then throw away the answer. */
  loseAnswer?: (exchange: Exchange, index: number) => boolean;
};

export type RecordingFetch = { fetch: typeof fetch; exchanges: Exchange[]; to(path: string): Exchange[] };

const networkError = () => new TypeError("fetch failed", { cause: new Error("simulated ECONNRESET") });

export function recordingFetch(plan: FaultPlan = {}): RecordingFetch {
  const exchanges: Exchange[] = [];
  const recorded: typeof fetch = async (input, init) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    const headers = new Headers(init?.headers);
    const exchange: Exchange = {
      method: init?.method ?? "GET",
      path: url.pathname,
      body: typeof init?.body === "string" ? JSON.parse(init.body) : undefined,
      authorization: headers.get("authorization") ?? undefined,
      at: performance.now(),
    };
    const index = exchanges.push(exchange) - 1;
    if (plan.failBeforeSending?.(exchange, index)) {
      exchange.failure = "before_sending";
      throw networkError();
    }
    const response = await fetch(input, init);
    exchange.status = response.status;
    exchange.headers = response.headers;
    if (plan.loseAnswer?.(exchange, index)) {
      await response.arrayBuffer();
      exchange.failure = "answer_lost";
      throw networkError();
    }
    return response;
  };
  return { fetch: recorded, exchanges, to: (path) => exchanges.filter((exchange) => exchange.path === path) };
}
