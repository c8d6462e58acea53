// Which addresses a direct connection may reach: public unicast only, IPv4 and IPv6, embedded IPv4 checked as IPv4.
import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { isBlockedAddress } from '@rivals/crawler';
import { BlockedAddressError, guardedLookup } from '../../../packages/crawler/src/connector.js';

describe('address filter', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'AWS/GCP/Azure metadata'],
    ['169.254.170.2', 'ECS task metadata'],
    ['100.100.100.200', 'Alibaba metadata (CGNAT)'],
    ['100.64.0.1', 'CGNAT'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['198.18.0.1', 'benchmarking'],
    ['::', 'IPv6 unspecified'],
    ['::1', 'IPv6 loopback'],
    ['fd00:ec2::254', 'AWS metadata over IPv6 (unique-local)'],
    ['fc00::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local with a zone'],
    ['ff02::1', 'IPv6 multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped metadata, hex form'],
    ['::ffff:0:a00:1', 'IPv4-translated private'],
    ['::10.0.0.1', 'IPv4-compatible private'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of the metadata address'],
    ['64:ff9b:1::1', 'local-use NAT64'],
    ['2002:a9fe:a9fe::1', '6to4 of the metadata address'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['2001:db8::1', 'documentation'],
    ['localhost', 'not an IP address'],
  ])('refuses %s (%s)', (address) => {
    // Act & Assess
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '64:ff9b::808:808'])(
    'allows the public address %s',
    (address) => {
      // Act & Assess
      expect(isBlockedAddress(address)).toBe(false);
    },
  );

  it('hands the socket only the allowed addresses of a host, and refuses a host that has none', async () => {
    // Prepare
    const answers: Record<string, LookupAddress[]> = {
      'mixed.test': [
        { address: '10.0.0.7', family: 4 },
        { address: '93.184.215.14', family: 4 },
        { address: 'fd00::7', family: 6 },
        { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
      ],
      'internal.test': [{ address: '192.168.0.10', family: 4 }],
    };
    const lookup = guardedLookup(async (host) => answers[host] ?? [], (address) => !isBlockedAddress(address));
    const ask = (host: string, options: { all?: boolean; family?: number }) =>
      new Promise<{ error: Error | null; result: unknown }>((resolve) => lookup(host, options, (error, result) => resolve({ error, result })));

    // Act
    const all = await ask('mixed.test', { all: true });
    const v6 = await ask('mixed.test', { family: 6 });
    const internal = await ask('internal.test', { all: true });

    // Assess
    expect(all.result).toEqual([
      { address: '93.184.215.14', family: 4 },
      { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
    ]);
    expect(v6.result).toBe('2606:2800:21f:cb07:6820:80da:af6b:8b2c');
    expect(internal.error).toBeInstanceOf(BlockedAddressError);
  });
});
