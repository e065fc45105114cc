import { describe, expect, it } from "vitest";
import { choosePage, explainConnectError, timeLeft, utcReadable } from "./connect-html.js";
import type { ConnectOption } from "./connect-session-service.js";

const option = (overrides: Partial<ConnectOption>): ConnectOption => ({
  id: "tasks",
  displayName: "Tasks",
  icon: undefined,
  oauth: true,
  apiKey: false,
  authorizeOrigin: "https://tasks.example",
  inputs: [],
  scopes: [],
  ...overrides,
});

const render = (options: ConnectOption[], name = "Acme") =>
  choosePage({
    connectUrl: "https://broker.example/connect/cs_x",
    pageToken: "token",
    options,
    expiresAt: "2026-03-02T09:30:00.000Z",
    now: new Date("2026-03-02T09:00:30.000Z"),
    branding: { name, logo: null },
    scriptUrl: "https://broker.example/connect-assets/local-time.js",
  });

describe("the connect page's markup", () => {
  it("escapes the tenant's name, a provider's name, its scopes and its icon", () => {
    const html = render([option({ displayName: "<b>Tasks</b>", icon: 'data:image/png;base64,AAAA" onerror="alert(1)', scopes: [{ scope: "<x>", words: undefined }] })], '<img src=x onerror="alert(1)">');
    expect(html).not.toMatch(/<img src=x|<b>Tasks|<x>|" onerror=/);
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(html).toContain("<li><code>&lt;x&gt;</code></li>");
  });

  it("shows a scope without words as it is, and an API-key provider's permissions as the key's", () => {
    const html = render([option({ scopes: [{ scope: "tasks:write", words: undefined }, { scope: "tasks:read", words: "read your tasks" }] }), option({ id: "keys", displayName: "Keys", oauth: false, apiKey: true })]);
    expect(html).toContain('<ul class="scopes"><li><code>tasks:write</code></li><li>read your tasks <code>tasks:read</code></li></ul>');
    expect(html).toContain("Acme will act as you with what the key allows.");
  });

  it("says the expiry in UTC words and in minutes left", () => {
    expect(utcReadable("2026-12-02T02:05:00.000Z")).toBe("2 December 2026, 02:05 UTC");
    expect(timeLeft("2026-03-02T09:30:00.000Z", new Date("2026-03-02T09:00:30.000Z"))).toBe("in 30 minutes");
    expect(timeLeft("2026-03-02T09:30:00.000Z", new Date("2026-03-02T09:29:00.000Z"))).toBe("in 1 minute");
    expect(timeLeft("2026-03-02T09:30:00.000Z", new Date("2026-03-02T09:29:50.000Z"))).toBe("in less than a minute");
  });

  it("explains an unknown link, an expired one and a refused post; leaves other errors to the plain page", () => {
    expect(explainConnectError({ status: 404, code: "not_found", message: "connect session not found" })?.title).toBe("This connect link is not valid");
    expect(explainConnectError({ status: 410, code: "connect_session_expired", message: "" })?.title).toBe("This connect link has expired");
    expect(explainConnectError({ status: 403, code: "forbidden", message: "<no>" })?.body).toBe('<p class="error">&lt;no&gt;.</p>');
    expect(explainConnectError({ status: 422, code: "invalid_request", message: "subdomain is missing" })).toBeUndefined();
  });
});
