// Poisoning and abuse of the discovered layer, with hostile pages: category stuffing, hidden and repeated text, stolen
// identities, junk pages, a weak page pushing into a known company's top 10, and banned domains.
import { describe, expect, it } from 'vitest';
import type { DiscoveredCompany, HomepageProfile } from '@rivals/core';
import { extractFacts } from '@rivals/crawler';
import { KnowledgeBaseEngine, DISCOVERED_TOP10_SIMILARITY } from '@rivals/engine';
import { loadKnowledgeBase, tokenize } from '@rivals/kb';
import { MemoryDiscoveredStore } from '../../discovered-fake.js';
import { fixtureIndex } from '../../kb-fixture.js';

const signal = () => new AbortController().signal;
const page = (domain: string, title: string, description: string, extra: Partial<HomepageProfile> = {}): HomepageProfile => ({
  domain, url: `https://${domain}/`, title, description, headings: [], organizationName: null, keywords: [], fetchedAt: '2026-11-20T00:00:00.000Z', ...extra,
});
const fromHtml = (domain: string, html: string): HomepageProfile => ({ domain, url: `https://${domain}/`, ...extractFacts(Buffer.from(html)), fetchedAt: '2026-11-20T00:00:00.000Z' });

function learner(web: Record<string, HomepageProfile>, index = fixtureIndex()) {
  const store = new MemoryDiscoveredStore();
  const engine = new KnowledgeBaseEngine({ index, homepage: { read: async (d) => web[d] ?? null }, discovered: store });
  const learn = async (domain: string) => {
    await engine.research({ domain, limit: 25, signal: signal() });
    return store.get(domain);
  };
  return { engine, store, learn };
}

