import { BlockList, isIP, isIPv4 } from 'node:net';

/**
 * Address ranges a server-side request (source_url, callbacks, webhooks, live pulls) must not reach unless the service
 * is configured for local use: loopback, private, link-local, CGNAT, unique-local, multicast, unspecified, reserved
 * and documentation ranges. IPv6 forms that embed an IPv4 address (mapped, NAT64, 6to4) are judged by that address.
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", including 0.0.0.0
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128],
  ['100::', 64], // discard
  ['2001:db8::', 32],
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // old site-local
  ['ff00::', 8], // multicast
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** The 8 groups of an IPv6 address as numbers (after WHATWG canonicalisation, so `::` and mapped forms are expanded). */
function groups(ip: string): number[] {
  const canonical = new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  const [head = '', tail = ''] = canonical.split('::');
  const h = head ? head.split(':') : [];
  const t = canonical.includes('::') ? (tail ? tail.split(':') : []) : [];
  const all = canonical.includes('::') ? [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t] : h;
  return all.map((g) => parseInt(g, 16));
}

const v4 = (hi: number, lo: number): string => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/** The IPv4 address an IPv6 address carries (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16), if any. */
export function embeddedIpv4(ip: string): string | null {
  const g = groups(ip);
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && (g5 === 0xffff || g5 === 0) && (g6 !== 0 || g7 > 1))
    return v4(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return v4(g6, g7);
  if (g0 === 0x2002) return v4(g1, g2);
  return null;
}

/** True when `ip` (a literal IPv4 or IPv6 address) is in a range server-side requests must not reach. Not an IP: true. */
export function isPrivateAddress(ip: string): boolean {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const family = isIP(bare.split('%')[0] ?? '');
  if (family === 0) return true;
  const addr = bare.split('%')[0] ?? '';
  if (isIPv4(addr)) return blocked.check(addr, 'ipv4');
  const inner = embeddedIpv4(addr);
  if (inner !== null && blocked.check(inner, 'ipv4')) return true;
  return blocked.check(addr, 'ipv6');
}
