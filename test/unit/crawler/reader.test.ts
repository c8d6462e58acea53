// The homepage reader against real local sites on 127.0.0.1: schemes, redirects, limits, content types and robots.txt.
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHomepageReader, type ClosableHomepageReader, type HomepageReaderOptions, type HomepageSkip } from '@rivals/crawler';
import { hostilePages } from './hostile-pages.js';
import { closedPort, fakeDns, hang, html, httpsSite, redirect, routes, selfSignedCertificate, text, useSites, type Credentials, type Handler } from './local-web.js';

const ACME_HOME = `<!doctype html><html lang="en"><head>
  <title>Acme — CRM for small teams</title>
  <meta name="description" content="Acme is the CRM small sales teams love.">
  <meta property="og:description" content="Open Graph text.">
  <meta property="og:site_name" content="Acme">
  <meta name="keywords" content="CRM, Sales, Pipeline">
  <script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Acme Inc.","url":"https://acme.test"}</script>
</head><body><h1>Close more deals</h1><h2>Pipeline management</h2><h3>Email tracking</h3></body></html>`;

const dns = fakeDns({ 'acme.test': '127.0.0.1', 'www.acme.test': '127.0.0.1' });
const never = () => new AbortController().signal;

const { site, closeAfterTest } = useSites();

/** A reader for local sites: fake DNS, loopback allowed, no proxy from the host's environment; skips are recorded. */
async function localReader(http: number, options: HomepageReaderOptions = {}): Promise<{ reader: ClosableHomepageReader; skips: HomepageSkip[] }> {
  const skips: HomepageSkip[] = [];
  const reader = createHomepageReader({
    env: {},
    lookup: dns,
    allowPrivateAddresses: true,
    extraPublicSuffixes: ['test'],
    ports: { http, https: await closedPort() },
    onSkip: (skip) => skips.push(skip),
    ...options,
  });
  closeAfterTest(() => reader.close());
  return { reader, skips };
}

