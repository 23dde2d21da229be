import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { AppError } from "../../platform/http/errors.ts";

// Addresses a webhook may never reach: they lead into this host or the network it sits in.
const refused = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["169.254.0.0", 16], // link-local, cloud metadata (169.254.169.254)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  refused.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128], // unspecified
  ["100::", 64], // discard
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique-local
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
] as const) {
  refused.addSubnet(net, prefix, "ipv6");
}
const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

/** The IPv4 address an IPv6 one carries (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96), if any. */
function embeddedV4(address: string): string | undefined {
  const m = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!m) return undefined;
  if (m[1]) return m[1];
  const hi = Number.parseInt(m[2], 16);
  const lo = Number.parseInt(m[3], 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Why `address` may not be reached, or undefined when it is a public address. */
export function refusalOf(address: string, allowLoopback: boolean): string | undefined {
  const family = isIP(address) === 6 ? "ipv6" : "ipv4";
  const v4 = family === "ipv6" ? embeddedV4(address) : undefined;
  if (v4) return refusalOf(v4, allowLoopback);
  if (loopback.check(address, family)) return allowLoopback ? undefined : "a loopback address";
  if (refused.check(address, family)) return "a private, link-local or reserved address";
  return undefined;
}

export interface VettedUrl {
  url: URL;
  /** The checked address to connect to, so a second DNS answer cannot redirect the request. */
  address: string;
  family: 4 | 6;
}

const refuse = (message: string) =>
  new AppError("validation_failed", `url: ${message}`, { errors: [{ path: "/body/url", message }] });

/** Checks a webhook URL and resolves it to an address it is safe to connect to. */
export async function vetUrl(raw: string, allowLoopback: boolean): Promise<VettedUrl> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse("is not a valid URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw refuse("must be an http or https URL");
  if (url.username || url.password) throw refuse("must not carry credentials");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: { address: string; family: number }[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      throw refuse(`host ${host} does not resolve`);
    }
  }
  // Every answer must be acceptable: otherwise a name with one public and one private address
  // could be used to reach the private one.
  for (const { address } of addresses) {
    const why = refusalOf(address, allowLoopback);
    if (why) throw refuse(`resolves to ${why}, which webhooks may not reach`);
  }
  const [first] = addresses;
  if (!first) throw refuse(`host ${host} does not resolve`);
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
