/**
 * Where webhooks may be sent (docs/decisions/webhooks.md "Destinations"): the server POSTs to a URL a vendor typed,
 * so by default it refuses any address of the machine's own networks — loopback, private (RFC 1918, RFC 4193),
 * link-local (the cloud metadata service at 169.254.169.254), CGNAT, unspecified and multicast — checked on the
 * address the name resolves to at send time. WEBHOOK_PRIVATE_NETWORKS=true allows them (an on-premise receiver; tests).
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv4');
}
// IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) are checked against the IPv4 ranges by BlockList itself.
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv6');
}

/** True when `address` (an IPv4 or IPv6 literal) is in one of the machine-local ranges above. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Resolves `url`'s host and refuses it when any of its addresses is private, unless `allowPrivate`.
 * @throws Error naming the address when the destination is refused, or when the name does not resolve.
 */
export async function assertWebhookDestination(url: string, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [{ address: host }] : await lookup(host, { all: true });
  const refused = addresses.find((a) => isPrivateAddress(a.address));
  if (refused) throw new Error(`destination ${refused.address} is on a private network (WEBHOOK_PRIVATE_NETWORKS is off)`);
}
