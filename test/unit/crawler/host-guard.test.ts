// Every host the reader is about to request — the domain's and each redirect's — is checked like an API domain (IP
// literals in any notation, localhost, internal, special-use and metadata names refused) and, through a proxy, also
// resolved locally and refused when any address is not public. A canary server on 127.0.0.1 proves no request slips by.
import { describe, expect, it } from 'vitest';
import type { HomepageReaderOptions } from '@rivals/crawler';
import { closedPort, fakeDns, forwardProxy, html, httpSite, routes, useProxyWeb, type LocalProxy, type LocalSite } from './local-web.js';

const never = () => new AbortController().signal;
const SECRET = '<title>Internal admin</title><h1>Credentials</h1>';

/** Redirect targets that must never be requested; `PORT` is the canary's. */
const REFUSED_TARGETS = [
  'http://localhost.:PORT/',
  'http://localhost:PORT/',
  'http://admin.localhost:PORT/',
  'http://127.1:PORT/',
  'http://2130706433:PORT/',
  'http://0177.0.0.1:PORT/',
  'http://0x7f.1:PORT/',
  'http://0x7f000001:PORT/',
  'http://[::1]:PORT/',
  'http://[::ffff:127.0.0.1]:PORT/',
  'http://[0:0:0:0:0:ffff:7f00:1]:PORT/',
  'http://10.0.0.1:PORT/',
  'http://172.16.0.1:PORT/',
  'http://192.168.1.1:PORT/',
  'http://100.64.0.1:PORT/',
  'http://169.254.169.254:PORT/latest/meta-data/',
  'http://[fd00:ec2::254]:PORT/',
  'http://[fc00::1]:PORT/',
  'http://[fe80::1]:PORT/',
  'http://8.8.8.8:PORT/', // a public address, but a literal: no company's site is named by one
  'http://foo.internal:PORT/',
  'http://printer.local:PORT/',
  'http://kubernetes.default.svc.cluster.local:PORT/',
  'http://metadata.google.internal:PORT/computeMetadata/v1/',
  'http://metadata.goog:PORT/',
  'http://intranet:PORT/',
  'http://loopback.test:PORT/', // resolves to 127.0.0.1
  'http://mixed.test:PORT/', // through a proxy one public and one private address; directly two private ones
  'http://v6loop.test:PORT/', // resolves to ::1
  'http://imds.test:PORT/', // resolves to 169.254.169.254
];

/** Domains given to read() that must be refused the same way. */
const REFUSED_DOMAINS = ['2130706433', '0x7f.1', '127.1', '0177.0.0.1', '169.254.169.254', 'localhost.', 'foo.localhost', 'foo.internal', 'metadata.google.internal', 'loopback.test', 'mixed.test'];

const DNS = {
  'shop.test': '93.184.215.14',
  'loopback.test': '127.0.0.1',
  'mixed.test': ['93.184.215.15', '10.1.2.3'],
  'v6loop.test': '::1',
  'imds.test': '169.254.169.254',
};

const { started, reader, proxyEnv } = useProxyWeb();

/** A shop whose homepage redirects wherever `target` says at the time of the request. */
async function redirectingShop(target: { url: string }): Promise<LocalSite> {
  return started(httpSite(routes({ '/': (_req, res) => res.writeHead(302, { location: target.url }).end() })));
}

