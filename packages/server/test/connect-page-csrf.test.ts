/**
 * Issue 36, item 4 (login CSRF on connect links): a connect starts only from a press on the broker's
 * own page. A visit to the old start address, a post from another page, another browser's token,
 * another session's token or a cross-site post starts nothing: no OAuth state, no browser binding,
 * nothing asked of the provider. The person on the page still connects (over HTTP here; in Chromium
 * in packages/console/test/hosted-connect-browser.test.ts).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { connectOnHostedPage, openConnectPage, postConnectForm, type ConnectPageView } from "./support/connect.js";
import { call } from "./support/http.js";
import { startToolWorld, type ToolWorld } from "./support/tool-execution.js";

const HTML = { accept: "text/html,application/xhtml+xml" };
const path = (url: string) => new URL(url).pathname;

describeEachDatabase("connect pages start nothing without a press on the page", (kind) => {
  let world: ToolWorld;
  let mallorys: string;
  let others: string;

  const createSession = async (endUserId: string) => {
    const created = await call(world.broker, "POST", "/v1/connect-sessions", { token: world.tenant.testKey, body: { end_user_id: endUserId, providers: ["scm", "tracker"] } });
    expect(created.status, created.text).toBe(201);
    return created.body.connect_url as string;
  };
  const count = async (table: "oauth_states" | "connections" | "secret_items") =>
    (await world.broker.services.store.db.selectFrom(table).select("tenant_id").where("tenant_id", "=", world.tenant.tenantId).execute()).length;
  const authorizeRequests = () => world.fakes.github.stats.authorizeRequests.length;

  beforeAll(async () => {
    world = await startToolWorld(kind);
    mallorys = await createSession("mallory");
    others = await createSession("olivia");
  });
  afterAll(() => world?.close());

  /** Nothing was started: no state stored, no binding cookie, the provider asked nothing. */
  async function expectNothingStarted(response: { headers: Headers }, before: { states: number; authorizes: number }) {
    expect(response.headers.get("set-cookie") ?? "").not.toContain("toolbroker_connect_");
    expect(await count("oauth_states")).toBe(before.states);
    expect(authorizeRequests()).toBe(before.authorizes);
  }
  const snapshot = async () => ({ states: await count("oauth_states"), authorizes: authorizeRequests() });

  it("answers a visit to a provider's start address with a page leading back to the connect page, starting nothing", async () => {
    const before = await snapshot();
    const visit = await call(world.broker, "GET", `${path(mallorys)}/scm`, { headers: HTML });
    expect(visit.status).toBe(200);
    expect(visit.headers.get("location")).toBeNull();
    expect(visit.text).toContain(`href="${mallorys}"`);
    expect(visit.text).not.toContain("<script");
    await expectNothingStarted(visit, before);
    expectError(await call(world.broker, "GET", `${path(mallorys)}/chat`), 403, "forbidden");
    expectError(await call(world.broker, "GET", "/connect/cs_unknown/scm"), 404, "not_found");
  });

  it("refuses a post without the page's token or cookie, as a page for browsers and the envelope for others", async () => {
    const before = await snapshot();
    const bare = await call(world.broker, "POST", `${path(mallorys)}/scm`, { rawBody: "", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expectError(bare, 403, "forbidden");
    expect(bare.body.error.details).toEqual({ reason: "not_from_connect_page" });
    const view = await openConnectPage(world.broker, mallorys);
    const withoutCookie = await postConnectForm(world.broker, { ...view, cookie: "" }, `${path(mallorys)}/scm`);
    expect(withoutCookie.status).toBe(403);
    expect(withoutCookie.headers.get("content-type")).toContain("text/html");
    expect(withoutCookie.text).toContain("connect page");
    const withoutToken = await postConnectForm(world.broker, { ...view, pageToken: "" }, `${path(mallorys)}/scm`);
    expect(withoutToken.status).toBe(403);
    await expectNothingStarted(withoutCookie, before);
    await expectNothingStarted(withoutToken, before);
  });

  it("refuses the attacker's own token in a victim's browser (another cookie), and one page's token on another session", async () => {
    const before = await snapshot();
    const attacker = await openConnectPage(world.broker, mallorys);
    const victim = await openConnectPage(world.broker, others);
    expect(victim.cookie).not.toBe(attacker.cookie);
    // A page that auto-submits the attacker's form: the victim's browser sends its own cookie.
    const forged = await postConnectForm(world.broker, { ...attacker, cookie: victim.cookie }, `${path(mallorys)}/scm`);
    expect(forged.status).toBe(403);
    // The victim's own token, replayed on the attacker's session.
    const moved = await postConnectForm(world.broker, victim, `${path(mallorys)}/scm`);
    expect(moved.status).toBe(403);
    await expectNothingStarted(forged, before);
    await expectNothingStarted(moved, before);
  });

  it("refuses a post another site made, even with this browser's cookie and token", async () => {
    const before = await snapshot();
    const view = await openConnectPage(world.broker, mallorys);
    const crossSite: Record<string, string>[] = [{ "sec-fetch-site": "cross-site" }, { "sec-fetch-site": "same-site" }, { "sec-fetch-site": "none" }, { origin: "http://127.0.0.2:8080" }];
    for (const headers of crossSite) {
      const refused = await postConnectForm(world.broker, view, `${path(mallorys)}/scm`, {}, headers);
      expect(refused.status, JSON.stringify(headers)).toBe(403);
      await expectNothingStarted(refused, before);
    }
  });

  it("refuses an API key posted without the page's token, storing nothing", async () => {
    const before = await count("secret_items");
    const value = world.fakes.linear.addApiKey();
    const refused = await call(world.broker, "POST", `${path(mallorys)}/tracker/api-key`, {
      rawBody: new URLSearchParams({ api_key: value }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expectError(refused, 403, "forbidden");
    expect(await count("secret_items")).toBe(before);
    const view = await openConnectPage(world.broker, mallorys);
    expect((await postConnectForm(world.broker, view, `${path(mallorys)}/tracker/api-key`, { api_key: value })).status).toBe(200);
    expect(await count("secret_items")).toBe(before + 1);
  });

  it("starts the flow for the person who presses the button: 303 to the provider, bound to their browser, connected to the link's end user", async () => {
    const before = await count("connections");
    const callback = await connectOnHostedPage(world.broker, mallorys, "scm");
    expect(callback.status, callback.text).toBe(200);
    expect(callback.text).toContain("is connected");
    expect(await count("connections")).toBe(before + 1);
    const view: ConnectPageView = await openConnectPage(world.broker, mallorys);
    // The same browser (same cookie) keeps its nonce: a second tab's forms stay valid.
    const again = await openConnectPage(world.broker, mallorys, view.cookie);
    expect(again.cookie).toBe(view.cookie);
    expect((await postConnectForm(world.broker, view, `${path(mallorys)}/scm`)).status).toBe(303);
  });
});
