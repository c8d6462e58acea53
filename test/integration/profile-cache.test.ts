// Homepage profile cache on DynamoDB Local: a profile is kept with a TTL, and an expired one is a miss.
import { beforeEach, describe, expect, it } from 'vitest';
import type { HomepageProfile } from '@rivals/core';
import { DynamoProfileCache } from '@rivals/db';
import { freshTable, type TestTable } from '../setup/table.js';

let table: TestTable;
beforeEach(async () => {
  table = await freshTable();
});

const profile: HomepageProfile = {
  domain: 'acme.io',
  url: 'https://acme.io/',
  title: 'Acme: a CRM for small teams',
  description: 'Track deals and contacts.',
  headings: ['Sales pipeline'],
  organizationName: 'Acme',
  keywords: ['crm'],
  fetchedAt: '2026-11-01T00:00:00.000Z',
  language: 'en',
};

describe('profile cache', () => {
  it('returns a stored profile, and nothing for a domain never stored', async () => {
    const cache = new DynamoProfileCache(table);
    await cache.put(profile);
    expect(await cache.get('acme.io')).toEqual(profile);
    expect(await cache.get('other.io')).toBeNull();
  });

  it('keeps a profile\'s unknown language as null', async () => {
    const cache = new DynamoProfileCache(table);
    await cache.put({ ...profile, domain: 'inconnu.io', language: null });
    expect((await cache.get('inconnu.io'))?.language).toBeNull();
  });

  it('treats an expired profile as a miss before DynamoDB deletes it', async () => {
    const cache = new DynamoProfileCache(table, -60);
    await cache.put(profile);
    expect(await cache.get('acme.io')).toBeNull();
  });
});