describe.each([
  ['through a proxy', true],
  ['directly', false],
] as const)('host guard, %s', (_mode, viaProxy) => {
  let canary: LocalSite;
  let proxy: LocalProxy | null;
  let options: HomepageReaderOptions;
  const target = { url: '' };
  let shop: LocalSite;

  async function setUp() {
    canary = await started(httpSite(routes({ '*': html(SECRET) })));
    shop = await redirectingShop(target);
    const ports = { http: shop.port, https: await closedPort() };
    if (viaProxy) {
      proxy = await started(forwardProxy());
      proxyEnv(proxy);
      options = { ports, lookup: fakeDns(DNS) };
    } else {
      proxy = null;
      // Direct: shop.test must be dialled on loopback, so it alone is trusted; its redirect targets are not.
      // A direct connection dials only the public addresses of a host that has both (the address test covers that),
      // so here mixed.test has private ones only: nothing must leave for the internet.
      options = { env: {}, ports, lookup: fakeDns({ ...DNS, 'shop.test': '127.0.0.1', 'mixed.test': ['10.1.2.3', '127.0.0.1'] }), trustedHosts: ['shop.test'] };
    }
  }

  it('refuses every non-public redirect target, in any notation, and the canary never hears of it', async () => {
    // Prepare
    await setUp();
    const { reader: r, skips } = reader(options);
    const results: unknown[] = [];

    // Act
    for (const url of REFUSED_TARGETS) {
      target.url = url.replace('PORT', String(canary.port));
      results.push(await r.read('shop.test', never()));
    }

    // Assess
    expect(results.every((p) => p === null)).toBe(true);
    expect(skips.map((s) => s.reason)).toEqual(REFUSED_TARGETS.map(() => 'blocked-address'));
    expect(canary.requests).toEqual([]);
    expect(canary.connections).toBe(0);
    if (proxy) expect(proxy.seen.every((line) => line.includes('shop.test'))).toBe(true);
  });

  it('refuses such domains before any request', async () => {
    // Prepare
    await setUp();
    const { reader: r, skips } = reader(options);

    // Act
    const results = await Promise.all(REFUSED_DOMAINS.map((d) => r.read(d, never())));

    // Assess
    expect(results.every((p) => p === null)).toBe(true);
    expect(skips.map((s) => s.reason)).toEqual(REFUSED_DOMAINS.map(() => 'blocked-address'));
    expect(canary.connections).toBe(0);
    expect(shop.connections).toBe(0);
    if (proxy) expect(proxy.seen).toEqual([]);
  });

  it('refuses a redirect to an IPv6 zone id as an unusable URL, without a request', async () => {
    // Prepare
    await setUp();
    const { reader: r, skips } = reader(options);
    target.url = `http://[fe80::1%25lo]:${canary.port}/`;

    // Act
    const profile = await r.read('shop.test', never());

    // Assess
    expect(profile).toBeNull();
    expect(skips[0]?.reason).toBe('bad-redirect');
    expect(canary.connections).toBe(0);
  });

  it('still follows a redirect to a public name, so the refusals above are the guard\'s doing', async () => {
    // Prepare
    await setUp();
    const site = await started(httpSite(routes({ '/': html('<title>Shop</title><h1>Welcome</h1>') })));
    const publicName = { 'www.shop.test': viaProxy ? '93.184.215.16' : '127.0.0.1' };
    const { reader: r } = reader({ ...options, lookup: fakeDns({ ...DNS, 'shop.test': viaProxy ? DNS['shop.test'] : '127.0.0.1', ...publicName }), trustedHosts: viaProxy ? [] : ['shop.test', 'www.shop.test'] });
    target.url = `http://www.shop.test:${site.port}/`;

    // Act
    const profile = await r.read('shop.test', never());

    // Assess
    expect(profile?.title).toBe('Shop');
    expect(profile?.fetchedFrom).toEqual(viaProxy ? { address: '93.184.215.16', proxied: true } : { address: '127.0.0.1', proxied: false });
  });
});

describe('host guard deadlines', () => {
  it('gives up on a local DNS resolution that never answers when the deadline passes, and rejects when the caller aborts', async () => {
    // Prepare
    const proxy = await started(forwardProxy());
    proxyEnv(proxy);
    const hanging = () => new Promise<never>(() => undefined);
    const { reader: r, skips } = reader({ lookup: hanging, timeouts: { totalMs: 200 }, ports: { http: await closedPort(), https: await closedPort() } });
    const caller = new AbortController();

    // Act
    const timedOut = await r.read('acme.test', never());
    const reading = r.read('acme.test', caller.signal);
    caller.abort(new Error('research deadline'));

    // Assess
    expect(timedOut).toBeNull();
    expect(skips[0]?.reason).toBe('timeout');
    await expect(reading).rejects.toThrow('research deadline');
    expect(proxy.seen).toEqual([]);
  });
});
