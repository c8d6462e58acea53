// crawler adapter (secondary): which IP addresses the crawler may reach. Only public unicast addresses pass, so a crawled
// domain (or a redirect, or a DNS answer) cannot point the crawler at our own network or a metadata service.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Global unicast IPv6: everything outside it (loopback, unspecified, unique-local with AWS's fd00:ec2::254, link-local,
 * site-local, multicast, IPv4-compatible, NAT64 local-use) is refused outright. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * True when the crawler must not connect to this IP address. Anything that is not an IP address is refused.
 *
 * IPv4: only ipaddr.js's `unicast` range passes (not private 10/8, 172.16/12, 192.168/16, loopback, link-local 169.254/16
 * with the AWS/GCP/Azure/OCI metadata 169.254.169.254, CGNAT 100.64/10 with Alibaba's 100.100.100.200, documentation,
 * benchmarking, multicast, reserved, broadcast, 0/8). IPv6 addresses that carry an IPv4 address (mapped, translated,
 * NAT64 well-known prefix, 6to4) are judged by that IPv4 address, since that is where the packets go.
 */
export function isBlockedAddress(address: string): boolean {
  const ip = canonicalIp(address);
  if (ip === null) return true;
  const parsed = ipaddr.parse(ip);
  if (parsed.kind() === 'ipv4') return parsed.range() !== 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  const embedded = embeddedIPv4(v6.parts);
  if (embedded !== undefined) return embedded.range() !== 'unicast';
  return !v6.match(GLOBAL_UNICAST_V6) || v6.range() !== 'unicast';
}

/** The address in the WHATWG URL parser's canonical form, brackets and zone id dropped; null when it is no IP address.
 * (ipaddr.js alone would read `::8.8.8.8` as `::ffff:8.8.8.8`; the URL parser writes it `::808:808`.) */
function canonicalIp(address: string): string | null {
  const ip = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const family = isIP(ip);
  if (family === 4) return ip;
  if (family !== 6) return null;
  try {
    return new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
}

/** The IPv4 address an IPv6 address stands for, when its range carries one; undefined for plain IPv6. */
function embeddedIPv4(h: number[]): ipaddr.IPv4 | undefined {
  const [h0, h1, h2, h3, h4, h5, h6 = 0, h7 = 0] = h;
  const tail = () => ipv4Of(h6, h7);
  const zeroThroughH3 = h0 === 0 && h1 === 0 && h2 === 0 && h3 === 0;
  if (zeroThroughH3 && h4 === 0 && h5 === 0xffff) return tail(); // ::ffff:a.b.c.d, IPv4-mapped
  if (zeroThroughH3 && h4 === 0xffff && h5 === 0) return tail(); // ::ffff:0:a.b.c.d, IPv4-translated (SIIT)
  if (h0 === 0x64 && h1 === 0xff9b && h2 === 0 && h3 === 0 && h4 === 0 && h5 === 0) return tail(); // NAT64 well-known prefix
  if (h0 === 0x2002) return ipv4Of(h1 ?? 0, h2 ?? 0); // 6to4
  return undefined;
}

function ipv4Of(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}
