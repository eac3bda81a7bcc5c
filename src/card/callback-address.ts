// Where a callback may point: never the machine itself, private networks, link-local and
// unique-local ranges, CGNAT or cloud metadata services, unless QBRIDGE_WEBHOOK_ALLOW names the
// host. A rule on the card's callback field, checked when a question is asked, and again on
// every address the receiver's host resolves to when a webhook is sent (src/webhooks/).
// An IPv6 address that carries an IPv4 one in its bits (NAT64 64:ff9b::/96, 6to4 2002::/16,
// IPv4-compatible ::/96, IPv4-translated ::ffff:0:0:0/96, IPv4-mapped ::ffff:0:0/96) reaches
// that IPv4 address through a gateway or the host's own stack: it is refused as that address
// would be. Teredo (2001::/32) and local-use NAT64 (64:ff9b:1::/48) hide theirs in ways a prefix
// cannot follow, so they are refused whole.

import { BlockList, isIP } from "node:net";

const BLOCKED_IPV4 = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
] as const;

/** The two IPv6 groups an IPv4 address is written as inside an IPv6 one: 127.0.0.0 -> 7f00:0. */
function groups(ipv4: string): [string, string] {
  const [a, b, c, d] = ipv4.split(".").map(Number) as [number, number, number, number];
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}

/** Each IPv6 form that embeds an IPv4 address: where its blocked ranges lie in IPv6. */
const EMBEDDINGS: ((ipv4: string, prefix: number) => [string, number])[] = [
  (v4, p) => [`64:ff9b::${groups(v4).join(":")}`, 96 + p], // NAT64, well-known prefix
  (v4, p) => [`2002:${groups(v4).join(":")}::`, 16 + p], // 6to4
  (v4, p) => [`::${groups(v4).join(":")}`, 96 + p], // IPv4-compatible
  (v4, p) => [`::ffff:0:${groups(v4).join(":")}`, 96 + p], // IPv4-translated
];

const BLOCKED = new BlockList();
for (const [net, prefix] of BLOCKED_IPV4) {
  BLOCKED.addSubnet(net, prefix, "ipv4");
  for (const embed of EMBEDDINGS) BLOCKED.addSubnet(...embed(net, prefix), "ipv6");
}
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["2001::", 32], // Teredo
  ["64:ff9b:1::", 48], // local-use NAT64
] as const) {
  BLOCKED.addSubnet(net, prefix, "ipv6");
}
const METADATA_HOSTS = new Set(["metadata.google.internal", "metadata"]);

/** A host as it is compared and connected to: lower case, an IPv6 address without brackets. */
export function bareHost(host: string): string {
  return host.toLowerCase().replace(/^\[|\]$/g, "");
}

/** The host names and addresses QBRIDGE_WEBHOOK_ALLOW lets callbacks reach. */
export function webhookAllowList(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.QBRIDGE_WEBHOOK_ALLOW ?? "")
    .split(",")
    .map((entry) => bareHost(entry.trim()))
    .filter(Boolean);
}

/**
 * The IPv4 address an IPv4-mapped IPv6 one (`::ffff:7f00:1`, `::ffff:127.0.0.1`) stands for.
 * Checked as that address: a BlockList rule on `::ffff:0:0/96` would match every IPv4 address.
 */
function mappedIpv4(address: string): string | undefined {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted) return dotted[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return undefined;
  const high = Number.parseInt(hex[1] as string, 16);
  const low = Number.parseInt(hex[2] as string, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

/** Whether an IP address is one a callback may not reach. */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const mapped = family === 6 ? mappedIpv4(address) : undefined;
  if (mapped !== undefined) return BLOCKED.check(mapped, "ipv4");
  return BLOCKED.check(address, family === 4 ? "ipv4" : "ipv6");
}

/**
 * Why a callback URL may not be used (a private, loopback or metadata target), or undefined.
 * The host is the one `new URL()` gives, so numeric forms (0x7f000001, 2130706433) are seen
 * as the addresses they are.
 */
export function refusedReceiver(url: string, allow: string[]): string | undefined {
  let host: string;
  try {
    host = bareHost(new URL(url).hostname);
  } catch {
    return "it is not a URL";
  }
  if (allow.includes(host)) return undefined;
  if (METADATA_HOSTS.has(host) || host === "localhost" || host.endsWith(".localhost")) {
    return `its host ${host} is a local or metadata host (QBRIDGE_WEBHOOK_ALLOW can name it)`;
  }
  if (isBlockedAddress(host)) {
    return `its address ${host} is loopback, private, link-local or unique-local (QBRIDGE_WEBHOOK_ALLOW can name it)`;
  }
  return undefined;
}

/**
 * Why a receiver whose host resolved to `addresses` may not be reached, or undefined: any one
 * address in a blocked range refuses it, unless QBRIDGE_WEBHOOK_ALLOW names the host or that
 * address.
 */
export function refusedAddresses(
  host: string,
  addresses: string[],
  allow: string[],
): string | undefined {
  const name = bareHost(host);
  if (allow.includes(name)) return undefined;
  const blocked = addresses.find((a) => isBlockedAddress(a) && !allow.includes(a.toLowerCase()));
  if (blocked === undefined) return undefined;
  return `${name} resolves to ${blocked}, a loopback, private, link-local or unique-local address (QBRIDGE_WEBHOOK_ALLOW can name ${name})`;
}
