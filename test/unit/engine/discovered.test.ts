// The discovered layer in the engine: what a homepage read leaves behind (public facts only), how later searches draw
// on it (same rules, thinner evidence), learned relations both ways, and its bounded cost.
import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter, type HomepageProfile } from '@rivals/core';
import { KnowledgeBaseEngine, type CandidateSource } from '@rivals/engine';
import { MemoryDiscoveredStore } from '../../discovered-fake.js';
import { fixtureIndex } from '../../kb-fixture.js';

const signal = () => new AbortController().signal;
const index = fixtureIndex();

export const page = (domain: string, title: string, description: string, extra: Partial<HomepageProfile> = {}): HomepageProfile => ({
  domain, url: `https://${domain}/`, title, description, headings: [], organizationName: null, keywords: [], fetchedAt: '2026-11-20T00:00:00.000Z', ...extra,
});

const web: Record<string, HomepageProfile> = {
  'pipeflow.io': page('pipeflow.io', 'Pipeflow | CRM and sales pipeline for small teams', 'Pipeflow tracks deals, contacts and the sales pipeline of small teams.', {
    organizationName: 'Pipeflow GmbH', country: 'DE', headings: ['Deals and contacts in one place'],
  }),
  'dealroomcrm.io': page('dealroomcrm.io', 'DealRoom CRM: contacts, deals and sales pipeline', 'A simple CRM for contacts, deals and the sales pipeline of small teams.'),
  'mailwave.io': page('mailwave.io', 'Mailwave: email campaigns and marketing automation', 'Email campaigns, landing pages and lead nurturing for shops.'),
};

function engineWith(store = new MemoryDiscoveredStore(), extra: ConstructorParameters<typeof KnowledgeBaseEngine>[0] = {}) {
  const reads: string[] = [];
  const engine = new KnowledgeBaseEngine({
    index,
    homepage: { read: async (d) => (reads.push(d), web[d] ?? null) },
    discovered: store,
    ...extra,
  });
  return { engine, store, reads };
}

describe('discovered companies (learning from homepages read)', () => {
  it('keeps a homepage read for a search as a discovered company: public facts, how it was found, never who asked', async () => {
    const { engine, store } = engineWith();
    await engine.research({ domain: 'pipeflow.io', limit: 10, signal: signal(), accountId: 'acct_SECRET', via: 'bulk' });

    const kept = await store.get('pipeflow.io');
    expect(kept).toMatchObject({
      domain: 'pipeflow.io',
      name: 'Pipeflow GmbH',
      description: 'Pipeflow tracks deals, contacts and the sales pipeline of small teams.',
      language: 'en', // judged from the page's text
      country: 'DE',
      url: 'https://pipeflow.io/',
      fetchedAt: '2026-11-20T00:00:00.000Z',
      via: 'bulk',
    });
    expect(kept!.categories[0]).toEqual({ id: 'crm', weight: 1 });
    expect(kept!.categories.length).toBeLessThanOrEqual(3);
    expect(kept!.terms).toEqual(expect.arrayContaining(['crm', 'pipelin', 'deal']));
    expect(JSON.stringify([...store.companies.values()])).not.toContain('acct_SECRET');
  });

  it('names a company from the title when the page has no organisation, and does not learn a known domain', async () => {
    const { engine, store } = engineWith();
    await engine.research({ domain: 'dealroomcrm.io', limit: 10, signal: signal() });
    await engine.research({ domain: 'hubspot.com', limit: 10, signal: signal() });
    expect((await store.get('dealroomcrm.io'))?.name).toBe('DealRoom CRM');
    expect(await store.get('hubspot.com')).toBeNull();
  });

  it('keeps a proposal a provider made and the service verified (via provider), and the relation both ways', async () => {
    const provider: CandidateSource = { name: 'llm:test', propose: async () => [{ name: 'Pipeflow', domain: 'pipeflow.io' }, { name: 'Zoho', domain: 'zoho.com' }] };
    const { engine, store } = engineWith(new MemoryDiscoveredStore(), { providers: [provider] });
    await engine.research({ domain: 'attio.com', limit: 20, signal: signal() });
    expect((await store.get('pipeflow.io'))?.via).toBe('provider');
    expect(await store.edgesOf('attio.com', 10)).toEqual([
      expect.objectContaining({ other: 'zoho.com', direction: 'out', votes: 1 }),
      expect.objectContaining({ other: 'pipeflow.io', direction: 'out', votes: 1 }),
    ]);
    expect(await store.edgesOf('pipeflow.io', 10)).toEqual([expect.objectContaining({ other: 'attio.com', direction: 'in' })]);
  });
});

