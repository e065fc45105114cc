/** This machine, as a socket address or a URL hostname (ipaddr.js classifies the addresses). */
import ipaddr from "ipaddr.js";

/** 127.0.0.0/8 and ::1, IPv4-mapped forms (`::ffff:127.0.0.1`) included. */
export function isLoopbackAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === "loopback";
}

/** A URL's hostname (WHATWG-normalised) naming this machine: `localhost`, `[::1]` or 127.0.0.0/8. */
export const isLoopbackHostname = (hostname: string) => hostname === "localhost" || isLoopbackAddress(hostname.replace(/^\[(.*)\]$/, "$1"));
