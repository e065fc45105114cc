/**
 * Issue 41: the hosted connect page as an end user reads it. It shows the tenant's name and logo
 * (`PATCH /v1/branding`), each provider's name and icon, the scopes asked for in plain words, and
 * the expiry as a `<time>` that the broker's one script shows in local time (UTC without it). An
 * unknown, cancelled or expired link is a page that says which and what to do (404, 410).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { openConnectPage, postConnectForm } from "./support/connect.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { startFakeUpstreams, type FakeUpstreams } from "./support/fake-upstreams/index.js";
import { asOperator, call, findSecret } from "./support/http.js";
import { logoPng } from "./support/png.js";

const HTML = { accept: "text/html,application/xhtml+xml" };
const GOOGLE_SECRET = "google-client-secret-never-shown";
const pathOf = (url: string) => new URL(url).pathname;
const titleOf = (html: string) => /<h1>([^<]*)<\/h1>/.exec(html)?.[1];

describeEachDatabase("the hosted connect page", (kind) => {
  const clock = manualClock(new Date("2026-03-02T09:00:00.000Z"));
  let fakes: FakeUpstreams;
  let broker: TestBroker;
  let tenant: TestTenant;

  beforeAll(async () => {
    fakes = await startFakeUpstreams({ now: () => clock.now().getTime() });
    // Gmail's client makes it connectable: its authorize URL is only written into the page's CSP, never called.
    const google = { BROKER_PROVIDER_GOOGLE_CLIENT_ID: "google-client", BROKER_PROVIDER_GOOGLE_CLIENT_SECRET: GOOGLE_SECRET };
    broker = await startBroker(kind, { env: { ...fakes.github.env, ...google }, clock });
    tenant = await createTenant(broker, "Acme");
  });
  afterAll(async () => {
    await broker?.close();
    await fakes?.close();
  });

  const createSession = async (owner: TestTenant, providers = ["scm", "gmail"]) => {
    const created = await call(broker, "POST", "/v1/connect-sessions", { token: owner.testKey, body: { end_user_id: "erin", providers } });
    expect(created.status, created.text).toBe(201);
    return created.body.connect_url as string;
  };

  describe("a valid link", () => {
    it("shows the tenant's name with its initial until it sets a branding, then its display name and logo", async () => {
      const link = await createSession(tenant);
      const plain = await openConnectPage(broker, link);
      expect(titleOf(plain.html)).toBe("Connect your accounts to Acme");
      expect(plain.html).toContain('<header class="brand"><span class="badge" aria-hidden="true">A</span><span class="brand-name">Acme</span></header>');

      const logo = logoPng(64).toString("base64");
      const saved = await call(broker, "PATCH", "/v1/branding", { ...asOperator(tenant), body: { display_name: "Acme <Payroll> & Co", logo: { content_type: "image/png", data_base64: logo } } });
      expect(saved.status, saved.text).toBe(200);
      const branded = await openConnectPage(broker, link);
      expect(titleOf(branded.html)).toBe("Connect your accounts to Acme &lt;Payroll&gt; &amp; Co");
      expect(branded.html).toContain(`<img src="data:image/png;base64,${logo}" alt="Acme &lt;Payroll&gt; &amp; Co logo">`);
      expect(branded.html).not.toContain("<Payroll>");
    });

    it("shows each provider's name and icon: the catalogue's data: icon, or a badge with its initial", async () => {
      const { html } = await openConnectPage(broker, await createSession(tenant));
      expect(html).toContain('<div class="provider"><span class="badge small" aria-hidden="true">G</span><strong>GitHub</strong></div>');
      expect(html).toMatch(/<div class="provider"><img src="data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+" alt=""><strong>Gmail<\/strong><\/div>/);
      expect(html).not.toMatch(/<img src="https?:/);
    });

    it("says what each provider's OAuth flow asks for in plain words, with the scope beside them", async () => {
      const { html } = await openConnectPage(broker, await createSession(tenant));
      expect(html).toContain("will be able to:</p><ul class=\"scopes\">");
      expect(html).toContain("<li>read and write your repositories, private ones included <code>repo</code></li>");
      expect(html).toContain("<li>see your GitHub profile <code>read:user</code></li>");
      expect(html).toContain("<li>send email as you <code>https://www.googleapis.com/auth/gmail.send</code></li>");
    });

    it("gives the expiry as a <time> in UTC words and minutes left, for the broker's script to show in local time", async () => {
      const link = await createSession(tenant);
      clock.advance(5 * 60_000);
      const { html } = await openConnectPage(broker, link);
      expect(html).toContain(
        'This link works until <time datetime="2026-03-02T09:30:00.000Z" data-local-time>2 March 2026, 09:30 UTC</time> ' +
          '(<span data-time-left="2026-03-02T09:30:00.000Z">in 25 minutes</span>)',
      );
      clock.set(new Date("2026-03-02T09:00:00.000Z"));
    });

    it("allows only data: images and the broker's own script by its URL; the script is served as JavaScript", async () => {
      const page = await call(broker, "GET", pathOf(await createSession(tenant)), { headers: HTML });
      const scriptUrl = `${broker.config.publicUrl}/connect-assets/local-time.js`;
      const csp = page.headers.get("content-security-policy")!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("img-src data:;");
      expect(csp).toContain(`script-src ${scriptUrl};`);
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|script-src[^;]*'self'/);
      expect(page.text).toContain(`<script src="${scriptUrl}" defer></script>`);

      const script = await call(broker, "GET", "/connect-assets/local-time.js");
      expect(script.status).toBe(200);
      expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
      expect(script.headers.get("x-content-type-options")).toBe("nosniff");
      expect(script.text).toContain("Intl.DateTimeFormat");
      expect(findSecret(broker, GOOGLE_SECRET)).toEqual([]);
    });

    it("shows each tenant only its own branding", async () => {
      const other = await createTenant(broker, "Globex");
      const { html } = await openConnectPage(broker, await createSession(other, ["scm"]));
      expect(titleOf(html)).toBe("Connect your accounts to Globex");
      expect(html).not.toContain("Payroll");
      expect(html).not.toContain("data:image/png");
    });
  });

  describe("a link that does not work", () => {
    it("answers an unknown link with a page saying it is not valid and to ask for a new one (404), and JSON to API clients", async () => {
      for (const token of ["cs_0000000000000000000000000000000000000000000", "not-even-a-token"]) {
        const page = await call(broker, "GET", `/connect/${token}`, { headers: HTML });
        expect(page.status).toBe(404);
        expect(page.headers.get("content-type")).toContain("text/html");
        expect(titleOf(page.text)).toBe("This connect link is not valid");
        expect(page.text).toContain("Ask the app that sent you here for a new link");
        expect(page.text).not.toContain("Something went wrong");
        expectError(await call(broker, "GET", `/connect/${token}`), 404, "not_found");
      }
    });

    it("answers a link whose control key was revoked as not valid (404)", async () => {
      const doomed = await createTenant(broker, "Doomed");
      const link = await createSession(doomed, ["scm"]);
      const keys = await call(broker, "GET", "/v1/keys", asOperator(doomed));
      const testKey = (keys.body.data as { id: string; env: string }[]).find((key) => key.env === "test")!;
      expect((await call(broker, "DELETE", `/v1/keys/${testKey.id}`, asOperator(doomed))).status).toBeLessThan(300);
      const page = await call(broker, "GET", pathOf(link), { headers: HTML });
      expect(page.status).toBe(404);
      expect(titleOf(page.text)).toBe("This connect link is not valid");
    });

    it("answers an expired link with a page saying it expired and to ask for a new one (410), also for a post from a page left open", async () => {
      const link = await createSession(tenant, ["scm"]);
      const view = await openConnectPage(broker, link);
      clock.advance(31 * 60_000);
      try {
        const page = await call(broker, "GET", pathOf(link), { headers: HTML });
        expect(page.status).toBe(410);
        expect(titleOf(page.text)).toBe("This connect link has expired");
        expect(page.text).toContain("Connect links work for 30 minutes");
        expect(page.text).toContain("Ask the app that sent you here for a new link");
        const posted = await postConnectForm(broker, view, `${pathOf(link)}/scm`);
        expect(posted.status).toBe(410);
        expect(titleOf(posted.text)).toBe("This connect link has expired");
        expectError(await call(broker, "GET", pathOf(link)), 410, "connect_session_expired");
      } finally {
        clock.set(new Date("2026-03-02T09:00:00.000Z"));
      }
    });

    it("names a post that did not come from the page as refused, with what to do", async () => {
      const link = await createSession(tenant, ["scm"]);
      const view = await openConnectPage(broker, link);
      const forged = await postConnectForm(broker, { ...view, pageToken: "forged" }, `${pathOf(link)}/scm`);
      expect(forged.status).toBe(403);
      expect(titleOf(forged.text)).toBe("This request was refused");
      expect(forged.text).toContain("open the connect link and press the button there");
    });
  });
});
