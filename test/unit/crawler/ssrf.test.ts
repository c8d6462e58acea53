// The reader never connects to a non-public address, whether a name resolves there, a redirect points there, or the
// domain is an IP literal. Refusals happen before any socket is opened: no packet leaves for the metadata addresses.
import { describe, expect, it } from 'vitest';
import { createHomepageReader, type HomepageReaderOptions, type HomepageSkip } from '@rivals/crawler';
import { closedPort, fakeDns, html, redirect, routes, useSites } from './local-web.js';

const never = () => new AbortController().signal;
const HOME = '<title>Internal dashboard</title><h1>Secrets</h1>';

const { site, closeAfterTest } = useSites();

/** A reader with the production address filter (allowPrivateAddresses left at false). */
async function guardedReader(http: number, options: HomepageReaderOptions = {}) {
  const skips: HomepageSkip[] = [];
  const reader = createHomepageReader({ env: {}, ports: { http, https: await closedPort() }, extraPublicSuffixes: ['test'], onSkip: (skip) => skips.push(skip), ...options });
  closeAfterTest(() => reader.close());
  return { reader, skips };
}

describe('address filter in the connection', () => {
  it('refuses a name that resolves to loopback, without connecting', async () => {
    // Prepare
    const internal = await site(routes({ '/': html(HOME) }));
    const { reader, skips } = await guardedReader(internal.port, { lookup: fakeDns({ 'evil.test': '127.0.0.1' }) });

    // Act
    const profile = await reader.read('evil.test', never());

    // Assess
    expect(profile).toBeNull();
    expect(skips.map((s) => s.reason)).toEqual(['blocked-address']);
    expect(internal.connections).toBe(0);
  });

  it('refuses a name whose every address is private, IPv4-mapped IPv6 included', async () => {
    // Prepare
    const internal = await site(routes({ '/': html(HOME) }));
    const { reader, skips } = await guardedReader(internal.port, { lookup: fakeDns({ 'rebind.test': ['::ffff:127.0.0.1', '10.0.0.1'] }) });

    // Act
    const profile = await reader.read('rebind.test', never());

    // Assess
    expect(profile).toBeNull();
    expect(skips[0]?.reason).toBe('blocked-address');
    expect(internal.connections).toBe(0);
  });

  it('refuses a redirect from a public-looking site to http://127.0.0.1', async () => {
    // Prepare
    const internal = await site(routes({ '/': html(HOME), '/admin': html(HOME) }));
    const shop = await site(routes({ '/': redirect(`http://127.0.0.1:${internal.port}/admin`, 302) }));
    // shop.test stands in for a public site: it is trusted only so that the test can reach it on loopback at all.
    const { reader, skips } = await guardedReader(shop.port, { lookup: fakeDns({ 'shop.test': '127.0.0.1' }), trustedHosts: ['shop.test'] });

    // Act
    const profile = await reader.read('shop.test', never());

    // Assess
    expect(profile).toBeNull();
    expect(skips[0]?.reason).toBe('blocked-address');
    expect(shop.paths()).toEqual(['/robots.txt', '/']);
    expect(internal.connections).toBe(0);
  });

  it('refuses a redirect to a name that resolves to a private address', async () => {
    // Prepare
    const internal = await site(routes({ '/': html(HOME) }));
    const shop = await site(routes({ '/': redirect(`http://evil.test:${internal.port}/`, 301) }));
    const lookup = fakeDns({ 'shop.test': '127.0.0.1', 'evil.test': '127.0.0.1' });
    const { reader, skips } = await guardedReader(shop.port, { lookup, trustedHosts: ['shop.test'] });

    // Act
    const profile = await reader.read('shop.test', never());

    // Assess
    expect(profile).toBeNull();
    expect(skips[0]?.reason).toBe('blocked-address');
    expect(internal.connections).toBe(0);
  });

  it('refuses the cloud metadata address, as a domain, as a DNS answer and as a redirect target', async () => {
    // Prepare
    const shop = await site(routes({ '/': redirect('http://169.254.169.254/latest/meta-data/iam/security-credentials/', 302) }));
    const lookup = fakeDns({ 'shop.test': '127.0.0.1', 'metadata.test': '169.254.169.254', 'alibaba.test': '100.100.100.200', 'imds6.test': 'fd00:ec2::254' });
    const { reader, skips } = await guardedReader(shop.port, { lookup, trustedHosts: ['shop.test'] });

    // Act
    const results = await Promise.all(['169.254.169.254', 'metadata.test', 'alibaba.test', 'imds6.test', 'shop.test'].map((d) => reader.read(d, never())));

    // Assess
    expect(results).toEqual([null, null, null, null, null]);
    expect(skips.map((s) => [s.domain, s.reason])).toEqual(
      expect.arrayContaining([
        ['169.254.169.254', 'blocked-address'],
        ['metadata.test', 'blocked-address'],
        ['alibaba.test', 'blocked-address'],
        ['imds6.test', 'blocked-address'],
        ['shop.test', 'blocked-address'],
      ]),
    );
  });

  it('reaches the same local site once private addresses are allowed (so the refusals above are the filter\'s doing)', async () => {
    // Prepare
    const internal = await site(routes({ '/': html(HOME) }));
    const { reader } = await guardedReader(internal.port, { lookup: fakeDns({ 'evil.test': '127.0.0.1' }), allowPrivateAddresses: true });

    // Act
    const profile = await reader.read('evil.test', never());

    // Assess
    expect(profile?.title).toBe('Internal dashboard');
  });
});
