// Corporate egress proxies: with HTTP_PROXY/HTTPS_PROXY set the reader goes through the proxy (absolute-URI GET for
// http, CONNECT for https). Every host is still checked here first: its name, then its addresses resolved locally (an
// egress proxy reaches the internal network too). NO_PROXY hosts are reached directly and filtered in the connection.
import { beforeAll, describe, expect, it } from 'vitest';
import { closedPort, fakeDns, forwardProxy, html, httpsSite, httpSite, redirect, routes, selfSignedCertificate, useProxyWeb, type Credentials, type LocalSite } from './local-web.js';

const HOME = '<title>Acme</title><meta name="description" content="CRM for small teams"><h1>Close more deals</h1>';
/** acme.test as a public site: the local check passes; the proxy (which dials 127.0.0.1 whatever it is asked) connects. */
const PUBLIC_DNS = fakeDns({ 'acme.test': '93.184.215.14' });
const never = () => new AbortController().signal;

const { started, reader, proxyEnv } = useProxyWeb();

describe('proxy from the environment', () => {
  let credentials: Credentials;
  let plain: LocalSite;
  beforeAll(async () => {
    credentials = await selfSignedCertificate(['acme.test']);
  });

  it('sends plain http through HTTP_PROXY as an absolute-URI GET, after the https CONNECT fails', async () => {
    // Prepare
    const proxy = await started(forwardProxy());
    plain = await started(httpSite(routes({ '/': html(HOME) })));
    proxyEnv(proxy);
    const httpsPort = await closedPort();
    // No allowPrivateAddresses: the proxy connects; the local resolution only vets the name.
    const { reader: r } = reader({ ports: { http: plain.port, https: httpsPort }, lookup: PUBLIC_DNS });

    // Act
    const profile = await r.read('acme.test', never());

    // Assess
    expect(r.proxied).toBe(true);
    expect(profile?.url).toBe(`http://acme.test:${plain.port}/`);
    expect(profile?.fetchedFrom).toEqual({ address: '93.184.215.14', proxied: true });
    expect(proxy.seen).toEqual([`CONNECT acme.test:${httpsPort}`, `GET http://acme.test:${plain.port}/robots.txt`, `GET http://acme.test:${plain.port}/`]);
    expect(plain.requests.map((q) => q.host)).toEqual(['acme.test', 'acme.test']);
  });

  it('tunnels https through HTTPS_PROXY with CONNECT, verifying the site\'s certificate end to end', async () => {
    // Prepare
    const proxy = await started(forwardProxy());
    const secure = await started(httpsSite(routes({ '/': html(HOME) }), credentials));
    proxyEnv(proxy);
    const { reader: r } = reader({ ports: { http: await closedPort(), https: secure.port }, tls: { ca: credentials.cert }, lookup: PUBLIC_DNS });

    // Act
    const profile = await r.read('acme.test', never());

    // Assess
    expect(profile?.url).toBe(`https://acme.test:${secure.port}/`);
    expect(profile?.description).toBe('CRM for small teams');
    expect(proxy.seen).toEqual([`CONNECT acme.test:${secure.port}`]); // one tunnel carries robots.txt and the page
    expect(secure.paths()).toEqual(['/robots.txt', '/']);
  });

  it('still refuses hosts that name a non-public address themselves, before asking the proxy', async () => {
    // Prepare
    const proxy = await started(forwardProxy());
    plain = await started(httpSite(routes({ '/': redirect('http://10.0.0.1:8080/admin', 302) })));
    proxyEnv(proxy);
    const httpsPort = await closedPort();
    const { reader: r, skips } = reader({ ports: { http: plain.port, https: httpsPort }, lookup: PUBLIC_DNS });

    // Act
    const literal = await r.read('169.254.169.254', never());
    const local = await r.read('localhost', never());
    const redirected = await r.read('acme.test', never());

    // Assess
    expect([literal, local, redirected]).toEqual([null, null, null]);
    expect(skips.map((s) => s.reason)).toEqual(['blocked-address', 'blocked-address', 'blocked-address']);
    expect(proxy.seen).toEqual([`CONNECT acme.test:${httpsPort}`, `GET http://acme.test:${plain.port}/robots.txt`, `GET http://acme.test:${plain.port}/`]);
  });

  it('connects directly to NO_PROXY hosts, bypassing the proxy', async () => {
    // Prepare
    const proxy = await started(forwardProxy());
    plain = await started(httpSite(routes({ '/': html(HOME) })));
    proxyEnv(proxy, 'localhost,.acme.test');
    const { reader: r } = reader({ ports: { http: plain.port, https: await closedPort() }, lookup: fakeDns({ 'acme.test': '127.0.0.1' }), allowPrivateAddresses: true });

    // Act
    const profile = await r.read('acme.test', never());

    // Assess
    expect(profile?.title).toBe('Acme');
    expect(proxy.seen).toEqual([]);
    expect(plain.paths()).toEqual(['/robots.txt', '/']);
  });

  it('still filters addresses on the direct connections to NO_PROXY hosts', async () => {
    // Prepare
    const proxy = await started(forwardProxy());
    plain = await started(httpSite(routes({ '/': html(HOME) })));
    proxyEnv(proxy, 'acme.test');
    const { reader: r, skips } = reader({ ports: { http: plain.port, https: await closedPort() }, lookup: fakeDns({ 'acme.test': '127.0.0.1' }) });

    // Act
    const profile = await r.read('acme.test', never());

    // Assess
    expect(profile).toBeNull();
    expect(skips[0]?.reason).toBe('blocked-address');
    expect(proxy.seen).toEqual([]);
    expect(plain.connections).toBe(0);
  });

  it('reads the variables once, when the reader is created, and connects directly when none is set', async () => {
    // Prepare
    const proxy = await started(forwardProxy());
    plain = await started(httpSite(routes({ '/': html(HOME) })));
    const { reader: r } = reader({ env: {}, ports: { http: plain.port, https: await closedPort() }, lookup: fakeDns({ 'acme.test': '127.0.0.1' }), allowPrivateAddresses: true });
    proxyEnv(proxy);

    // Act
    const profile = await r.read('acme.test', never());

    // Assess
    expect(r.proxied).toBe(false);
    expect(profile?.title).toBe('Acme');
    expect(proxy.seen).toEqual([]);
  });
});
