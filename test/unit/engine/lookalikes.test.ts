// Look-alikes of several seeds: closeness to most seeds beats a head-to-head rival of one; seeds and their families
// are never returned; the screening filters keep a subset of the ranking; firmographics come from the knowledge base.
import { describe, expect, it } from 'vitest';
import type { SearchFilters } from '@rivals/contracts';
import { KnowledgeBaseEngine } from '@rivals/engine';
import { compile } from '../../../packages/kb/src/build.js';

const entry = (domain: string, categories: string, extra = '', founded = 2010) => `  - name: ${domain.split('.')[0]}
    domain: ${domain}
    description: An online ${categories} company that brings ${categories} orders to homes in big cities.
    categories: [${categories}]
    keywords: [${categories}]
    segment: smb
    model: saas
    founded: ${founded}
    hq: US
    size: 51-200
${extra}`;

/** Three seeds in "grocery"; Closer shares their category; Rival is seed-a's arch-rival in another category. */
const sector = {
  name: 'demo.yaml',
  text: `sector: demo
name: Demo
reviewed: 2026-11-01
categories:
  - {id: grocery, name: Grocery delivery, description: Groceries delivered to the door., terms: [grocery, delivery, food]}
  - {id: meals, name: Meal kits, description: Boxes of ingredients with recipes., terms: [meal kits, recipes, cooking]}
  - {id: pets, name: Pet supplies, description: Food and toys for pets., terms: [pets, pet food, toys]}
companies:
${entry('seed-a.com', 'grocery', '    competes: {rival.com: 1.0}\n')}${entry('seed-b.com', 'grocery')}${entry('seed-c.com', 'grocery')}${entry('closer.com', 'grocery')}${entry('rival.com', 'meals', '    competes: {seed-a.com: 1.0}\n')}${entry('parent.com', 'pets')}${entry('child.com', 'grocery', '    parent: seed-b.com\n')}${entry('young.com', 'grocery', '', 2019)}${entry('owned.com', 'grocery', '    parent: parent.com\n')}`,
};
const list = { name: 'idx.txt', text: '# list: Demo index\n# as-of: 2026-11\n# exchange: Demo Exchange (US)\ncloser.com  CLSR  # Closer\n' };

const built = compile([sector], [list]);
const engine = new KnowledgeBaseEngine({ index: built.index });
const lookalikes = (seeds: string[], filters?: SearchFilters) =>
  engine.research({ domain: seeds[0]!, seeds, limit: 100, ...(filters ? { filters } : {}), signal: new AbortController().signal });

describe('look-alikes of several seeds', () => {
  it('compiles the demo knowledge base', () => {
    expect(built.problems.filter((p) => !/holds \d+ entries/.test(p))).toEqual([]);
  });

  it('ranks a company close to every seed above the head-to-head rival of one seed (not the union of single searches)', async () => {
    const single = (await engine.research({ domain: 'seed-a.com', limit: 100, signal: new AbortController().signal })).competitors.map((c) => c.domain);
    expect(single.indexOf('rival.com')).toBeLessThan(single.indexOf('closer.com'));
    const { competitors } = await lookalikes(['seed-a.com', 'seed-b.com', 'seed-c.com']);
    const domains = competitors.map((c) => c.domain);
    expect(domains.indexOf('closer.com')).toBeLessThan(domains.indexOf('rival.com'));
    const closer = competitors.find((c) => c.domain === 'closer.com')!;
    expect(closer.similarTo).toEqual(expect.arrayContaining(['seed-a.com', 'seed-b.com', 'seed-c.com']));
    expect(closer.evidence.signals).toContain('close to 3 of 3 seeds');
    expect(competitors.find((c) => c.domain === 'rival.com')!.similarTo).toEqual(['seed-a.com']);
    expect(closer.matchScore).toBeGreaterThan(competitors.find((c) => c.domain === 'rival.com')!.matchScore);
  });

  it('never returns a seed or a seed\'s subsidiary, and one seed ranks as its search does', async () => {
    const domains = (await lookalikes(['seed-a.com', 'seed-b.com'])).competitors.map((c) => c.domain);
    for (const never of ['seed-a.com', 'seed-b.com', 'child.com']) expect(domains).not.toContain(never);
    const one = (await lookalikes(['seed-c.com'])).competitors;
    const search = (await engine.research({ domain: 'seed-c.com', limit: 100, signal: new AbortController().signal })).competitors;
    expect(one.map((c) => [c.domain, c.matchScore])).toEqual(search.map((c) => [c.domain, c.matchScore]));
    expect(one.every((c) => c.similarTo?.join() === 'seed-c.com')).toBe(true);
  });

  it('derives ownership: listed from an index list (exchange, ticker), subsidiary from a parent, else private', async () => {
    const { competitors } = await lookalikes(['seed-a.com', 'seed-b.com', 'seed-c.com']);
    const firmographics = Object.fromEntries(competitors.map((c) => [c.domain, c.firmographics]));
    expect(firmographics['closer.com']).toEqual({ founded: 2010, size: '51-200', hq: 'US', ownership: 'public', exchange: 'Demo Exchange', ticker: 'CLSR' });
    expect(firmographics['owned.com']).toMatchObject({ ownership: 'subsidiary', exchange: null, ticker: null });
    expect(firmographics['young.com']).toMatchObject({ ownership: 'private', founded: 2019 });
  });

  it('screens by size, founding year and ownership, keeping a subset of the unfiltered ranking', async () => {
    const seeds = ['seed-a.com', 'seed-b.com', 'seed-c.com'];
    const all = (await lookalikes(seeds)).competitors.map((c) => c.domain);
    const screened = async (filters: SearchFilters) => (await lookalikes(seeds, filters)).competitors.map((c) => c.domain);
    expect(await screened({ foundedFrom: 2015 })).toEqual(['young.com']);
    expect(await screened({ foundedTo: 2015, ownership: ['public', 'subsidiary'] })).toEqual(all.filter((d) => ['closer.com', 'owned.com'].includes(d)));
    expect(await screened({ ownership: ['private'] })).toEqual(all.filter((d) => ['young.com', 'rival.com'].includes(d)));
    expect(await screened({ sizes: ['10001+'] })).toEqual([]);
  });
});
