/** This machine, as a socket address or a URL hostname (ipaddr.js classifies the addresses). */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import ipaddr from "ipaddr.js";

/** 127.0.0.0/8 and ::1, IPv4-mapped forms (`::ffff:127.0.0.1`) included. */
export function isLoopbackAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === "loopback";
}

/**
 * `localhost` and every name under it (RFC 6761 §6.3): loopback by definition, so they are
 * answered here and never handed to a DNS resolver, which might answer otherwise.
 */
export function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost");
}

/** What a localhost name resolves to, IPv4 first (the address local servers listen on most). */
export const LOCALHOST_ADDRESSES: readonly { address: string; family: 4 | 6 }[] = [
  { address: "127.0.0.1", family: 4 },
  { address: "::1", family: 6 },
];

/** A URL's hostname (WHATWG-normalised) naming this machine: `localhost`, `[::1]` or 127.0.0.0/8. */
export const isLoopbackHostname = (hostname: string) => hostname === "localhost" || isLoopbackAddress(hostname.replace(/^\[(.*)\]$/, "$1"));

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
export type LookupFunction = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

/** `lookup` for sockets: localhost names answered as loopback at once, every other name by `fallback`. */
export function localhostFirstLookup(fallback: LookupFunction = dnsLookup as unknown as LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    if (!isLocalhostName(hostname)) return fallback(hostname, options, callback);
    const wanted = LOCALHOST_ADDRESSES.filter((a) => options.family !== 4 && options.family !== 6 ? true : a.family === options.family);
    if (options.all) return process.nextTick(callback, null, wanted.map((a) => ({ ...a })));
    const first = wanted[0]!;
    process.nextTick(callback, null, first.address, first.family);
  };
}
