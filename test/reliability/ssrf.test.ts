// Reliability: the homepage reader never sends a request where it must not. A canary HTTP server on 127.0.0.1 counts
// every connection; the reader is pointed at it in every way an attacker could: the domain as an IP literal in every
// notation (decimal, octal, hex, short forms, IPv4-mapped IPv6, ...), localhost names, private, link-local, CGNAT and
// metadata addresses, names that resolve to them, and redirects to each, both directly and through an HTTP(S)_PROXY
// (a local forward proxy that would dial the canary for anything it is asked). The canary must see nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBlockedAddress } from '@rivals/crawler';
import { closedPort, fakeDns, forwardProxy, html, httpSite, redirect, routes, useProxyWeb, type LocalSite } from '../unit/crawler/local-web.js';

const never = () => new AbortController().signal;
const SECRET = '<title>Instance metadata</title><h1>iam/security-credentials</h1>';

/** Loopback, private, link-local, CGNAT and metadata addresses, as URL hosts in every notation a parser might accept. */
const LITERALS = [
  '127.0.0.1', '2130706433', '0177.0.0.1', '0x7f.1', '0x7f000001', '0x7f.0.0.1', '127.1', '127.0.1', '0177.1', '017700000001', '127.000.000.001',
  '0', '0.0.0.0', '0x0', '10.0.0.1', '012.1', '172.16.0.1', '192.168.1.1', '3232235777', '169.254.169.254', '2852039166', '0xa9fea9fe', '0251.0376.0251.0376',
  '169.254.170.2', '100.64.0.1', '100.100.100.200', '198.18.0.1',
  '[::1]', '[::]', '[0:0:0:0:0:0:0:1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[0:0:0:0:0:ffff:127.0.0.1]', '[::ffff:169.254.169.254]', '[::ffff:a9fe:a9fe]',
  '[fe80::1]', '[fc00::1]', '[fd00:ec2::254]', '[64:ff9b::a9fe:a9fe]', '[2002:7f00:1::]',
];
/** Names that mean this machine. */
const LOCAL_NAMES = ['localhost', 'LOCALHOST', 'localhost.', 'foo.localhost', 'a.b.localhost', 'localhost.localdomain', 'ip6-localhost', 'metadata.google.internal', 'instance-data', 'host.docker.internal'];
/** What DNS may answer for a hostile name (normalised addresses). */
const PRIVATE_ANSWERS = ['127.0.0.1', '127.8.9.10', '10.1.2.3', '172.31.255.255', '192.168.0.10', '169.254.169.254', '169.254.170.2', '100.64.1.1', '100.100.100.200', '0.0.0.0', '::1', '::', 'fe80::1', 'fc00::1', 'fd00:ec2::254', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '64:ff9b::a9fe:a9fe'];

const { started, reader, proxyEnv } = useProxyWeb();
let canary: LocalSite;
const figures = { literals: 0, names: 0, resolving: 0, redirects: 0, proxied: 0 };
beforeAll(async () => {
  canary = await httpSite(routes({ '*': html(SECRET) }));
});
afterAll(async () => {
  console.log(`[reliability] SSRF: refused ${JSON.stringify(figures)}; canary connections ${canary.connections}`);
  await canary.close();
});

/** Every host that resolves anywhere: hostile names to private addresses, the "public" shop to loopback (it is trusted). */
const dns = () => fakeDns({ ...Object.fromEntries(PRIVATE_ANSWERS.map((a, i) => [`evil${i}.test`, a])), 'shop.test': '127.0.0.1', 'localhost': '127.0.0.1', 'foo.localhost': '127.0.0.1' });

