// Homepage-only targets on the real knowledge base: the engine places a company it has never heard of by what its
// homepage says and names that market's leaders. The pages are of fictional companies, written for this test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHomepageReader } from '@rivals/crawler';
import type { HomepageProfile } from '@rivals/core';
import { KnowledgeBaseEngine } from '@rivals/engine';
import { loadKnowledgeBase } from '@rivals/kb';
import { closedPort, fakeDns, html, httpSite, routes, type LocalSite } from '../crawler/local-web.js';
import { ENGLISH_PAGES as PAGES } from './english-pages.js';

const byDomain = new Map<string, HomepageProfile>(PAGES.map(([p]) => [p.domain, p]));
let engine: KnowledgeBaseEngine;
beforeAll(() => {
  engine = new KnowledgeBaseEngine({ index: loadKnowledgeBase(), homepage: { read: async (domain) => byDomain.get(domain) ?? null } });
});
const research = (domain: string) => engine.research({ domain, limit: 25, signal: new AbortController().signal });

describe('homepage-only targets on the knowledge base', () => {
  it.each(PAGES.map(([p, category, leaders]) => [p.domain, category, leaders] as const))('places %s in %s and names its leaders', async (domain, category, leaders) => {
    expect(engine.homepageProfile(byDomain.get(domain)!)?.primaryCategory).toBe(engine.model.index.categories.findIndex((c) => c.id === category));
    const { targetSource, competitors } = await research(domain);
    expect(targetSource).toBe('homepage');
    expect(competitors.slice(0, 5).map((c) => c.domain)).toEqual(expect.arrayContaining([...leaders]));
    expect(competitors.every((c) => c.evidence.source === 'homepage' && c.evidence.sharedCategories.length > 0)).toBe(true);
  });
});

describe('homepage-only target through the real crawler', () => {
  let site: LocalSite;
  beforeAll(async () => {
    site = await httpSite(
      routes({
        '/robots.txt': (_, res) => res.writeHead(404).end(),
        '/': html(
          '<html><head><title>Ledgerly | Accounting software for small businesses</title>' +
            '<meta name="description" content="Send invoices, reconcile bank feeds, track expenses and run reports."></head>' +
            '<body><h1>Invoicing and bookkeeping in one place</h1></body></html>',
        ),
      }),
    );
  });
  afterAll(() => site?.close());

  it('reads the homepage over HTTP (https closed, http fallback) and ranks the accounting leaders', async () => {
    const reader = createHomepageReader({
      lookup: fakeDns({ 'ledgerly.io': '127.0.0.1' }),
      ports: { http: site.port, https: await closedPort() },
      allowPrivateAddresses: true,
    });
    try {
      const crawled = new KnowledgeBaseEngine({ index: loadKnowledgeBase(), homepage: reader });
      const { targetSource, competitors } = await crawled.research({ domain: 'ledgerly.io', limit: 10, signal: new AbortController().signal });
      expect(targetSource).toBe('homepage');
      expect(competitors.slice(0, 5).map((c) => c.domain)).toEqual(expect.arrayContaining(['intuit.com', 'xero.com']));
    } finally {
      await reader.close();
    }
  });
});
