// The discovered layer on DynamoDB Local: companies with their category memberships, learned relations at both ends,
// bans that refuse saves and remove what was there, and the operator's list across its shards.
import { beforeEach, describe, expect, it } from 'vitest';
import type { DiscoveredCompany } from '@rivals/core';
import { DynamoDiscoveredStore } from '@rivals/db';
import { freshTable, type TestTable } from '../setup/table.js';

let table: TestTable;
let store: DynamoDiscoveredStore;
beforeEach(async () => {
  table = await freshTable();
  store = new DynamoDiscoveredStore(table);
});

const company = (domain: string, categories: [string, number][], extra: Partial<DiscoveredCompany> = {}): DiscoveredCompany => ({
  domain,
  name: domain.split('.')[0]!,
  description: `${domain} sells things.`,
  language: 'en',
  categories: categories.map(([id, weight]) => ({ id, weight })),
  terms: ['pipelin', 'crm'],
  country: null,
  url: `https://${domain}/`,
  fetchedAt: '2026-11-01T00:00:00.000Z',
  via: 'search',
  ...extra,
});

describe('discovered store', () => {
  it('keeps a company and reads its category members, primary members first, with the projected attributes only', async () => {
    await store.save(company('b-crm.io', [['crm', 0.7]]));
    await store.save(company('a-crm.io', [['crm', 1], ['marketing-automation', 0.8]], { country: 'DE', language: 'de' }));
    await store.save(company('chat.io', [['team-chat', 1]]));

    const members = await store.membersOf('crm', 10);
    expect(members.map((m) => m.domain)).toEqual(['a-crm.io', 'b-crm.io']);
    expect(members[0]).toEqual({
      domain: 'a-crm.io', name: 'a-crm', categories: [{ id: 'crm', weight: 1 }, { id: 'marketing-automation', weight: 0.8 }], terms: ['pipelin', 'crm'],
      fetchedAt: '2026-11-01T00:00:00.000Z', language: 'de', country: 'DE',
    });
    expect(await store.membersOf('crm', 1)).toHaveLength(1); // the per-category cap is the Query's Limit
    expect((await store.get('a-crm.io'))?.via).toBe('search');
  });

  it('moves memberships when a company is saved again with other categories, and removes them with it', async () => {
    await store.save(company('a-crm.io', [['crm', 1]]));
    await store.save(company('a-crm.io', [['marketing-automation', 1]]));
    expect(await store.membersOf('crm', 10)).toEqual([]);
    expect((await store.membersOf('marketing-automation', 10)).map((m) => m.domain)).toEqual(['a-crm.io']);

    await store.save({ ...company('a-crm.io', [['marketing-automation', 1]]), aliasOf: 'hubspot.com' });
    expect(await store.membersOf('marketing-automation', 10)).toEqual([]); // an alias is never a candidate
    await store.remove('a-crm.io');
    expect(await store.get('a-crm.io')).toBeNull();
  });

  it('refuses a banned domain, removes it when banned, and takes it back once unbanned', async () => {
    await store.save(company('spam.io', [['crm', 1]]));
    await store.ban({ domain: 'spam.io', reason: 'keyword stuffing', bannedAt: '2026-11-02T00:00:00.000Z' });
    expect(await store.get('spam.io')).toBeNull();
    expect(await store.membersOf('crm', 10)).toEqual([]);
    expect(await store.save(company('spam.io', [['crm', 1]]))).toBe('banned');
    expect(await store.isBanned('spam.io')).toBe(true);
    expect([...(await store.bannedAmong(['spam.io', 'fine.io']))]).toEqual(['spam.io']);
    expect((await store.bans()).map((b) => b.domain)).toEqual(['spam.io']);
    expect(await store.unban('spam.io')).toBe(true);
    expect(await store.unban('spam.io')).toBe(false);
    expect(await store.save(company('spam.io', [['crm', 1]]))).toBe('saved');
  });

  it('keeps a learned relation at both ends', async () => {
    await store.saveRelation({ from: 'a.io', to: 'b.io', source: 'provider', votes: 2, verifiedAt: '2026-11-03T00:00:00.000Z' });
    expect(await store.edgesOf('a.io', 10)).toEqual([{ other: 'b.io', direction: 'out', votes: 2, verifiedAt: '2026-11-03T00:00:00.000Z' }]);
    expect(await store.edgesOf('b.io', 10)).toEqual([{ other: 'a.io', direction: 'in', votes: 2, verifiedAt: '2026-11-03T00:00:00.000Z' }]);
  });

  it('keeps a summary of the categories holding members and the domains with learned relations, shared by processes', async () => {
    expect(await store.summary()).toEqual({ categories: new Set(), related: new Set() });
    await store.save(company('a-crm.io', [['crm', 1], ['marketing-automation', 0.8]]));
    await new DynamoDiscoveredStore(table).save(company('chat.io', [['team-chat', 1]]));
    await store.saveRelation({ from: 'a.io', to: 'b.io', source: 'provider', votes: 1, verifiedAt: '2026-11-03T00:00:00.000Z' });
    expect(await new DynamoDiscoveredStore(table).summary()).toEqual({ categories: new Set(['crm', 'marketing-automation', 'team-chat']), related: new Set(['a.io', 'b.io']) });
  });

  it('lists every company by domain across the shards, page by page', async () => {
    const domains = Array.from({ length: 23 }, (_, n) => `co${String(n).padStart(2, '0')}.io`);
    for (const d of domains) await store.save(company(d, [['crm', 1]]));
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await store.list({ limit: 10, cursor });
      seen.push(...page.items.map((c) => c.domain));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(domains);
  });
});
