/**
 * Issue 41: `GET/PATCH /v1/branding`, the name and logo a tenant's end users see on the hosted
 * connect page. Operators only, admins to change it, each tenant its own; the logo is an image the
 * broker checks by its bytes (PNG, JPEG, WebP; never SVG, never a URL), and a refused change
 * writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { auditOf } from "./support/connections.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call } from "./support/http.js";
import { logoPng } from "./support/png.js";

const PNG = logoPng(32);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]);
const WEBP = Buffer.concat([Buffer.from("RIFF"), Buffer.from([0x1a, 0, 0, 0]), Buffer.from("WEBPVP8L"), Buffer.alloc(14)]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
const logo = (bytes: Buffer, content_type = "image/png") => ({ content_type, data_base64: bytes.toString("base64") });

describeEachDatabase("tenant branding", (kind) => {
  let broker: TestBroker;
  let tenant: TestTenant;
  let other: TestTenant;
  let viewer: { token: string; tenant: string };

  beforeAll(async () => {
    broker = await startBroker(kind);
    tenant = await createTenant(broker, "Acme");
    other = await createTenant(broker, "Globex");
    const issuer = broker.runtime.developmentIssuer!;
    await broker.services.tenants.addMember(tenant.tenantId, { issuer: issuer.issuer, subject: "branding-viewer", role: "viewer" }, "test");
    viewer = { token: await issuer.issue("branding-viewer"), tenant: tenant.tenantId };
  });
  afterAll(() => broker?.close());

  const patch = (owner: TestTenant, body: unknown) => call(broker, "PATCH", "/v1/branding", { ...asOperator(owner), body });
  const brandingOf = async (owner: TestTenant) => (await call(broker, "GET", "/v1/branding", asOperator(owner))).body;

  describe("authentication and tenant isolation", () => {
    it("refuses both routes without an operator session (401), and a change by a viewer (403), who may read it", async () => {
      for (const token of [undefined, tenant.testKey]) {
        const auth = token ? { token } : {};
        expectError(await call(broker, "GET", "/v1/branding", auth), 401, "unauthorized");
        expectError(await call(broker, "PATCH", "/v1/branding", { ...auth, body: { display_name: "Evil" } }), 401, "unauthorized");
      }
      expect((await call(broker, "GET", "/v1/branding", viewer)).status).toBe(200);
      expectError(await call(broker, "PATCH", "/v1/branding", { ...viewer, body: { display_name: "Viewer's" } }), 403, "forbidden");
      expect((await brandingOf(tenant)).display_name).toBeNull();
    });

    it("lets no operator read or set another tenant's branding: naming that tenant is 401 (not a member), and each tenant's change stays its own", async () => {
      const intoOther = { token: tenant.operatorToken, tenant: other.tenantId };
      expectError(await call(broker, "GET", "/v1/branding", intoOther), 401, "unauthorized");
      expectError(await call(broker, "PATCH", "/v1/branding", { ...intoOther, body: { display_name: "Hijacked" } }), 401, "unauthorized");
      expect((await patch(other, { display_name: "Globex Corporation", logo: logo(PNG) })).status).toBe(200);
      const mine = await brandingOf(tenant);
      expect(mine).toMatchObject({ display_name: null, page_name: "Acme", logo: null });
      expect(await brandingOf(other)).toMatchObject({ display_name: "Globex Corporation", logo: { content_type: "image/png" } });
    });
  });

  it("starts with the tenant's name and no logo, then keeps what an admin sets, field by field, audited without the image", async () => {
    const fresh = await createTenant(broker, "Initech");
    expect(await brandingOf(fresh)).toEqual({ display_name: null, page_name: "Initech", logo: null, updated_at: null, updated_by: null });

    const named = await patch(fresh, { display_name: "Initech Payroll" });
    expect(named.status, named.text).toBe(200);
    expect(named.body).toMatchObject({ display_name: "Initech Payroll", page_name: "Initech Payroll", logo: null, updated_by: expect.stringContaining("|") });

    const withLogo = await patch(fresh, { logo: logo(PNG) });
    expect(withLogo.body.display_name).toBe("Initech Payroll");
    expect(withLogo.body.logo).toEqual({ content_type: "image/png", bytes: PNG.length, sha256: expect.stringMatching(/^[0-9a-f]{64}$/), data_url: `data:image/png;base64,${PNG.toString("base64")}` });

    const renamed = await patch(fresh, { display_name: "Initech HR" });
    expect(renamed.body.logo).toEqual(withLogo.body.logo);
    const cleared = await patch(fresh, { display_name: null, logo: null });
    expect(cleared.body).toMatchObject({ display_name: null, page_name: "Initech", logo: null });

    expect((await patch(fresh, {})).body).toEqual(cleared.body);
    const audited = await auditOf(broker, fresh.tenantId, "branding.updated");
    expect(audited).toHaveLength(4);
    const withImage = audited.map((event) => String(event.data)).find((data) => data.includes("sha256"))!;
    expect(JSON.parse(withImage).logo).toEqual({ content_type: "image/png", bytes: PNG.length, sha256: withLogo.body.logo.sha256 });
    expect(audited.map((event) => String(event.data)).join("")).not.toContain(PNG.toString("base64").slice(0, 40));
  });

  it("takes PNG, JPEG and WebP by their bytes", async () => {
    for (const [bytes, type] of [[JPEG, "image/jpeg"], [WEBP, "image/webp"], [PNG, "image/png"]] as const) {
      const saved = await patch(tenant, { logo: logo(bytes, type) });
      expect(saved.status, saved.text).toBe(200);
      expect(saved.body.logo.content_type).toBe(type);
    }
  });

  describe("refuses a logo that is not a small image of its declared type (422, nothing written)", () => {
    const refusals: [string, unknown, string][] = [
      ["an SVG (it may carry script)", logo(SVG, "image/svg+xml"), "/logo/content_type"],
      ["SVG bytes declared as PNG", logo(SVG), "/logo/data_base64"],
      ["a URL instead of the image", { content_type: "image/png", url: "https://evil.example/logo.png" }, "/logo"],
      ["PNG bytes declared as JPEG", logo(PNG, "image/jpeg"), "/logo/content_type"],
      ["text that is not base64", { content_type: "image/png", data_base64: "not base64!" }, "/logo/data_base64"],
      ["base64 that is not canonical", { content_type: "image/png", data_base64: `${PNG.toString("base64").replace(/=+$/, "")}A` }, "/logo/data_base64"],
      ["an image over 100 KiB", logo(Buffer.concat([PNG, Buffer.alloc(100 * 1024)])), "/logo/data_base64"],
      ["a display name of spaces only", { display_name: "   " }, "/display_name"],
      ["a display name with a control character", { display_name: "Acme\u0000" }, "/display_name"],
    ];
    it.each(refusals)("%s", async (_label, change, field) => {
      const before = await brandingOf(tenant);
      const body = field === "/display_name" ? change : { logo: change };
      const refused = await patch(tenant, body);
      expectError(refused, 422, "invalid_request");
      expect(refused.body.error.details.fields.map((f: { field: string }) => f.field).join(" ")).toContain(field);
      expect(await brandingOf(tenant)).toEqual(before);
    });
  });
});
