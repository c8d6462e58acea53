// Homepage-only targets of twenty industries outside software, on the real knowledge base: a company the knowledge
// base has never heard of is placed by what its homepage says, in its industry's category (or the nearest one named),
// and that industry's leaders come first. The companies and their pages are fictional, written for this test.
import { beforeAll, describe, expect, it } from 'vitest';
import type { HomepageProfile } from '@rivals/core';
import { KnowledgeBaseEngine } from '@rivals/engine';
import { loadKnowledgeBase } from '@rivals/kb';
import { NON_SOFTWARE_EXPECTED as EXPECTED, NON_SOFTWARE_PAGES } from './non-software-pages.js';

const pages = new Map<string, HomepageProfile>(
  NON_SOFTWARE_PAGES.map(([domain, title, description, headings]) => [
    domain,
    { domain, url: `https://${domain}/`, title, description, headings, organizationName: null, keywords: [], fetchedAt: '2026-11-24T00:00:00Z' },
  ]),
);
let engine: KnowledgeBaseEngine;
beforeAll(() => {
  engine = new KnowledgeBaseEngine({ index: loadKnowledgeBase(), homepage: { read: async (domain) => pages.get(domain) ?? null } });
});

describe('homepage-only targets outside software', () => {
  it('covers twenty industries or more', () => {
    expect(new Set(NON_SOFTWARE_PAGES.map((p) => p[4])).size).toBeGreaterThanOrEqual(20);
  });

  it.each(NON_SOFTWARE_PAGES.map(([domain]) => domain))('places %s in its industry and ranks its leaders first', async (domain) => {
    const { categories, leaders } = EXPECTED[domain]!;
    const primary = engine.homepageProfile(pages.get(domain)!)?.primaryCategory ?? -1;
    expect(categories).toContain(engine.model.index.categories[primary]?.id);
    const { targetSource, competitors } = await engine.research({ domain, limit: 25, signal: new AbortController().signal });
    expect(targetSource).toBe('homepage');
    expect(competitors.slice(0, 10).map((c) => c.domain)).toEqual(expect.arrayContaining(leaders));
  });
});
