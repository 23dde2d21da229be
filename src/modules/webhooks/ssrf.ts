import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { AppError } from "../../platform/http/errors.ts";

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

const PRIVATE = "a private, link-local or reserved address";
// Global unicast (RFC 4291 2.4): the only IPv6 block a public receiver has addresses in.
const GLOBAL_UNICAST: [IPv6, number] = ipaddr.IPv6.parseCIDR("2000::/3");
// NAT64 with the well-known prefix (RFC 6052): what DNS64 answers for an IPv4-only name on an
// IPv6-only network, so the IPv4 address it carries is what gets judged.
const WELL_KNOWN_NAT64: [IPv6, number] = ipaddr.IPv6.parseCIDR("64:ff9b::/96");

/** Why an IPv4 address may not be reached: anything but public unicast. */
function refusalOfV4(address: IPv4, allowLoopback: boolean): string | undefined {
  const range = address.range();
  if (range === "loopback") return allowLoopback ? undefined : "a loopback address";
  return range === "unicast" ? undefined : `${PRIVATE} (${range})`;
}

/** The IPv4 address in the last 32 bits of an IPv6 one. */
const lastV4 = (address: IPv6) => {
  const [high, low] = address.parts.slice(6);
  return new ipaddr.IPv4([high >> 8, high & 255, low >> 8, low & 255]);
};

/**
 * Why an IPv6 address may not be reached. IPv6 can carry an IPv4 address in several ways that
 * reach past an IPv4 check; each is named (ipaddr.js classifies them, RFC 6890's registry):
 * IPv4-mapped and well-known NAT64 are judged by the IPv4 address they carry; IPv4-compatible,
 * IPv4-translated, local-use NAT64, 6to4 and Teredo are refused outright (deprecated or local
 * tunnels no public receiver uses).
 */
function refusalOfV6(address: IPv6, allowLoopback: boolean): string | undefined {
  const range = address.range();
  if (range === "loopback") return allowLoopback ? undefined : "a loopback address";
  if (range === "ipv4Mapped") return refusalOfV4(lastV4(address), allowLoopback);
  if (address.match(WELL_KNOWN_NAT64)) {
    const why = refusalOfV4(lastV4(address), false);
    return why && `a NAT64 address carrying ${why}`;
  }
  if (range === "rfc6052") return "a local-use NAT64 address";
  if (range === "rfc6145") return "an IPv4-translated address";
  if (range === "6to4") return "a 6to4 address";
  if (range === "teredo") return "a Teredo address";
  // ::a.b.c.d: the first 96 bits zero (:: itself is unspecified).
  if (address.parts.slice(0, 6).every((part) => part === 0) && range !== "unspecified") {
    return "an IPv4-compatible address";
  }
  if (range !== "unicast") return `${PRIVATE} (${range})`;
  if (!address.match(GLOBAL_UNICAST)) return `${PRIVATE} (outside global unicast, 2000::/3)`;
  return undefined;
}

/** Why `address` (an IPv4 or IPv6 literal) may not be reached, or undefined when it is public. */
export function refusalOf(address: string, allowLoopback: boolean): string | undefined {
  const family = isIP(address);
  if (family === 4) return refusalOfV4(ipaddr.IPv4.parse(address), allowLoopback);
  if (family !== 6) return "not an IP address";
  // Canonical form first: ipaddr.js reads the dotted tail of `::127.0.0.1` (IPv4-compatible) as
  // if it were `::ffff:127.0.0.1`; the WHATWG URL parser writes it `::7f00:1`.
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  return refusalOfV6(ipaddr.IPv6.parse(canonical), allowLoopback);
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