describe('searches draw on discovered companies', () => {
  it('makes two small rivals of one niche each other\'s candidates, with source "discovered", the profile date and thinner confidence', async () => {
    const { engine } = engineWith();
    const cold = await engine.research({ domain: 'dealroomcrm.io', limit: 25, signal: signal() });
    expect(cold.competitors.map((c) => c.domain)).not.toContain('pipeflow.io');
    await engine.research({ domain: 'pipeflow.io', limit: 25, signal: signal() });

    const { competitors } = await engine.research({ domain: 'dealroomcrm.io', limit: 25, signal: signal() });
    const peer = competitors.find((c) => c.domain === 'pipeflow.io');
    expect(peer).toMatchObject({ company: 'Pipeflow GmbH', type: 'Direct', evidence: { source: 'discovered', fetchedAt: '2026-11-20T00:00:00.000Z', sharedCategories: expect.arrayContaining(['crm']) } });
    expect(peer!.evidence.signals.some((s) => s.startsWith('Learned from its own homepage'))).toBe(true);
    expect(peer!.confidence).toBeLessThanOrEqual(80);
    const kbRow = competitors.find((c) => c.evidence.source === 'homepage' && c.matchScore <= peer!.matchScore + 5);
    if (kbRow) expect(peer!.confidence).toBeLessThan(kbRow.confidence + 1);
    expect(competitors.map((c) => c.domain)).not.toContain('dealroomcrm.io');
    // Scores never rise down the list, discovered rows included.
    const raws = competitors.map((c) => c.matchScore);
    expect([...raws].sort((a, b) => b - a)).toEqual(raws);
  });

  it('offers discovered companies to known targets too, below the curated rivals', async () => {
    const { engine } = engineWith();
    await engine.research({ domain: 'pipeflow.io', limit: 10, signal: signal() });
    const { competitors } = await engine.research({ domain: 'pipedrive.com', limit: 25, signal: signal() });
    const at = competitors.findIndex((c) => c.domain === 'pipeflow.io');
    expect(at).toBeGreaterThan(0);
    expect(competitors[at]!.evidence.source).toBe('discovered');
    expect(competitors[0]!.evidence.source).toBe('knowledge-base');
  });

  it('uses a learned relation in both directions, below curated ones, after the provider is gone', async () => {
    const store = new MemoryDiscoveredStore();
    const provider: CandidateSource = { name: 'llm:test', propose: async () => [{ name: 'Mailwave', domain: 'mailwave.io' }] };
    await engineWith(store, { providers: [provider] }).engine.research({ domain: 'attio.com', limit: 10, signal: signal() });

    const { engine } = engineWith(store); // no provider any more
    const attio = await engine.research({ domain: 'attio.com', limit: 25, signal: signal() });
    const mailwave = attio.competitors.find((c) => c.domain === 'mailwave.io');
    expect(mailwave?.evidence.signals.some((s) => s.includes('by outside research, then checked'))).toBe(true);
    const curated = attio.competitors.find((c) => c.evidence.relation === 'competes' && c.evidence.source === 'knowledge-base');
    if (curated) expect(curated.matchScore).toBeGreaterThan(mailwave!.matchScore);

    const back = await engine.research({ domain: 'mailwave.io', limit: 25, signal: signal() });
    const attioRow = back.competitors.find((c) => c.domain === 'attio.com');
    expect(attioRow?.evidence.signals.some((s) => s.includes('by outside research, then checked'))).toBe(true);
  });

  it('reads at most one Query per target category (its three heaviest), only categories that hold members, and caches them a while', async () => {
    const store = new MemoryDiscoveredStore();
    const { engine } = engineWith(store);
    await engine.research({ domain: 'hubspot.com', limit: 25, signal: signal() });
    expect(store.memberQueries).toEqual([]); // nothing discovered yet: the summary says so, no category is read
    expect(store.edgeQueries).toEqual([]);
    await engine.research({ domain: 'pipeflow.io', limit: 25, signal: signal() });
    store.memberQueries.length = 0;
    const other = engineWith(store).engine; // another process: nothing cached
    await other.research({ domain: 'hubspot.com', limit: 25, signal: signal() });
    expect(store.memberQueries).toEqual(['crm']);
    await other.research({ domain: 'slack.com', limit: 25, signal: signal() });
    expect(store.memberQueries).toEqual(['crm']); // team chat holds nothing discovered
    await other.research({ domain: 'hubspot.com', limit: 25, signal: signal() });
    expect(store.memberQueries).toEqual(['crm']); // cached a while
  });

  it('answers from the knowledge base alone when the discovered store fails', async () => {
    const store = new MemoryDiscoveredStore();
    store.membersOf = async () => {
      throw new Error('throttled');
    };
    const plain = new KnowledgeBaseEngine({ index });
    const { engine } = engineWith(store);
    expect(await engine.research({ domain: 'hubspot.com', limit: 25, signal: signal() })).toEqual(await plain.research({ domain: 'hubspot.com', limit: 25, signal: signal() }));
  });
});

