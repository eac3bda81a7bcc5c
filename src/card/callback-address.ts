// Where a callback may point: never the machine itself, private networks, link-local and
// unique-local ranges, CGNAT or cloud metadata services, unless QBRIDGE_WEBHOOK_ALLOW names the
// host. A rule on the card's callback field, checked when a question is asked, and again on
// every address the receiver's host resolves to when a webhook is sent (src/webhooks/).

import { BlockList, isIP } from "node:net";

const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
] as const) {
  BLOCKED.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
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