describe('poisoning the discovered layer', () => {
  it('keeps at most 3 categories of a page that claims every category', async () => {
    const { learn } = learner({
      'everything.io': page('everything.io', 'CRM, email campaigns, team chat, video meetings, software reviews and cloud devices',
        'Sales pipeline, contacts, deals, marketing automation, landing pages, channels, messaging, webinars, screen sharing, ratings, search.',
        { keywords: ['crm', 'marketing automation', 'team chat', 'video conferencing', 'reviews', 'cloud'] }),
    });
    const kept = await learn('everything.io');
    expect(kept).not.toBeNull();
    expect(kept!.categories.length).toBeLessThanOrEqual(3);
  });

  it('ignores hidden text: a bakery hiding CRM words is not placed in CRM', async () => {
    const html = `<!doctype html><html><head><title>Crumb &amp; Co bakery</title><meta name="description" content="Sourdough bread, pastries and cakes baked daily in our neighbourhood bakery."></head><body>
      <h1>Fresh bread every morning</h1>
      <div style="display:none"><h2>CRM sales pipeline contacts deals</h2><div><h2>CRM for sales teams</h2></div></div>
      <h2 hidden>Customer relationship management CRM</h2>
      <h2 aria-hidden="true">Sales pipeline CRM</h2>
      <h2 style="font-size:0">CRM deals</h2>
      <section><h2>Cakes for every occasion</h2></section></body></html>`;
    const facts = fromHtml('crumb.io', html);
    expect(facts.headings).toEqual(['Fresh bread every morning', 'Cakes for every occasion']);
    const { learn } = learner({ 'crumb.io': facts });
    const kept = await learn('crumb.io');
    expect(kept?.categories.map((c) => c.id) ?? []).not.toContain('crm');
    expect(kept?.terms ?? []).not.toContain('crm');
  });

  it('counts a repeated term once: keyword stuffing gives the same categories and terms as saying it once', async () => {
    const once = page('plain.io', 'Plain: CRM for small teams', 'Track deals and contacts in a sales pipeline.');
    const stuffed = page('stuffed.io', 'Stuffed: CRM CRM CRM CRM CRM CRM CRM CRM for small teams', 'Track deals deals deals and contacts contacts in a sales pipeline pipeline pipeline.', {
      keywords: ['crm', 'crm crm', 'deals deals'],
    });
    const { learn } = learner({ 'plain.io': once, 'stuffed.io': stuffed });
    const a = await learn('plain.io');
    const b = await learn('stuffed.io');
    expect(b!.categories).toEqual(a!.categories);
    const without = (terms: string[], name: string) => new Set(terms.filter((t) => t !== name));
    expect(without(b!.terms, 'stuf')).toEqual(without(a!.terms, 'plain'));
    expect(b!.terms.filter((t) => t === 'crm')).toHaveLength(1);
  });

  it('does not let a page take a known company\'s identity', async () => {
    const { learn } = learner({
      'hubspot-deals.io': page('hubspot-deals.io', 'HubSpot | CRM', 'The CRM platform for growing businesses.', { organizationName: 'HubSpot' }),
      'force-crm.io': page('force-crm.io', 'Salesforce - CRM', 'Enterprise CRM for sales teams.'),
      'hubspot-partner.io': page('hubspot-partner.io', 'Inbound Crew: HubSpot partner agency', 'We set up HubSpot CRM and sales pipelines for small teams.'),
    });
    expect(await learn('hubspot-deals.io')).toBeNull();
    expect(await learn('force-crm.io')).toBeNull();
    // Naming a known company is fine; claiming to be one is not.
    expect((await learn('hubspot-partner.io'))?.name).toBe('Inbound Crew');
  });

  it.each([
    ['for sale', page('forsale.io', 'forsale.io is for sale', 'Buy this domain today. Make an offer.')],
    ['parked', page('parked.io', 'parked.io', 'This domain is parked free, courtesy of a registrar. Related searches: CRM software, sales pipeline')],
    ['placeholder', page('nginx.io', 'Welcome to nginx!', 'If you see this page, the nginx web server is successfully installed.')],
    ['coming soon', page('soon.io', 'Coming soon: the CRM for small teams', 'Our sales pipeline CRM is launching soon.')],
    ['coming soon (German)', page('bald.io', 'Pipelino – demnächst', 'Unser CRM für kleine Teams ist in Kürze verfügbar.')],
    ['login only', page('login.io', 'Sign in', '', { headings: ['Sign in to your CRM account'] })],
    ['error page', page('broken.io', '404 Not Found', 'CRM sales pipeline')],
    ['suspended', page('gone.io', 'Account Suspended', 'This account has been suspended.')],
  ])('never stores a %s page', async (_, junk) => {
    const { learn, store } = learner({ [junk.domain]: junk });
    expect(await learn(junk.domain)).toBeNull();
    expect(store.companies.size).toBe(0);
  });

  it('lets a discovered company into a known company\'s top 10 only from its primary category with strong text similarity', async () => {
    const index = loadKnowledgeBase();
    const store = new MemoryDiscoveredStore();
    const engine = new KnowledgeBaseEngine({ index, discovered: store });
    // A known target whose tenth rival scores low, so that a discovered company could otherwise pass it.
    const domains = [...new Set(index.entities.filter((e) => !e.product && !e.defunct).map((e) => e.domain))];
    let target: string | undefined;
    for (const d of domains) {
      const { competitors } = await engine.research({ domain: d, limit: 25, signal: signal() });
      if (competitors.length >= 15 && competitors[9]!.matchScore <= 35 && competitors[0]!.matchScore >= 60) {
        target = d;
        break;
      }
    }
    expect(target).toBeDefined();
    const entity = index.entities.find((e) => e.domain === target)!;
    const primary = index.categories[entity.categories[0]!]!.id;
    const other = entity.categories[1] ?? index.categories[entity.categories[0]!]!.related[0] ?? (entity.categories[0]! + 1) % index.categories.length;
    const secondary = index.categories[other]!.id;
    const own = [...new Set(tokenize(`${entity.description} ${entity.keywords.join(' ')} ${entity.keywords.join(' ')}`))];
    const company = (domain: string, categories: DiscoveredCompany['categories'], terms: string[]): DiscoveredCompany => ({
      domain, name: domain, description: '', language: 'en', categories, terms, country: null, url: `https://${domain}/`, fetchedAt: '2026-11-20T00:00:00.000Z', via: 'search',
    });
    // A page stuffed into the target's primary category with little in common: it must wait below the tenth row.
    await store.save(company('weak-peer.io', [{ id: primary, weight: 1 }], ['casino', 'bonus', 'poker', 'slots', own[0]!]));
    // A page placed in a secondary category only: likewise.
    await store.save(company('side-peer.io', [{ id: secondary, weight: 1 }, { id: primary, weight: 0.9 }], own));
    await store.saveRelation({ from: target!, to: 'weak-peer.io', source: 'provider', votes: 2, verifiedAt: '2026-11-20T00:00:00.000Z' });
    await store.saveRelation({ from: target!, to: 'side-peer.io', source: 'provider', votes: 2, verifiedAt: '2026-11-20T00:00:00.000Z' });
    // A close peer: same primary category and the target's own words.
    await store.save(company('close-peer.io', [{ id: primary, weight: 1 }], own));
    await store.saveRelation({ from: target!, to: 'close-peer.io', source: 'provider', votes: 2, verifiedAt: '2026-11-20T00:00:00.000Z' });

    const fresh = new KnowledgeBaseEngine({ index, discovered: store });
    const { competitors } = await fresh.research({ domain: target!, limit: 50, signal: signal() });
    const rank = (d: string) => competitors.findIndex((c) => c.domain === d);
    const tenth = competitors[9]!;
    for (const held of ['weak-peer.io', 'side-peer.io']) {
      expect(rank(held), held).toBeGreaterThanOrEqual(10);
    }
    // They were held back, not merely scored low: each scores above the row now tenth.
    expect(competitors[rank('weak-peer.io')]!.matchScore).toBeGreaterThan(tenth.matchScore);
    expect(rank('close-peer.io')).toBeGreaterThanOrEqual(0);
    expect(rank('close-peer.io')).toBeLessThan(10);
    expect(DISCOVERED_TOP10_SIMILARITY).toBeGreaterThan(0.2);
  }, 60_000);

  it('never returns a banned domain, even from a category this process still caches', async () => {
    const { engine, store, learn } = learner({
      'spamcrm.io': page('spamcrm.io', 'SpamCRM: CRM and sales pipeline', 'Deals, contacts and the sales pipeline for small teams.'),
      'target.io': page('target.io', 'Target: CRM for small teams', 'Contacts, deals and a sales pipeline.'),
    });
    await learn('spamcrm.io');
    expect((await engine.research({ domain: 'target.io', limit: 25, signal: signal() })).competitors.map((c) => c.domain)).toContain('spamcrm.io');
    // Banned by an operator elsewhere: the ban list is read at once; the members this process cached are not.
    store.banned.set('spamcrm.io', { domain: 'spamcrm.io', reason: 'spam', bannedAt: '2026-11-21T00:00:00.000Z' });
    expect((await engine.research({ domain: 'target.io', limit: 25, signal: signal() })).competitors.map((c) => c.domain)).not.toContain('spamcrm.io');
    // And a banned domain read again is not learned again.
    expect(await store.save({ ...(await store.get('spamcrm.io'))! })).toBe('banned');
  });
});
