/**
 * `localhost` and `*.localhost` are loopback (RFC 6761 §6.3): the broker answers them itself and
 * never asks a resolver, whose answer for such a name could point anywhere. Every resolver here is
 * a recorder that fails the test if it is asked; no name is ever resolved for real.
 */
import { describe, expect, it } from "vitest";
import { localhostFirstLookup, type LookupFunction } from "./loopback.js";
import { createUrlSafety, type HostResolver } from "./url-safety.js";

function recordingResolver() {
  const asked: string[] = [];
  const resolver: HostResolver = async (hostname) => {
    asked.push(hostname);
    return [{ address: "203.0.113.7", family: 4 }];
  };
  return { asked, resolver };
}

const lookupOnce = (lookup: LookupFunction, hostname: string, options: { all?: boolean; family?: number } = {}) =>
  new Promise<{ error: Error | null; address: unknown; family?: number | undefined }>((resolve) =>
    lookup(hostname, options as never, (error, address, family) => resolve({ error, address, family })),
  );

describe("localhost names are loopback without a DNS query", () => {
  it("answers *.localhost as 127.0.0.1 (or ::1) in the connect-time lookup of tenant-defined hosts, without the resolver", async () => {
    const { asked, resolver } = recordingResolver();
    const safety = createUrlSafety({ requireHttps: false, allowPrivate: true, resolver });
    expect(await lookupOnce(safety.connectLookup, "api.localhost")).toMatchObject({ error: null, address: "127.0.0.1", family: 4 });
    expect(await lookupOnce(safety.connectLookup, "Deep.Name.LOCALHOST.", { all: true })).toMatchObject({
      error: null,
      address: [
        { address: "127.0.0.1", family: 4 },
        { address: "::1", family: 6 },
      ],
    });
    expect(await lookupOnce(safety.connectLookup, "api.localhost", { family: 6 })).toMatchObject({ address: "::1", family: 6 });
    expect(asked).toEqual([]);
  });

  it("refuses *.localhost where private addresses are refused, still without the resolver", async () => {
    const { asked, resolver } = recordingResolver();
    const safety = createUrlSafety({ requireHttps: false, allowPrivate: false, resolver });
    const { error } = await lookupOnce(safety.connectLookup, "metadata.localhost");
    expect(error).toMatchObject({ code: "ERR_WEBHOOK_ADDRESS_REFUSED" });
    expect(asked).toEqual([]);
  });

  it("hands every other name to the fallback lookup", async () => {
    const asked: string[] = [];
    const fallback: LookupFunction = (hostname, _options, callback) => {
      asked.push(hostname);
      callback(null, "127.0.0.1", 4);
    };
    await lookupOnce(localhostFirstLookup(fallback), "localhost.example.com");
    await lookupOnce(localhostFirstLookup(fallback), "notlocalhost");
    expect(asked).toEqual(["localhost.example.com", "notlocalhost"]);
  });
});
