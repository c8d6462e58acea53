// How well homepages are placed, per language: top-1 category accuracy (the primary category is one the page may be
// placed in) and rivals recall (the share of the named rivals among the first ten). Shared by the homepage quality
// test and `npm run eval:languages`, so that the figures in the README are the ones the test holds.
import type { HomepageProfile } from '@rivals/core';
import { extractFacts } from '@rivals/crawler';
import { KnowledgeBaseEngine } from '@rivals/engine';
import { loadKnowledgeBase } from '@rivals/kb';
import { ENGLISH_PAGES } from './english-pages.js';
import { LANGUAGE_PAGES } from './multilingual-pages.js';
import { NON_SOFTWARE_EXPECTED, NON_SOFTWARE_PAGES } from './non-software-pages.js';

/** Rivals are looked for among this many results. */
export const RIVALS_WITHIN = 10;

export interface HomepageCase {
  language: string;
  page: HomepageProfile;
  categories: readonly string[];
  rivals: readonly string[];
  /** A page the lexicon was not tuned on. */
  heldOut?: boolean;
}

export interface PageResult {
  domain: string;
  language: string;
  heldOut: boolean;
  detected: string | null | undefined;
  placedIn: string | null;
  placed: boolean;
  rivalsFound: string[];
  rivalsMissed: string[];
}

export interface LanguageFigures {
  language: string;
  pages: number;
  top1: number;
  rivalsRecall: number;
}

/** The profile the crawler makes of a fixture page's HTML (title, description, headings, language). */
export function crawledProfile(domain: string, html: string): HomepageProfile {
  return { domain, url: `https://${domain}/`, ...extractFacts(Buffer.from(html)), fetchedAt: '2026-11-28T00:00:00Z' };
}

/**
 * Every fixture homepage: the English ones of the other homepage tests, then the six other languages. With `twins`, the
 * English twin of each page in another language follows too, under the language `en-de`, `en-fr`...
 */
export function homepageCases({ twins = false } = {}): HomepageCase[] {
  const english: HomepageCase[] = [
    ...ENGLISH_PAGES.map(([page, category, leaders]) => ({ language: 'en', page, categories: [category], rivals: leaders })),
    ...NON_SOFTWARE_PAGES.map(([domain, title, description, headings]) => ({
      language: 'en',
      page: { domain, url: `https://${domain}/`, title, description, headings, organizationName: null, keywords: [], fetchedAt: '2026-11-24T00:00:00Z' },
      categories: NON_SOFTWARE_EXPECTED[domain]!.categories,
      rivals: NON_SOFTWARE_EXPECTED[domain]!.leaders,
    })),
  ];
  const others = LANGUAGE_PAGES.map((p) => ({ language: p.language, page: crawledProfile(p.domain, p.html), categories: p.categories, rivals: p.rivals, heldOut: p.heldOut === true }));
  const twinCases = LANGUAGE_PAGES.map((p) => ({
    language: `en-${p.language}`,
    page: { domain: p.domain, url: `https://${p.domain}/`, ...p.english, organizationName: null, keywords: [], fetchedAt: '2026-11-28T00:00:00Z', language: 'en' },
    categories: p.categories,
    rivals: p.rivals,
    heldOut: p.heldOut === true,
  }));
  return [...english, ...others, ...(twins ? twinCases : [])];
}

/** An engine on the real knowledge base whose homepage reader serves the given pages. */
export function engineFor(cases: HomepageCase[]): KnowledgeBaseEngine {
  const pages = new Map(cases.map((c) => [c.page.domain, c.page]));
  return new KnowledgeBaseEngine({ index: loadKnowledgeBase(), homepage: { read: async (domain) => pages.get(domain) ?? null } });
}

export async function scoreCase(engine: KnowledgeBaseEngine, c: HomepageCase): Promise<PageResult> {
  const profile = engine.homepageProfile(c.page);
  const placedIn = profile?.primaryCategory == null ? null : engine.model.index.categories[profile.primaryCategory]!.id;
  const { competitors } = await engine.research({ domain: c.page.domain, limit: 25, signal: new AbortController().signal });
  const top = new Set(competitors.slice(0, RIVALS_WITHIN).map((x) => x.domain));
  return {
    domain: c.page.domain,
    language: c.language,
    heldOut: c.heldOut === true,
    detected: c.page.language,
    placedIn,
    placed: placedIn !== null && c.categories.includes(placedIn),
    rivalsFound: c.rivals.filter((r) => top.has(r)),
    rivalsMissed: c.rivals.filter((r) => !top.has(r)),
  };
}

/** Figures per language, in the order languages first appear. */
export function figuresOf(results: PageResult[]): LanguageFigures[] {
  const languages = [...new Set(results.map((r) => r.language))];
  return languages.map((language) => {
    const rows = results.filter((r) => r.language === language);
    const expected = rows.reduce((n, r) => n + r.rivalsFound.length + r.rivalsMissed.length, 0);
    return {
      language,
      pages: rows.length,
      top1: rows.filter((r) => r.placed).length / rows.length,
      rivalsRecall: rows.reduce((n, r) => n + r.rivalsFound.length, 0) / Math.max(expected, 1),
    };
  });
}
