// History on DynamoDB Local: one Query on the account's partition, newest first, paged by opaque cursors that only
// the caller's partition accepts, filtered by source and status, never returning competitors.
import { beforeEach, describe, expect, it } from 'vitest';
import { HistoryItem, type HistoryPage } from '@rivals/contracts';
import type { HistoryFilter } from '@rivals/core';
import { encodeKeyCursor } from '@rivals/db';
import { competitor, ScriptedEngine } from '../fakes.js';
import { freshTable, servicesOn, type TestTable } from '../setup/table.js';

let table: TestTable;
beforeEach(async () => {
  table = await freshTable();
});

/** An engine that finds 3 competitors, except for domains starting with "none", where it finds nothing. */
const engine = new ScriptedEngine((domain) => ({
  targetSource: 'knowledge-base',
  competitors: domain.startsWith('none') ? [] : [competitor(1), competitor(2), competitor(3)],
}));

const everyPage = async (read: (cursor?: string) => Promise<HistoryPage>) => {
  const pages: HistoryPage[] = [];
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    pages.push(page);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && pages.length < 50);
  return pages;
};

describe('GET /api/history (service and adapter)', () => {
  it('pages through every search, newest first, across several pages, without duplicates or competitors', async () => {
    // Prepare: 7 searches, 2 of which fail (refunded), 2 from a bulk job
    const s = servicesOn(table, engine);
    const account = await s.accounts.open('Acme', 20);
    const made: string[] = [];
    for (const [i, domain] of ['a1.com', 'none1.com', 'a2.com', 'a3.com', 'none2.com', 'b1.com', 'b2.com'].entries()) {
      const origin = domain.startsWith('b') ? { source: 'bulk' as const, jobId: 'job_01' } : { source: 'api' as const };
      const id = await s.search
        .search(account.id, { domain, limit: 10 }, origin)
        .then((a) => a.searchId)
        .catch(async () => (await s.queries.history(account.id, { limit: 1 })).items[0]!.id);
      made.push(id);
      expect(i + 1).toBe(made.length);
    }
    // Act
    const pages = await everyPage((cursor) => s.queries.history(account.id, { limit: 3, ...(cursor ? { cursor } : {}) }));
    // Assess
    expect(pages.map((p) => p.items.length)).toEqual([3, 3, 1]);
    expect(pages.at(-1)!.nextCursor).toBeNull();
    const items = pages.flatMap((p) => p.items);
    expect(items.map((i) => i.id)).toEqual([...made].reverse());
    for (const item of items) expect(() => HistoryItem.parse(item)).not.toThrow();
    expect(items[0]).toEqual({ id: made[6], domain: 'b2.com', status: 'succeeded', createdAt: expect.any(String), totalCompetitors: 3, likelyCompetitors: 1, source: 'bulk', jobId: 'job_01' });
    expect(items.find((i) => i.domain === 'none1.com')).toMatchObject({ status: 'failed', totalCompetitors: 0, source: 'api' });
    expect(items.find((i) => i.domain === 'a1.com')).not.toHaveProperty('jobId');
  });

  it('says there is no next page when the last page is exactly full', async () => {
    const s = servicesOn(table, engine);
    const account = await s.accounts.open('Acme', 5);
    for (const domain of ['a1.com', 'a2.com', 'a3.com', 'a4.com']) await s.search.search(account.id, { domain, limit: 10 });
    const first = await s.queries.history(account.id, { limit: 2 });
    const second = await s.queries.history(account.id, { limit: 2, cursor: first.nextCursor! });
    expect(second.items.map((i) => i.domain)).toEqual(['a2.com', 'a1.com']);
    expect(second.nextCursor).toBeNull();
  });

  it.each<[string, HistoryFilter, string[]]>([
    ['status=failed', { status: 'failed' }, ['none3.com', 'none2.com', 'none1.com']],
    ['source=bulk', { source: 'bulk' }, ['b2.com', 'b1.com']],
    ['source=api and status=succeeded', { source: 'api', status: 'succeeded' }, ['a2.com', 'a1.com']],
  ])('filters by %s, paging through the matches', async (_, filter, expected) => {
    const s = servicesOn(table, engine);
    const account = await s.accounts.open('Acme', 20);
    for (const domain of ['a1.com', 'none1.com', 'b1.com', 'none2.com', 'a2.com', 'b2.com', 'none3.com']) {
      const origin = domain.startsWith('b') ? { source: 'bulk' as const, jobId: 'job_01' } : { source: 'api' as const };
      await s.search.search(account.id, { domain, limit: 10 }, origin).catch(() => undefined);
    }
    const pages = await everyPage((cursor) => s.queries.history(account.id, { limit: 1, ...filter, ...(cursor ? { cursor } : {}) }));
    expect(pages.flatMap((p) => p.items).map((i) => i.domain)).toEqual(expected);
  });

  it('refuses a malformed cursor and a cursor of another account with 400 invalid_request', async () => {
    const s = servicesOn(table, engine);
    const mine = await s.accounts.open('Mine', 5);
    const theirs = await s.accounts.open('Theirs', 5);
    for (const domain of ['a1.com', 'a2.com']) await s.search.search(theirs.id, { domain, limit: 10 });
    const theirCursor = (await s.queries.history(theirs.id, { limit: 1 })).nextCursor!;
    for (const cursor of ['not-a-cursor', theirCursor, encodeKeyCursor({ pk: `ACCOUNT#${mine.id}`, sk: 'LEDGER#x' }), encodeKeyCursor({ pk: `ACCOUNT#${mine.id}` })]) {
      await expect(s.queries.history(mine.id, { limit: 10, cursor })).rejects.toMatchObject({ code: 'invalid_request' });
    }
  });
});