describe('SSRF: the canary on 127.0.0.1 never gets a request', () => {
  it('checks that the canary counts: a reader allowed private addresses reaches it', async () => {
    const before = canary.connections;
    const { reader: r } = reader({ env: {}, ports: { http: canary.port, https: await closedPort() }, lookup: dns(), allowPrivateAddresses: true });
    expect((await r.read('evil0.test', never()))?.title).toBe('Instance metadata');
    expect(canary.connections).toBeGreaterThan(before);
    canary.requests.length = 0;
  });

  describe.each([
    ['directly', false],
    ['through HTTP(S)_PROXY', true],
  ])('%s', (_, viaProxy) => {
    let proxy: Awaited<ReturnType<typeof forwardProxy>> | null = null;
    let start = 0;
    let seen = 0;
    const guarded = async (http: number, https?: number) => {
      if (viaProxy) {
        proxy = await started(forwardProxy());
        proxyEnv(proxy);
      }
      return reader({ ...(viaProxy ? {} : { env: {} }), ports: { http, https: https ?? (await closedPort()) }, lookup: dns(), trustedHosts: ['shop.test'] });
    };
    const assertCanaryUntouched = () => {
      expect(canary.connections).toBe(start);
      expect(canary.requests.slice(seen)).toEqual([]);
      for (const line of proxy?.seen ?? []) expect(line).not.toContain(`:${canary.port}`);
    };

    it.each(LITERALS)('refuses the domain %s (an IP literal)', async (literal) => {
      start = canary.connections;
      seen = canary.requests.length;
      const { reader: r, skips } = await guarded(canary.port, canary.port);
      const host = literal.replace(/^\[|\]$/g, '');
      expect(await r.read(host, never())).toBeNull();
      expect(skips).toHaveLength(1);
      assertCanaryUntouched();
      expect(proxy?.seen ?? []).toEqual([]);
      figures.literals++;
      if (viaProxy) figures.proxied++;
    });

    it.each(LOCAL_NAMES)('refuses the domain %s (a local name)', async (name) => {
      start = canary.connections;
      seen = canary.requests.length;
      const { reader: r } = await guarded(canary.port, canary.port);
      expect(await r.read(name, never())).toBeNull();
      assertCanaryUntouched();
      expect(proxy?.seen ?? []).toEqual([]);
      figures.names++;
      if (viaProxy) figures.proxied++;
    });

    it.each(PRIVATE_ANSWERS.map((a, i) => [a, `evil${i}.test`]))('refuses a name that resolves to %s', async (_address, name) => {
      start = canary.connections;
      seen = canary.requests.length;
      const { reader: r, skips } = await guarded(canary.port, canary.port);
      expect(await r.read(name, never())).toBeNull();
      expect(skips[0]?.reason).toBe('blocked-address');
      assertCanaryUntouched();
      expect(proxy?.seen ?? []).toEqual([]);
      figures.resolving++;
      if (viaProxy) figures.proxied++;
    });

    const targets = [...LITERALS, ...LOCAL_NAMES.filter((n) => !n.endsWith('.')), ...PRIVATE_ANSWERS.map((_, i) => `evil${i}.test`)];
    it.each(targets)('refuses a redirect from a public site to http://%s:<canary>/', async (target) => {
      start = canary.connections;
      seen = canary.requests.length;
      const shop: LocalSite = await started(httpSite(routes({ '/': redirect(`http://${target}:${canary.port}/latest/meta-data/`, 302) })));
      const { reader: r, skips } = await guarded(shop.port);
      expect(await r.read('shop.test', never())).toBeNull();
      expect(skips[0]?.reason).toBe('blocked-address');
      expect(shop.paths()).toContain('/'); // the redirect was served, and not followed
      expect(r.proxied).toBe(viaProxy);
      if (viaProxy) expect(proxy!.seen.some((line) => line.includes('shop.test'))).toBe(true); // the shop was reached through the proxy
      assertCanaryUntouched();
      figures.redirects++;
      if (viaProxy) figures.proxied++;
    });
  });

  it('every normalised address used above is one the address filter blocks', () => {
    for (const address of PRIVATE_ANSWERS) expect(isBlockedAddress(address), address).toBe(true);
  });
});