describe('cap of new discovered companies per account', () => {
  it('stops learning new companies from one account past its hourly cap (bulk included), not from others', async () => {
    const store = new MemoryDiscoveredStore();
    const clock = { now: () => new Date('2026-11-20T10:00:00Z') };
    const { engine } = engineWith(store, { discoveryLimiter: new MemoryRateLimiter(clock), discoveriesPerHour: 2 });
    await engine.research({ domain: 'pipeflow.io', limit: 5, signal: signal(), accountId: 'acct_a', via: 'bulk' });
    await engine.research({ domain: 'dealroomcrm.io', limit: 5, signal: signal(), accountId: 'acct_a', via: 'bulk' });
    await engine.research({ domain: 'mailwave.io', limit: 5, signal: signal(), accountId: 'acct_a', via: 'search' });
    expect([...store.companies.keys()].sort()).toEqual(['dealroomcrm.io', 'pipeflow.io']);

    const other = engineWith(store, { discoveryLimiter: new MemoryRateLimiter(clock), discoveriesPerHour: 2 }).engine;
    await other.research({ domain: 'mailwave.io', limit: 5, signal: signal(), accountId: 'acct_b' });
    expect(store.companies.has('mailwave.io')).toBe(true);
  });
});

describe('a niche\'s consensus', () => {
  it('learns a page in the categories its close discovered peers vote for, so one niche is not scattered', async () => {
    const { loadKnowledgeBase } = await import('@rivals/kb');
    const { extractFacts } = await import('@rivals/crawler');
    const { fixtureWeb } = await import('../../fixtures/longtail/niches.js');
    const schools = fixtureWeb().filter((c) => c.niche.id === 'sprachschulen-de');
    const pages = new Map(schools.map((c) => [c.domain, { domain: c.domain, url: `http://${c.domain}/`, ...extractFacts(Buffer.from(c.html)), fetchedAt: '2026-11-20T00:00:00.000Z' }]));
    const store = new MemoryDiscoveredStore();
    const engine = new KnowledgeBaseEngine({ index: loadKnowledgeBase(), homepage: { read: async (d) => pages.get(d) ?? null }, discovered: store });
    const alone = new Set(schools.map((c) => engine.discoveredCompany(pages.get(c.domain)!, 'search')!.categories[0]!.id));
    for (const c of schools) await engine.research({ domain: c.domain, limit: 25, signal: signal() });
    const together = new Set(await Promise.all(schools.map(async (c) => (await store.get(c.domain))!.categories[0]!.id)));
    expect(together.size).toBeLessThanOrEqual(alone.size);
    if (alone.size > 1) expect(together.size).toBeLessThan(alone.size);
  }, 30_000);
});
