// Homepage-only targets on the real knowledge base: the engine places a company it has never heard of by what its
// homepage says and names that market's leaders, in English and in six other languages (figures per language:
// `npm run eval:languages`). The pages are of fictional companies, written for these tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHomepageReader } from '@rivals/crawler';
import type { HomepageProfile } from '@rivals/core';
import { KnowledgeBaseEngine, Ranker } from '@rivals/engine';
import { loadKnowledgeBase } from '@rivals/kb';
import { closedPort, fakeDns, html, httpSite, routes, type LocalSite } from '../crawler/local-web.js';
import { ENGLISH_PAGES as PAGES } from './english-pages.js';
import { engineFor, figuresOf, homepageCases, scoreCase, type PageResult } from './language-figures.js';
import { LANGUAGE_PAGES } from './multilingual-pages.js';

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

describe('homepages in German, French, Spanish, Portuguese, Italian and Dutch', () => {
  const cases = homepageCases().filter((c) => c.language !== 'en');
  let results: PageResult[];
  beforeAll(async () => {
    const multilingual = engineFor(cases);
    results = [];
    for (const c of cases) results.push(await scoreCase(multilingual, c));
  });

  it('has five pages or more in each language, each recognised as written in it', () => {
    for (const language of ['de', 'fr', 'es', 'pt', 'it', 'nl']) expect(cases.filter((c) => c.language === language && !c.heldOut).length).toBeGreaterThanOrEqual(5);
    expect(results.map((r) => [r.domain, r.detected])).toEqual(results.map((r) => [r.domain, r.language]));
  });

  it('places each language about as well as English: top-1 category ≥ 0.8 and rivals recall@10 ≥ 0.5 per language', () => {
    const tuned = results.filter((r) => !r.heldOut);
    for (const f of figuresOf(tuned)) {
      expect({ language: f.language, top1: f.top1 >= 0.8, rivals: f.rivalsRecall >= 0.5 }).toEqual({ language: f.language, top1: true, rivals: true });
    }
    const all = figuresOf(tuned.map((r) => ({ ...r, language: 'all' })))[0]!;
    expect(all.top1).toBeGreaterThanOrEqual(0.9);
    expect(all.rivalsRecall).toBeGreaterThanOrEqual(0.7);
  });

  it('places pages the lexicon was not tuned on nearly as well (held out: top-1 ≥ 0.75, rivals recall@10 ≥ 0.5)', () => {
    const heldOut = figuresOf(results.filter((r) => r.heldOut).map((r) => ({ ...r, language: 'all' })))[0]!;
    expect(heldOut.pages).toBeGreaterThanOrEqual(12);
    expect(heldOut.top1).toBeGreaterThanOrEqual(0.75);
    expect(heldOut.rivalsRecall).toBeGreaterThanOrEqual(0.5);
  });

  it('finds a German language school its rivals (the failure that opened the issue)', () => {
    const school = results.find((r) => r.domain === 'sprachschule-lindenhof.de')!;
    expect(school.placedIn).toBe('language-learning');
    expect(school.rivalsFound.length).toBeGreaterThanOrEqual(2);
  });

  it('exposes the language on the profile, judging it from the text for a profile cached without one', () => {
    const multilingual = engineFor(cases);
    const school = cases.find((c) => c.page.domain === 'sprachschule-lindenhof.de')!.page;
    expect(multilingual.homepageProfile(school)?.language).toBe('de');
    const { language: _, ...cachedBefore } = school;
    expect(multilingual.homepageProfile(cachedBefore)?.language).toBe('de');
    // Read as English, the German page lands elsewhere: the translation is what places it.
    expect(multilingual.homepageProfile({ ...school, language: 'en' })?.primaryCategory).not.toBe(multilingual.homepageProfile(school)?.primaryCategory);
    // Too short for its function words and without a lang attribute, a page is known by its vocabulary.
    const short = { ...school, title: 'Sprachschule Lindenhof', description: '', headings: ['Deutschkurse und Englischkurse'], language: null };
    expect(multilingual.homepageProfile(short)?.language).toBe('de');
    expect(multilingual.model.index.categories[multilingual.homepageProfile(short)!.primaryCategory!]!.id).toBe('language-learning');
    expect(multilingual.knownProfile('duolingo.com')?.language).toBeNull();
  });
});

describe('home market', () => {
  it('ranks rivals from where the page\'s language is spoken higher, and changes nothing for a page of no translated language', () => {
    const cases = homepageCases().filter((c) => c.page.domain === 'bancoaurora.com.br');
    const engine = engineFor(cases);
    const ranker = new Ranker(engine.model);
    const profile = engine.homepageProfile(cases[0]!.page)!;
    expect(profile.language).toBe('pt');
    const brazilian = (language: string | null) =>
      ranker.rank({ ...profile, language }, { limit: 10 }).filter((c) => engine.model.entity(engine.model.resolve(c.domain)!).hq === 'BR').length;
    expect(brazilian('pt')).toBeGreaterThan(brazilian(null));
    expect(ranker.rank({ ...profile, language: 'en' }, { limit: 25 })).toEqual(ranker.rank({ ...profile, language: null }, { limit: 25 }));
  });
});

describe('a German homepage through the real crawler', () => {
  let site: LocalSite;
  const school = LANGUAGE_PAGES.find((p) => p.domain === 'sprachschule-lindenhof.de')!;
  beforeAll(async () => {
    site = await httpSite(routes({ '/robots.txt': (_, res) => res.writeHead(404).end(), '/': html(school.html) }));
  });
  afterAll(() => site?.close());

  it('reads the page as German and names the language schools', async () => {
    const reader = createHomepageReader({
      lookup: fakeDns({ [school.domain]: '127.0.0.1' }),
      ports: { http: site.port, https: await closedPort() },
      allowPrivateAddresses: true,
    });
    try {
      expect((await reader.read(school.domain, new AbortController().signal))?.language).toBe('de');
      const crawled = new KnowledgeBaseEngine({ index: loadKnowledgeBase(), homepage: reader });
      const { targetSource, competitors } = await crawled.research({ domain: school.domain, limit: 10, signal: new AbortController().signal });
      expect(targetSource).toBe('homepage');
      expect(competitors.map((c) => c.domain)).toEqual(expect.arrayContaining(['ef.com', 'lingoda.com']));
    } finally {
      await reader.close();
    }
  });
});
