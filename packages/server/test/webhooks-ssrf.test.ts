/**
 * URL rules in production: https only, and no loopback, private, link-local or metadata
 * addresses, checked at registration and again at connect time (DNS rebinding). DNS is an
 * injected table, so no test resolves a real name or sends anything beyond loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isForbiddenAddress } from "../src/shared/url-safety.js";
import type { TestBroker, TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call } from "./support/http.js";
import { startWebhookReceiver, type WebhookReceiver } from "./support/webhook-receiver.js";
import { startProductionBroker, tableResolver } from "./support/webhooks.js";

/**
 * A public unicast address standing in for a public host (documentation ranges such as TEST-NET
 * are refused themselves). Nothing is ever sent to it: no event is emitted to, and no test is
 * run on, an endpoint that resolves to it.
 */
const PUBLIC = "8.8.8.8";

describe("isForbiddenAddress", () => {
  it.each([
    "127.0.0.1", "127.8.9.10", "10.0.0.5", "172.16.4.4", "192.168.1.1", "169.254.169.254", "100.100.100.200", "0.0.0.0",
    "224.0.0.1", "255.255.255.255", "::1", "::", "::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:10.0.0.5", "64:ff9b::a00:5",
    "2002:a00:5::1", "fd00:ec2::254", "fc00::1", "fe80::1", "fe80::1%eth0", "ff02::1", "[::1]", "not-an-ip",
  ])("refuses %s", (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  // Special-purpose ranges (IANA registries), each refused even when it embeds a public IPv4 address.
  it.each([
    ["IPv4-translated ::ffff:0:0:0/96, loopback inside", "::ffff:0:7f00:1"],
    ["IPv4-translated ::ffff:0:0:0/96, bracketed", "[::ffff:0:7f00:1]"],
    ["IPv4-translated ::ffff:0:0:0/96, public inside", "::ffff:0:808:808"],
    ["IPv4-mapped ::ffff:0:0/96, private inside", "::ffff:192.168.0.1"],
    ["IPv4-compatible ::/96, loopback inside", "::127.0.0.1"],
    ["IPv4-compatible ::/96, public inside", "::808:808"],
    ["Teredo 2001::/32", "2001::1"],
    ["Teredo 2001::/32, a real-looking tunnel address", "2001:0:4136:e378:8000:63bf:3fff:fdd2"],
    ["NAT64 64:ff9b::/96, public inside", "64:ff9b::808:808"],
    ["NAT64 64:ff9b::/96, dotted", "64:ff9b::127.0.0.1"],
    ["local-use NAT64 64:ff9b:1::/48", "64:ff9b:1::1"],
    ["6to4 2002::/16, public inside", "2002:808:808::1"],
    ["IPv6 documentation 2001:db8::/32", "2001:db8::1"],
    ["IPv6 benchmarking 2001:2::/48", "2001:2::1"],
    ["IPv6 discard 100::/64", "100::1"],
    ["IPv6 site-local fec0::/10", "fec0::1"],
    ["ORCHIDv2 2001:20::/28", "2001:20::1"],
    ["IPv4 TEST-NET-1", "192.0.2.1"],
    ["IPv4 TEST-NET-2", "198.51.100.7"],
    ["IPv4 TEST-NET-3", "203.0.113.9"],
    ["IPv4 benchmarking", "198.18.0.1"],
    ["IPv4 IETF protocol assignments", "192.0.0.8"],
    ["IPv4 carrier-grade NAT", "100.64.0.1"],
    ["IPv4 AS112", "192.175.48.1"],
    ["IPv4 reserved 240/4", "240.0.0.1"],
    ["non-canonical IPv4", "0x7f.1"],
    ["IPv4 as one number", "2130706433"],
  ])("refuses %s (%s)", (_range, address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each([PUBLIC, "8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "[::ffff:808:808]"])("allows %s", (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });
});

describeEachDatabase("webhook URL rules in production", (kind) => {
  let broker: TestBroker;
  let tenant: TestTenant;
  let receiver: WebhookReceiver;
  const dns = tableResolver({
    "hooks.example.test": [PUBLIC],
    "internal.example.test": ["10.0.0.5"],
    "mixed.example.test": [PUBLIC, "127.0.0.1"],
    "metadata.example.test": ["169.254.169.254"],
    "v6loop.example.test": ["::1"],
    "translated.example.test": ["::ffff:0:7f00:1"],
    "teredo.example.test": ["2001:0:4136:e378:8000:63bf:3fff:fdd2"],
    "nat64.example.test": ["64:ff9b::808:808"],
    "sixtofour.example.test": ["2002:808:808::1"],
    // Public when registered, loopback afterwards: a DNS rebinding attack.
    "rebind.example.test": (n) => (n === 1 ? [PUBLIC] : ["127.0.0.1"]),
    "rebind-translated.example.test": (n) => (n === 1 ? [PUBLIC] : ["::ffff:0:7f00:1"]),
  });

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    ({ broker, tenant } = await startProductionBroker(kind, { resolver: dns.resolver }));
  });
  afterAll(async () => {
    await broker.close();
    await receiver.close();
  });

  const register = (url: string) => call(broker, "POST", "/v1/webhooks", { ...asOperator(tenant), body: { url } });
  const expectRefused = async (url: string, reason: string) => {
    const result = await register(url);
    expectError(result, 422, "webhook_url_refused");
    expect(result.body.error.details.reason, url).toBe(reason);
  };

  it("requires https", async () => {
    await expectRefused(`http://hooks.example.test/hooks`, "https_required");
  });

  it.each([
    "https://127.0.0.1/hooks",
    "https://10.1.2.3/hooks",
    "https://169.254.169.254/latest/meta-data/",
    "https://[::ffff:127.0.0.1]/hooks",
    "https://[::1]/hooks",
    "https://[::ffff:0:7f00:1]/hooks",
    "https://[2001::7f00:1]/hooks",
    "https://[64:ff9b::7f00:1]/hooks",
    "https://[2002:7f00:1::]/hooks",
    "https://[::127.0.0.1]/hooks",
    "https://198.51.100.7/hooks",
    "https://2130706433/hooks",
    "https://0x7f.1/hooks",
    "https://localhost/hooks",
    "https://api.localhost./hooks",
  ])("refuses %s before any connection", async (url) => {
    await expectRefused(url, "private_address");
    expect(receiver.connections).toBe(0);
  });

  it.each([
    "internal.example.test", "mixed.example.test", "metadata.example.test", "v6loop.example.test",
    "translated.example.test", "teredo.example.test", "nat64.example.test", "sixtofour.example.test",
  ])(
    "refuses a name resolving to a non-public address (%s)",
    async (host) => {
      const result = await register(`https://${host}/hooks`);
      expectError(result, 422, "webhook_url_refused");
      expect(result.body.error.details.reason).toBe("private_address");
      expect(result.body.error.message).toContain(host);
    },
  );

  it("refuses a name that does not resolve", async () => {
    await expectRefused("https://nowhere.example.test/hooks", "unresolvable");
  });

  it("accepts a name resolving to public addresses only, and re-checks a changed URL", async () => {
    const created = await register("https://hooks.example.test/hooks");
    expect(created.status, created.text).toBe(201);
    const patched = await call(broker, "PATCH", `/v1/webhooks/${created.body.id}`, { ...asOperator(tenant), body: { url: "https://internal.example.test/x" } });
    expectError(patched, 422, "webhook_url_refused");
    expect((await call(broker, "GET", `/v1/webhooks/${created.body.id}`, asOperator(tenant))).body.url).toBe("https://hooks.example.test/hooks");
  });

  it.each([
    ["rebind.example.test", "127.0.0.1"],
    ["rebind-translated.example.test", "::ffff:0:7f00:1"],
  ])("re-checks the addresses at connect time: %s re-pointed to %s is refused without connecting", async (host, address) => {
    const url = `https://${host}:${receiver.port}/hooks`;
    const created = await register(url);
    expect(created.status, created.text).toBe(201);
    const lookupsBefore = dns.calls.filter((h) => h === host).length;
    const test = await call(broker, "POST", `/v1/webhooks/${created.body.id}/test`, asOperator(tenant));
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ success: false, http_status: null });
    expect(test.body.error).toBe(`refused to connect: ${host} resolves to ${address}, which is not a public address`);
    expect(dns.calls.filter((h) => h === host).length).toBeGreaterThan(lookupsBefore);
    expect(receiver.connections).toBe(0);
    expect(receiver.received).toHaveLength(0);
  });
});

describeEachDatabase("BROKER_WEBHOOK_ALLOW_PRIVATE=true in production", (kind) => {
  let broker: TestBroker;
  let tenant: TestTenant;
  beforeAll(async () => {
    ({ broker, tenant } = await startProductionBroker(kind, { resolver: tableResolver({}).resolver, env: { BROKER_WEBHOOK_ALLOW_PRIVATE: "true" } }));
  });
  afterAll(() => broker.close());

  it("allows private addresses but still requires https", async () => {
    for (const url of ["https://10.0.0.5/hooks", "https://[::ffff:0:7f00:1]/hooks", "https://[2001::1]/hooks"]) {
      const created = await call(broker, "POST", "/v1/webhooks", { ...asOperator(tenant), body: { url } });
      expect(created.status, created.text).toBe(201);
    }
    const plain = await call(broker, "POST", "/v1/webhooks", { ...asOperator(tenant), body: { url: "http://10.0.0.5/hooks" } });
    expectError(plain, 422, "webhook_url_refused");
  });
});
