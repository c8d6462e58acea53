// crawler adapter (secondary): which IP addresses a direct connection may reach. Only public unicast addresses pass,
// so a crawled domain (or a redirect, or a DNS answer) cannot point the crawler at our own network or a metadata service.
import { BlockList, isIP, isIPv4 } from 'node:net';

/** IPv4 ranges that are not public unicast (IANA special-purpose registry, plus cloud metadata services). */
const BLOCKED_IPV4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network", 0.0.0.0 reaches the local host on Linux
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT; holds Alibaba's metadata service 100.100.100.200
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local; holds AWS/GCP/Azure/OCI metadata 169.254.169.254 and ECS 169.254.170.2
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255 broadcast
];

/** Everything outside global unicast (2000::/3) is refused outright: loopback, unspecified, unique-local (fc00::/7, with
 * AWS's fd00:ec2::254), link-local, site-local, multicast, discard. These are the non-public ranges inside 2000::/3. */
const BLOCKED_IPV6_GLOBAL: ReadonlyArray<readonly [string, number]> = [
  ['2001::', 32], // Teredo: tunnels to an IPv4 address we cannot check
  ['2001:2::', 48], // benchmarking
  ['2001:10::', 28], // ORCHID
  ['2001:20::', 28], // ORCHIDv2
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
];

const blockedV4 = new BlockList();
for (const [network, prefix] of BLOCKED_IPV4) blockedV4.addSubnet(network, prefix, 'ipv4');
const globalUnicastV6 = new BlockList();
globalUnicastV6.addSubnet('2000::', 3, 'ipv6');
const blockedV6 = new BlockList();
for (const [network, prefix] of BLOCKED_IPV6_GLOBAL) blockedV6.addSubnet(network, prefix, 'ipv6');

/** True when a direct connection to this IP address must be refused. Anything that is not an IP address is refused. */
export function isBlockedAddress(address: string): boolean {
  const ip = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const family = isIP(ip);
  if (family === 4) return blockedV4.check(ip, 'ipv4');
  if (family !== 6) return true;
  const hextets = ipv6Hextets(ip);
  if (!hextets) return true;
  const embedded = embeddedIPv4(hextets);
  if (embedded !== undefined) return embedded === null || blockedV4.check(embedded, 'ipv4');
  return !globalUnicastV6.check(ip, 'ipv6') || blockedV6.check(ip, 'ipv6');
}

/** The eight 16-bit groups of a valid IPv6 address. The URL parser canonicalises it first (hex groups only, no dotted
 * IPv4 tail), which leaves a single `::` to expand. */
function ipv6Hextets(ip: string): number[] | null {
  let canonical: string;
  try {
    canonical = new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  const [head = '', tail] = canonical.split('::');
  const parse = (part: string) => (part ? part.split(':').map((h) => Number.parseInt(h, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const groups = [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/** The IPv4 address an IPv6 address stands for, when its range carries one (the connection really goes to that IPv4
 * address, so that is what must be checked); null for a translation range we refuse whole; undefined for plain IPv6. */
function embeddedIPv4(h: number[]): string | null | undefined {
  const [h0, h1, h2, h3, h4, h5, h6, h7] = h as [number, number, number, number, number, number, number, number];
  const fromTail = () => ipv4Of(h6, h7);
  const zeroThroughH3 = h0 === 0 && h1 === 0 && h2 === 0 && h3 === 0;
  if (zeroThroughH3 && h4 === 0 && h5 === 0xffff) return fromTail(); // ::ffff:a.b.c.d, IPv4-mapped
  if (zeroThroughH3 && h4 === 0xffff && h5 === 0) return fromTail(); // ::ffff:0:a.b.c.d, IPv4-translated (SIIT)
  if (zeroThroughH3 && h4 === 0 && h5 === 0) return fromTail(); // ::a.b.c.d, IPv4-compatible; also :: and ::1
  if (h0 === 0x64 && h1 === 0xff9b && h2 === 0 && h3 === 0 && h4 === 0 && h5 === 0) return fromTail(); // NAT64 well-known prefix
  if (h0 === 0x64 && h1 === 0xff9b && h2 === 1) return null; // NAT64 local-use prefix: the gateway is ours
  if (h0 === 0x2002) return ipv4Of(h1, h2); // 6to4
  return undefined;
}

function ipv4Of(high: number, low: number): string | null {
  const ip = `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  return isIPv4(ip) ? ip : null;
}
