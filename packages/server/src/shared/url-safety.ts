/**
 * Which URLs the broker will call on a tenant's behalf (webhooks, tenant-defined providers). In production (or whenever
 * BROKER_WEBHOOK_ALLOW_PRIVATE=false) a URL whose host is, or resolves to, an address that
 * ipaddr.js does not classify as ordinary unicast (loopback, private, link-local, metadata,
 * documentation, transition ranges, ...) is refused at registration, and every
 * connection is checked again at connect time against the addresses it is about to use, so a
 * name that is re-pointed after registration (DNS rebinding) still cannot reach the inside.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import type { LookupAddress, LookupOptions } from "node:dns";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { BrokerError } from "../errors.js";
import { isLocalhostName, LOCALHOST_ADDRESSES } from "./loopback.js";

export type ResolvedAddress = { address: string; family: 4 | 6 };
/** Resolves a host name to every address it has; injected so tests never use real DNS. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The operating system's resolver, except for localhost names, which are loopback without asking it (RFC 6761). */
export const systemResolver: HostResolver = async (hostname) =>
  isLocalhostName(hostname)
    ? LOCALHOST_ADDRESSES.map((a) => ({ ...a }))
    : (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

/**
 * IPv4-compatible IPv6 (`::a.b.c.d`, deprecated by RFC 4291): ipaddr.js calls it unicast, but
 * nothing public lives there and some stacks route it to the embedded IPv4 address.
 */
const IPV4_COMPATIBLE = ipaddr.parseCIDR("::/96") as [ipaddr.IPv6, number];

/**
 * The ipaddr.js range of an address ("unicast" for an ordinary public one). IPv4-mapped IPv6
 * (`::ffff:a.b.c.d`) is the IPv4 address itself to the socket layer, so it is classified as that
 * IPv4 address. Every other transition form (IPv4-translated, NAT64, 6to4, Teredo) keeps its own
 * range and is refused: the broker has no reason to reach a host through a translator.
 */
function addressRange(address: string): string {
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv4") return parsed.range();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range();
  if (v6.match(IPV4_COMPATIBLE) && v6.range() === "unicast") return "ipv4Compatible";
  return v6.range();
}

/**
 * The address in one canonical text form, or undefined when it is not an IP address. `isIP` is
 * strict (no `0x7f.1` or `2130706433`); IPv6 goes through the WHATWG serialiser, which writes a
 * dotted IPv4 tail in hex, because ipaddr.js reads `::127.0.0.1` as IPv4-mapped.
 */
function canonicalAddress(raw: string): string | undefined {
  const address = raw.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const family = isIP(address);
  if (family === 4) return address;
  if (family !== 6) return undefined;
  return new URL(`http://[${address}]/`).hostname.slice(1, -1);
}

/** True for every address a webhook must not reach (anything but unicast); a non-IP is refused too. */
export function isForbiddenAddress(raw: string): boolean {
  const address = canonicalAddress(raw);
  return address === undefined || addressRange(address) !== "unicast";
}

export type UrlRefusal = "invalid" | "https_required" | "credentials_in_url" | "private_address" | "unresolvable";


/** Thrown from the connect-time lookup; the attempt is reported as refused, nothing is sent. */
export class AddressRefusedError extends Error {
  readonly code = "ERR_WEBHOOK_ADDRESS_REFUSED";
}

export type UrlRules = {
  requireHttps: boolean;
  allowPrivate: boolean;
  resolver: HostResolver;
  /** What the URL is, in refusals ("webhook URL"), and the error code they carry. */
  subject?: { noun: string; code: "webhook_url_refused" | "invalid_declaration" };
};

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

export function createUrlSafety({ requireHttps, allowPrivate, resolver, subject = { noun: "webhook URL", code: "webhook_url_refused" } }: UrlRules) {
  const { noun } = subject;
  const refuse = (reason: UrlRefusal, message: string) => new BrokerError(subject.code, message, { reason });
  function parse(url: string): URL {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw refuse("invalid", `the ${noun} is not a valid absolute URL`);
    }
    if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw refuse("invalid", `the ${noun} must use https (or http outside production)`);
    if (requireHttps && parsed.protocol !== "https:") throw refuse("https_required", `the ${noun} must use https in production`);
    if (parsed.username || parsed.password) throw refuse("credentials_in_url", `the ${noun} must not carry a user name or password`);
    if (parsed.hash) throw refuse("invalid", `the ${noun} must not have a #fragment`);
    return parsed;
  }

  const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "");

  async function assertPublicHost(host: string): Promise<void> {
    if (isIP(host)) {
      if (isForbiddenAddress(host)) throw refuse("private_address", `the ${noun}'s host ${host} is not a public address`);
      return;
    }
    if (isLocalhostName(host)) throw refuse("private_address", `the ${noun}'s host ${host} is a loopback name`);
    let addresses: ResolvedAddress[];
    try {
      addresses = await resolver(host);
    } catch {
      throw refuse("unresolvable", `the ${noun}'s host ${host} does not resolve`);
    }
    if (addresses.length === 0) throw refuse("unresolvable", `the ${noun}'s host ${host} does not resolve`);
    const forbidden = addresses.find((a) => isForbiddenAddress(a.address));
    if (forbidden) throw refuse("private_address", `the ${noun}'s host ${host} resolves to ${forbidden.address}, which is not a public address`);
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
      // A localhost name is loopback by definition: never a question for the (injected) resolver.
      const resolved = literal
        ? Promise.resolve([{ address: host, family: literal as 4 | 6 }])
        : isLocalhostName(host)
          ? Promise.resolve(LOCALHOST_ADDRESSES.map((a) => ({ ...a })))
          : resolver(host);
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
