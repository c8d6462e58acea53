// Fresh and clean: a discovered profile older than 30 days is read again when a search meets it; a site that now
// fails or parks leaves the results and the layer, one that lands on a known company becomes its alias.
import { describe, expect, it } from 'vitest';
import type { HomepageProfile } from '@rivals/core';
import { KnowledgeBaseEngine } from '@rivals/engine';
import { MemoryDiscoveredStore } from '../../discovered-fake.js';
import { fixtureIndex } from '../../kb-fixture.js';

const signal = () => new AbortController().signal;
const page = (domain: string, title: string, description: string, extra: Partial<HomepageProfile> = {}): HomepageProfile => ({
  domain, url: `https://${domain}/`, title, description, headings: [], organizationName: null, keywords: [], fetchedAt: '2026-10-01T00:00:00.000Z', ...extra,
});
const index = fixtureIndex();

async function seen(now: string, later: HomepageProfile | null) {
  const web: Record<string, HomepageProfile | null> = {
    'oldcrm.io': page('oldcrm.io', 'OldCRM: CRM and sales pipeline', 'Deals, contacts and a sales pipeline for small teams.'),
    'target.io': page('target.io', 'Target: CRM for small teams', 'Contacts, deals and the sales pipeline.'),
  };
  const reads: string[] = [];
  const store = new MemoryDiscoveredStore();
  const engine = new KnowledgeBaseEngine({ index, homepage: { read: async (d) => (reads.push(d), web[d] ?? null) }, discovered: store, clock: { now: () => new Date(now) } });
  await engine.research({ domain: 'oldcrm.io', limit: 25, signal: signal() });
  web['oldcrm.io'] = later;
  reads.length = 0;
  const { competitors } = await engine.research({ domain: 'target.io', limit: 25, signal: signal() });
  return { store, reads, domains: competitors.map((c) => c.domain) };
}

describe('fresh and clean discovered companies', () => {
  it('does not read a profile younger than 30 days again', async () => {
    const { reads, domains } = await seen('2026-10-20T00:00:00Z', null);
    expect(reads).toEqual(['target.io']);
    expect(domains).toContain('oldcrm.io');
  });

  it('reads an older profile again and keeps the company when the site still reads well', async () => {
    const { reads, domains, store } = await seen('2026-11-20T00:00:00Z', page('oldcrm.io', 'OldCRM: CRM and sales pipeline', 'Deals and contacts.', { fetchedAt: '2026-11-20T00:00:00.000Z' }));
    expect(reads).toContain('oldcrm.io');
    expect(domains).toContain('oldcrm.io');
    expect((await store.get('oldcrm.io'))?.fetchedAt).toBe('2026-11-20T00:00:00.000Z');
  });

  it('drops a company whose site now fails', async () => {
    const { domains, store } = await seen('2026-11-20T00:00:00Z', null);
    expect(domains).not.toContain('oldcrm.io');
    expect(await store.get('oldcrm.io')).toBeNull();
  });

  it('drops a company whose site is now parked', async () => {
    const { domains, store } = await seen('2026-11-20T00:00:00Z', page('oldcrm.io', 'oldcrm.io is for sale', 'Buy this domain. Make an offer.'));
    expect(domains).not.toContain('oldcrm.io');
    expect(await store.get('oldcrm.io')).toBeNull();
  });

  it('makes a company whose site now lands on a known company that company\'s alias', async () => {
    const { domains, store } = await seen('2026-11-20T00:00:00Z', page('oldcrm.io', 'Pipedrive | Sales CRM', 'The CRM for small sales teams.', { url: 'https://www.pipedrive.com/en' }));
    expect(domains).not.toContain('oldcrm.io');
    expect((await store.get('oldcrm.io'))?.aliasOf).toBe('pipedrive.com');
    expect(await store.membersOf('crm', 10)).not.toContainEqual(expect.objectContaining({ domain: 'oldcrm.io' }));
  });
});
