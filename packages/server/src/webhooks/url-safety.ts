/**
 * Which webhook URLs the broker will call. In production (or whenever
 * BROKER_WEBHOOK_ALLOW_PRIVATE=false) a URL whose host is, or resolves to, a loopback, private,
 * link-local, metadata or otherwise non-public address is refused at registration, and every
 * connection is checked again at connect time against the addresses it is about to use, so a
 * name that is re-pointed after registration (DNS rebinding) still cannot reach the inside.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import type { LookupAddress, LookupOptions } from "node:dns";
import { BlockList, isIP } from "node:net";
import { BrokerError } from "../errors.js";

export type ResolvedAddress = { address: string; family: 4 | 6 };
/** Resolves a host name to every address it has; injected so tests never use real DNS. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

const IPV4_BLOCKED: [string, number][] = [
  ["0.0.0.0", 8], // "this network", including 0.0.0.0 which reaches the local host
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT (and Alibaba's metadata 100.100.100.200)
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, including the cloud metadata address 169.254.169.254
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved and broadcast
];
const IPV6_BLOCKED: [string, number][] = [
  ["::", 96], // unspecified, loopback and the deprecated IPv4-compatible form
  ["100::", 64], // discard-only
  ["64:ff9b:1::", 48], // local-use NAT64
  ["fc00::", 7], // unique local (AWS metadata fd00:ec2::254 is in here)
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
];

const blocked = new BlockList();
for (const [network, prefix] of IPV4_BLOCKED) blocked.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of IPV6_BLOCKED) blocked.addSubnet(network, prefix, "ipv6");

/** The eight 16-bit groups of an IPv6 address (with `::` and a dotted IPv4 tail expanded). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split(".").map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const parse = (part: string) => (part ? part.split(":").map((h) => Number.parseInt(h, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
}

/** IPv4 carried inside an IPv6 address: mapped (::ffff:a.b.c.d), NAT64 (64:ff9b::/96), 6to4 (2002::/16). */
function embeddedIpv4(groups: number[]): string | undefined {
  const quad = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  if (zeros(0, 5) && groups[5] === 0xffff) return quad(groups[6]!, groups[7]!);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return quad(groups[6]!, groups[7]!);
  if (groups[0] === 0x2002) return quad(groups[1]!, groups[2]!);
  return undefined;
}

/** True for every address a webhook must not reach; anything that is not an IP is refused too. */
export function isForbiddenAddress(raw: string): boolean {
  const address = raw.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const family = isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family !== 6) return true;
  const inner = embeddedIpv4(ipv6Groups(address.toLowerCase()));
  if (inner !== undefined) return blocked.check(inner, "ipv4");
  return blocked.check(address, "ipv6");
}

export type UrlRefusal = "invalid" | "https_required" | "credentials_in_url" | "private_address" | "unresolvable";

const refuse = (reason: UrlRefusal, message: string) => new BrokerError("webhook_url_refused", message, { reason });

/** Thrown from the connect-time lookup; the attempt is reported as refused, nothing is sent. */
export class AddressRefusedError extends Error {
  readonly code = "ERR_WEBHOOK_ADDRESS_REFUSED";
}

export type UrlRules = { requireHttps: boolean; allowPrivate: boolean; resolver: HostResolver };

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

export function createUrlSafety({ requireHttps, allowPrivate, resolver }: UrlRules) {
  function parse(url: string): URL {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw refuse("invalid", "the webhook URL is not a valid absolute URL");
    }
    if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw refuse("invalid", "the webhook URL must use https (or http outside production)");
    if (requireHttps && parsed.protocol !== "https:") throw refuse("https_required", "webhook URLs must use https in production");
    if (parsed.username || parsed.password) throw refuse("credentials_in_url", "the webhook URL must not carry a user name or password");
    if (parsed.hash) throw refuse("invalid", "the webhook URL must not have a #fragment");
    return parsed;
  }

  const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "");

  async function assertPublicHost(host: string): Promise<void> {
    if (isIP(host)) {
      if (isForbiddenAddress(host)) throw refuse("private_address", `the webhook host ${host} is not a public address`);
      return;
    }
    if (host === "localhost" || host.endsWith(".localhost")) throw refuse("private_address", `the webhook host ${host} is a loopback name`);
    let addresses: ResolvedAddress[];
    try {
      addresses = await resolver(host);
    } catch {
      throw refuse("unresolvable", `the webhook host ${host} does not resolve`);
    }
    if (addresses.length === 0) throw refuse("unresolvable", `the webhook host ${host} does not resolve`);
    const forbidden = addresses.find((a) => isForbiddenAddress(a.address));
    if (forbidden) throw refuse("private_address", `the webhook host ${host} resolves to ${forbidden.address}, which is not a public address`);
  }

  return {
    /** The checks at registration (and on every URL change); returns the normalised URL. */
    async checkForRegistration(url: string): Promise<string> {
      const parsed = parse(url);
      if (!allowPrivate) await assertPublicHost(bareHost(parsed));
      return parsed.href;
    },

    /** Before each send: an IP-literal host never reaches the connect-time lookup, so check it here. */
    assertSendable(url: string): void {
      const parsed = parse(url);
      const host = bareHost(parsed);
      if (!allowPrivate && isIP(host) && isForbiddenAddress(host)) {
        throw new AddressRefusedError(`refused to connect: ${host} is not a public address`);
      }
    },

    /** `lookup` for the outbound agent: resolves, then refuses if any address is not public. */
    connectLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
      const host = hostname.replace(/^\[|\]$/g, "");
      const literal = isIP(host);
      const resolved = literal ? Promise.resolve([{ address: host, family: literal as 4 | 6 }]) : resolver(host);
      resolved.then(
        (all) => {
          const wanted = options.family === 4 || options.family === 6 ? all.filter((a) => a.family === options.family) : all;
          const forbidden = allowPrivate ? undefined : all.find((a) => isForbiddenAddress(a.address));
          if (forbidden) return callback(new AddressRefusedError(`refused to connect: ${host} resolves to ${forbidden.address}, which is not a public address`), "");
          if (wanted.length === 0) return callback(Object.assign(new Error(`${host} has no usable address`), { code: "ENOTFOUND" }), "");
          if (options.all) return callback(null, wanted);
          return callback(null, wanted[0]!.address, wanted[0]!.family);
        },
        (error: NodeJS.ErrnoException) => callback(error, ""),
      );
    },
  };
}

export type UrlSafety = ReturnType<typeof createUrlSafety>;