describe('homepage reader', () => {
  let credentials: Credentials;
  beforeAll(async () => {
    credentials = await selfSignedCertificate(['acme.test', 'www.acme.test']);
  });

  it('reads a normal page: title, meta description, headings, JSON-LD organisation and keywords', async () => {
    // Prepare
    const web = await site(routes({ '/': html(ACME_HOME) }));
    const { reader } = await localReader(web.port, { clock: { now: () => new Date('2026-01-02T03:04:05.000Z') } });

    // Act
    const profile = await reader.read('acme.test', never());

    // Assess
    expect(profile).toEqual({
      domain: 'acme.test',
      url: `http://acme.test:${web.port}/`,
      title: 'Acme — CRM for small teams',
      description: 'Acme is the CRM small sales teams love.',
      headings: ['Close more deals', 'Pipeline management', 'Email tracking'],
      organizationName: 'Acme Inc.',
      keywords: ['crm', 'sales', 'pipeline'],
      language: 'en',
      fetchedAt: '2026-01-02T03:04:05.000Z',
      fetchedFrom: { address: '127.0.0.1', proxied: false },
    });
    expect(web.requests.map((r) => r.path)).toEqual(['/robots.txt', '/']);
    expect(web.requests[1]!.userAgent).toBe('Mozilla/5.0 (compatible; RivalsBot/1.0; +https://rivals.dev/bot)');
    expect(web.connections).toBe(1); // robots.txt and the page share one kept-alive connection
  });

  it('prefers https when it answers (private CA given through the tls option)', async () => {
    // Prepare
    const secure = await httpsSite(routes({ '/': html(ACME_HOME) }), credentials);
    closeAfterTest(secure.close);
    const plain = await site(routes({ '/': html('<title>Plain</title>') }));
    const { reader } = await localReader(plain.port, { ports: { https: secure.port, http: plain.port }, tls: { ca: credentials.cert } });

    // Act
    const profile = await reader.read('acme.test', never());

    // Assess
    expect(profile?.url).toBe(`https://acme.test:${secure.port}/`);
    expect(profile?.organizationName).toBe('Acme Inc.');
    expect(plain.requests).toEqual([]);
  });

  it('tries www. when the bare name does not resolve, and not otherwise', async () => {
    // Prepare: only www.acme.test resolves
    const web = await site(routes({ '/': html(ACME_HOME) }));
    const { reader } = await localReader(web.port, { lookup: fakeDns({ 'www.acme.test': '127.0.0.1' }) });

    // Act
    const profile = await reader.read('acme.test', never());

    // Assess
    expect(profile?.url).toBe(`http://www.acme.test:${web.port}/`);
    expect(profile?.domain).toBe('acme.test');
    const nothing = await localReader(web.port, { lookup: fakeDns({}) });
    expect(await nothing.reader.read('acme.test', never())).toBeNull();
    expect(nothing.skips.map((s) => s.reason)).toEqual(['unreachable']);
  });

  it('falls back to http when nothing listens on https', async () => {
    // Prepare
    const web = await site(routes({ '/': html(ACME_HOME) }));
    const { reader } = await localReader(web.port);

    // Act
    const profile = await reader.read('acme.test', never());

    // Assess
    expect(profile?.url).toBe(`http://acme.test:${web.port}/`);
    expect(profile?.title).toBe('Acme — CRM for small teams');
  });

  it('returns null when neither https nor http answers', async () => {
    // Prepare
    const { reader, skips } = await localReader(await closedPort());

    // Act
    const profile = await reader.read('acme.test', never());

    // Assess
    expect(profile).toBeNull();
    expect(skips.map((s) => s.reason)).toEqual(['unreachable']);
    expect(skips[0]?.detail).toMatch(/^http:/);
  });

  it('falls back to http when the https certificate is not trusted', async () => {
    // Prepare
    const secure = await httpsSite(routes({ '/': html('<title>Secure</title>') }), credentials);
    closeAfterTest(secure.close);
    const plain = await site(routes({ '/': html('<title>Plain</title>') }));
    const { reader } = await localReader(plain.port, { ports: { https: secure.port, http: plain.port } });

    // Act
    const profile = await reader.read('acme.test', never());

    // Assess
    expect(profile?.title).toBe('Plain');
    expect(secure.requests).toEqual([]);
  });

  it('follows a redirect chain across hosts, asking each origin for its robots.txt, and reports the final URL', async () => {
    // Prepare
    let port = 0;
    const web = await site(
      routes({
        '/': redirect('/start', 301),
        '/start': (req, res) => redirect(req.headers.host?.startsWith('www.') ? '/home' : `http://www.acme.test:${port}/next`, 302)(req, res),
        '/next': redirect('/home', 307),
        '/home': html(ACME_HOME),
      }),
    );
    port = web.port;
    const { reader } = await localReader(web.port);

    // Act
    const profile = await reader.read('acme.test', never());

    // Assess
    expect(profile?.url).toBe(`http://www.acme.test:${web.port}/home`);
    expect(web.paths('acme.test')).toEqual(['/robots.txt', '/', '/start']);
    expect(web.paths('www.acme.test')).toEqual(['/robots.txt', '/next', '/home']);
  });

  it('follows exactly 5 redirects and refuses a sixth', async () => {
    // Prepare
    const chain = (length: number): Record<string, Handler> => ({
      '/': redirect('/r1'),
      ...Object.fromEntries(Array.from({ length: length - 1 }, (_, i) => [`/r${i + 1}`, redirect(`/r${i + 2}`)])),
      [`/r${length}`]: html(ACME_HOME),
    });
    const five = await site(routes(chain(5)));
    const six = await site(routes(chain(6)));
    const { reader: fiveReader } = await localReader(five.port);
    const { reader: sixReader, skips } = await localReader(six.port);

    // Act
    const afterFive = await fiveReader.read('acme.test', never());
    const afterSix = await sixReader.read('acme.test', never());

    // Assess
    expect(afterFive?.url).toBe(`http://acme.test:${five.port}/r5`);
    expect(afterSix).toBeNull();
    expect(skips.map((s) => s.reason)).toEqual(['too-many-redirects']);
    expect(six.paths()).not.toContain('/r6');
  });

  it('refuses a redirect to a non-http scheme', async () => {
    // Prepare
    const web = await site(routes({ '/': redirect('file:///etc/passwd') }));
    const { reader, skips } = await localReader(web.port);

    // Act
    const profile = await reader.read('acme.test', never());

    // Assess
    expect(profile).toBeNull();
    expect(skips[0]?.reason).toBe('bad-redirect');
  });

  it('refuses content that is not HTML, including a response without a content type', async () => {
    // Prepare
    const json = await site(routes({ '/': text('{"title":"Acme"}', 200, 'application/json') }));
    const untyped = await site(routes({ '/': (_req, res) => res.writeHead(200).end('<title>Acme</title>') }));
    const xhtml = await site(routes({ '/': text('<html xmlns="http://www.w3.org/1999/xhtml"><head><title>XHTML Acme</title></head></html>', 200, 'application/xhtml+xml') }));
    const jsonReader = await localReader(json.port);
    const untypedReader = await localReader(untyped.port);
    const xhtmlReader = await localReader(xhtml.port);

    // Act
    const fromJson = await jsonReader.reader.read('acme.test', never());
    const fromUntyped = await untypedReader.reader.read('acme.test', never());
    const fromXhtml = await xhtmlReader.reader.read('acme.test', never());

    // Assess
    expect(fromJson).toBeNull();
    expect(jsonReader.skips[0]?.reason).toBe('not-html');
    expect(fromUntyped).toBeNull();
    expect(untypedReader.skips[0]?.reason).toBe('not-html');
    expect(fromXhtml?.title).toBe('XHTML Acme');
  });

  it('returns null for an error status and for a page without usable text', async () => {
    // Prepare
    const failing = await site(routes({ '/': text('oops', 500, 'text/html') }));
    const empty = await site(routes({ '/': html('<html><body><img src="logo.png"></body></html>') }));
    const failingReader = await localReader(failing.port);
    const emptyReader = await localReader(empty.port);

    // Act
    const fromFailing = await failingReader.reader.read('acme.test', never());
    const fromEmpty = await emptyReader.reader.read('acme.test', never());

    // Assess
    expect([fromFailing, fromEmpty]).toEqual([null, null]);
    expect(failingReader.skips[0]?.reason).toBe('http-status');
    expect(emptyReader.skips[0]?.reason).toBe('no-text');
  });

  it('reads only the first 2 MiB of a larger page, keeps what it read, and drops the connection', async () => {
    // Prepare
    const total = 24 * 1024 * 1024;
    let finished = false;
    let closedEarly = false;
    const web = await site(
      routes({
        '/': (_req, res) => {
          res.writeHead(200, { 'content-type': 'text/html' });
          res.write('<html><head><title>Big Acme</title></head><body><h1>Early heading</h1><p>');
          const filler = Buffer.alloc(64 * 1024, 'x');
          let sent = 0;
          res.on('close', () => (closedEarly = !finished));
          const pump = () => {
            while (sent < total && !res.destroyed) {
              sent += filler.length;
              if (!res.write(filler)) return void res.once('drain', pump);
            }
            if (!res.destroyed) res.end('</p><h1>Late heading</h1></body></html>', () => (finished = true));
          };
          pump();
        },
      }),
    );
    const { reader } = await localReader(web.port);

    // Act
    const profile = await reader.read('acme.test', never());
    await new Promise((resolve) => setTimeout(resolve, 50));

    // Assess
    expect(profile?.title).toBe('Big Acme');
    expect(profile?.headings).toEqual(['Early heading']);
    expect(closedEarly).toBe(true);
  });

  it('decompresses a gzip-encoded page', async () => {
    // Prepare
    const web = await site(routes({ '/': (_req, res) => res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(gzipSync(ACME_HOME)) }));
    const { reader } = await localReader(web.port);

    // Act
    const profile = await reader.read('acme.test', never());

    // Assess
    expect(profile?.organizationName).toBe('Acme Inc.');
  });

  it('gives up on a server that never answers within the total time limit', async () => {
    // Prepare
    const web = await site(routes({ '/robots.txt': text('', 404), '/': hang }));
    const { reader, skips } = await localReader(web.port, { timeouts: { totalMs: 400 } });
    const started = Date.now();

    // Act
    const profile = await reader.read('acme.test', never());

    // Assess
    expect(profile).toBeNull();
    expect(skips[0]?.reason).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('treats an origin whose robots.txt never answers as unreachable, within the robots time limit', async () => {
    // Prepare
    const web = await site(routes({ '/robots.txt': hang, '/': html(ACME_HOME) }));
    const { reader, skips } = await localReader(web.port, { timeouts: { robotsMs: 200, totalMs: 3_000 } });
    const started = Date.now();

    // Act
    const profile = await reader.read('acme.test', never());

    // Assess
    expect(profile).toBeNull();
    expect(skips[0]?.reason).toBe('unreachable');
    // Each origin (the bare name, then www.) is given up after its robots.txt; the page is never fetched.
    expect(web.paths()).toEqual(['/robots.txt', '/robots.txt']);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('rejects with the caller\'s reason when the caller aborts', async () => {
    // Prepare
    const web = await site(routes({ '/robots.txt': text('', 404), '/': hang }));
    const { reader } = await localReader(web.port);
    const caller = new AbortController();
    setTimeout(() => caller.abort(new Error('search deadline')), 100);

    // Act
    const reading = reader.read('acme.test', caller.signal);

    // Assess
    await expect(reading).rejects.toThrow('search deadline');
  });

  it('reads every hostile page within a research deadline, the event loop staying free meanwhile', async () => {
    // Prepare
    const pages = hostilePages();
    let current = pages[0]!;
    const web = await site(routes({ '/': (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(current.html) }));
    // Some pages are past the 2 MiB body cap: the whole of each is read here, so that all of it goes through extraction.
    const { reader } = await localReader(web.port, { maxBodyBytes: 8 * 1024 * 1024 });
    const results: unknown[] = [];
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);

    // Act
    for (const page of pages) {
      current = page;
      // The deadline is generous for a loaded test machine; the old tree parser took over a minute on the first page.
      results.push(await reader.read('acme.test', AbortSignal.timeout(5_000)));
    }
    clearInterval(ticker);

    // Assess
    expect(results).toEqual(pages.map((p) => expect.objectContaining(p.expected)));
    expect(ticks).toBeGreaterThan(0);
  });

  it('refuses anything that is not a bare host name', async () => {
    // Prepare
    const web = await site(routes({ '/': html(ACME_HOME) }));
    const { reader, skips } = await localReader(web.port);

    // Act
    const results = await Promise.all(['https://acme.test/', 'acme.test/about', 'user@acme.test', 'acme.test:8080', ''].map((d) => reader.read(d, never())));

    // Assess
    expect(results).toEqual([null, null, null, null, null]);
    expect(new Set(skips.map((s) => s.reason))).toEqual(new Set(['invalid-domain']));
    expect(web.connections).toBe(0);
  });

  describe('robots.txt', () => {
    it('returns null without fetching the page when / is disallowed for RivalsBot', async () => {
      // Prepare
      const web = await site(routes({ '/robots.txt': text('User-agent: *\nAllow: /\n\nUser-agent: RivalsBot\nDisallow: /\n'), '/': html(ACME_HOME) }));
      const { reader, skips } = await localReader(web.port);

      // Act
      const profile = await reader.read('acme.test', never());

      // Assess
      expect(profile).toBeNull();
      expect(skips[0]?.reason).toBe('robots-disallowed');
      expect(web.paths()).toEqual(['/robots.txt']);
    });

    it('reads the page when RivalsBot is allowed even though others are not', async () => {
      // Prepare
      const web = await site(routes({ '/robots.txt': text('User-agent: *\nDisallow: /\n\nUser-agent: rivalsbot\nAllow: /\n'), '/': html(ACME_HOME) }));
      const { reader } = await localReader(web.port);

      // Act
      const profile = await reader.read('acme.test', never());

      // Assess
      expect(profile?.title).toBe('Acme — CRM for small teams');
      expect(web.paths()).toEqual(['/robots.txt', '/']);
    });

    it('checks the page a redirect leads to against its own origin\'s rules', async () => {
      // Prepare
      let port = 0;
      const web = await site((req, res) => {
        const www = req.headers.host?.startsWith('www.');
        if (req.url === '/robots.txt') return text(www ? 'User-agent: *\nDisallow: /private/\n' : '')(req, res);
        if (!www) return redirect(`http://www.acme.test:${port}/private/home`)(req, res);
        return html(ACME_HOME)(req, res);
      });
      port = web.port;
      const { reader, skips } = await localReader(web.port);

      // Act
      const profile = await reader.read('acme.test', never());

      // Assess
      expect(profile).toBeNull();
      expect(skips[0]?.reason).toBe('robots-disallowed');
      expect(web.paths('www.acme.test')).toEqual(['/robots.txt']);
    });

    it('treats a server error on robots.txt as a complete disallow (RFC 9309), and a 4xx as no rules', async () => {
      // Prepare
      const unavailable = await site(routes({ '/robots.txt': text('down', 503), '/': html(ACME_HOME) }));
      const missing = await site(routes({ '/robots.txt': text('gone', 410), '/': html(ACME_HOME) }));
      const unavailableReader = await localReader(unavailable.port);
      const missingReader = await localReader(missing.port);

      // Act
      const fromUnavailable = await unavailableReader.reader.read('acme.test', never());
      const fromMissing = await missingReader.reader.read('acme.test', never());

      // Assess
      expect(fromUnavailable).toBeNull();
      expect(unavailableReader.skips[0]?.reason).toBe('robots-disallowed');
      expect(fromMissing?.title).toBe('Acme — CRM for small teams');
    });
  });
});
