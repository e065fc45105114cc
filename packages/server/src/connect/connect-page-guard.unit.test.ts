import { describe, expect, it } from "vitest";
import { createConnectPageGuard } from "./connect-page-guard.js";

/** A vault whose sealed values are readable, enough to see what the guard binds a token to. */
const vault = {
  sealSystem: (plaintext: string, aad: string) => `${plaintext}@${aad}`,
  openFromClient: (text: string, aad: string) => (text.endsWith(`@${aad}`) ? text.split("@")[0] : undefined),
};

function issued(publicUrl: string) {
  const guard = createConnectPageGuard({ vault: vault as never, publicUrl });
  const headers: Record<string, string> = {};
  const reply = { header: (name: string, value: string) => ((headers[name] = value), reply) };
  const token = guard.issue({ headers: {} } as never, reply as never, "session-1");
  const cookie = headers["set-cookie"]!;
  return { guard, token, cookie, pair: cookie.split(";")[0]! };
}

const post = (headers: Record<string, string>) => ({ headers }) as never;

describe("the connect page guard", () => {
  it("gives https pages a __Host- cookie (Secure, path /, HttpOnly, SameSite=Lax), plain http ones the same without the prefix", () => {
    expect(issued("https://broker.example.test").cookie).toMatch(/^__Host-toolbroker_connect_page=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax; Secure$/);
    expect(issued("http://127.0.0.1:8080").cookie).toMatch(/^toolbroker_connect_page=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
  });

  it("accepts the page's own post: its cookie, its token, same-origin or silent about it, Origin null under no-referrer", () => {
    const { guard, token, pair } = issued("https://broker.example.test");
    const fromPage: Record<string, string>[] = [{}, { "sec-fetch-site": "same-origin" }, { origin: "null" }, { origin: "https://broker.example.test" }];
    for (const extra of fromPage) {
      expect(() => guard.check(post({ cookie: pair, ...extra }), "session-1", token)).not.toThrow();
    }
  });

  it("refuses another session, another cookie, no token, and any post another site made", () => {
    const { guard, token, pair } = issued("https://broker.example.test");
    const other = issued("https://broker.example.test").pair;
    const refusals: [Record<string, string>, string, string | undefined][] = [
      [{ cookie: pair }, "session-2", token],
      [{ cookie: other }, "session-1", token],
      [{ cookie: pair }, "session-1", undefined],
      [{}, "session-1", token],
      [{ cookie: `${pair.split("=")[0]}=short` }, "session-1", token],
      [{ cookie: pair, "sec-fetch-site": "cross-site" }, "session-1", token],
      [{ cookie: pair, "sec-fetch-site": "same-site" }, "session-1", token],
      [{ cookie: pair, origin: "https://evil.example.test" }, "session-1", token],
      [{ cookie: pair, origin: "http://broker.example.test" }, "session-1", token],
    ];
    for (const [headers, sessionId, presented] of refusals) {
      expect(() => guard.check(post(headers), sessionId, presented), JSON.stringify(headers)).toThrow(expect.objectContaining({ code: "forbidden", status: 403 }));
    }
  });
});
