// The watchlist on DynamoDB Local: one row per registrable domain, saving again answers the row unchanged, newest
// first in pages, idempotent removal, a cap that holds, and searchId checked against the caller's own searches.
import { beforeEach, describe, expect, it } from 'vitest';
import { systemClock, WatchlistService } from '@rivals/core';
import { DynamoProfileCache, DynamoSavedCompanyStore } from '@rivals/db';
import { companyNameLookup } from '../../functions/shared/company-names.js';
import { engineReturning } from '../fakes.js';
import { freshTable, servicesOn, type TestTable } from '../setup/table.js';

let table: TestTable;
beforeEach(async () => {
  table = await freshTable();
});

describe('watchlist (service and adapter)', () => {
  it('saves a normalised domain once; saving it again updates the note it is given, and keeps the rest', async () => {
    const s = servicesOn(table, engineReturning(2));
    const account = await s.accounts.open('Acme', 5);
    const { searchId } = await s.search.search(account.id, { domain: 'acme.com', limit: 10 });
    const first = await s.watchlist().save(account.id, { domain: 'https://www.Rival1.com/about', company: 'Rival 1', note: 'watch pricing', searchId });
    const again = await s.watchlist().save(account.id, { domain: 'rival1.com', note: 'other note' });
    expect(first).toEqual({ created: true, row: { domain: 'rival1.com', company: 'Rival 1', note: 'watch pricing', searchId, savedAt: expect.any(String), lastCheckedAt: null, unseenChanges: 0 } });
    expect(again).toEqual({ created: false, row: { ...first.row, note: 'other note' } });
    // Saving again with nothing new changes nothing.
    expect(await s.watchlist().save(account.id, { domain: 'rival1.com' })).toEqual(again);
    expect((await s.watchlist().list(account.id, { limit: 10 })).items).toEqual([again.row]);
  });

  it('edits a note or a name (PATCH), clears one with null, and answers 404 for a domain not saved', async () => {
    const s = servicesOn(table, engineReturning(1));
    const account = await s.accounts.open('Acme', 1);
    const { row } = await s.watchlist().save(account.id, { domain: 'rival1.com', note: 'first' });
    expect(await s.watchlist().update(account.id, 'https://rival1.com/', { note: 'second', company: 'Rival One' })).toEqual({ ...row, note: 'second', company: 'Rival One' });
    expect(await s.watchlist().update(account.id, 'rival1.com', { note: null })).toEqual({ ...row, note: null, company: 'Rival One' });
    await expect(s.watchlist().update(account.id, 'never-saved.com', { note: 'x' })).rejects.toMatchObject({ code: 'not_found' });
    expect((await s.watchlist().list(account.id, { limit: 10 })).items).toEqual([{ ...row, note: null, company: 'Rival One' }]);
  });

  it('names a company saved without one: from the search it came from, the account\'s rows, the knowledge base, or its homepage', async () => {
    const s = servicesOn(table, engineReturning(2));
    const account = await s.accounts.open('Acme', 5);
    const { searchId } = await s.search.search(account.id, { domain: 'acme.com', limit: 10 });
    const watchlist = new WatchlistService({ saved: new DynamoSavedCompanyStore(table), searches: s.searches, clock: systemClock, names: companyNameLookup(table) });
    await new DynamoProfileCache(table).put({ domain: 'tiny-startup.com', url: 'https://tiny-startup.com/', title: 'Tiny Startup – widgets for teams', description: '', headings: [], organizationName: null, keywords: [], fetchedAt: new Date().toISOString() });
    expect((await watchlist.save(account.id, { domain: 'rival1.com', searchId })).row.company).toBe('Rival 1');
    await s.myCompanies.list(account.id);
    expect((await watchlist.save(account.id, { domain: 'rival2.com' })).row.company).toBe('Rival 2');
    expect((await watchlist.save(account.id, { domain: 'https://linear.app/' })).row.company).toBe('Linear');
    expect((await watchlist.save(account.id, { domain: 'tiny-startup.com' })).row.company).toBe('Tiny Startup');
    expect((await watchlist.save(account.id, { domain: 'unheard-of-company.com' })).row.company).toBeNull();
  });

  it('lists newest first across pages, and removes idempotently', async () => {
    const s = servicesOn(table, engineReturning(1));
    const account = await s.accounts.open('Acme', 1);
    const domains = ['a.com', 'b.com', 'c.com', 'd.com', 'e.com'];
    for (const domain of domains) {
      await s.watchlist().save(account.id, { domain });
      await new Promise((r) => setTimeout(r, 2)); // distinct savedAt
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await s.watchlist().list(account.id, { limit: 2, ...(cursor ? { cursor } : {}) });
      seen.push(...page.items.map((i) => i.domain));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...domains].reverse());
    await s.watchlist().remove(account.id, 'c.com');
    await s.watchlist().remove(account.id, 'c.com');
    await s.watchlist().remove(account.id, 'never-saved.com');
    expect((await s.watchlist().list(account.id, { limit: 50 })).items.map((i) => i.domain)).toEqual(['e.com', 'd.com', 'b.com', 'a.com']);
  });

  it('holds the cap under concurrent saves (409 conflict), and frees a place on removal', async () => {
    const s = servicesOn(table, engineReturning(1));
    const account = await s.accounts.open('Acme', 1);
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => s.watchlist(3).save(account.id, { domain: `c${i}.com` })));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
    expect(outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason.code)).toEqual(['conflict', 'conflict', 'conflict']);
    const [kept] = (await s.watchlist(3).list(account.id, { limit: 10 })).items;
    expect(await s.watchlist(3).save(account.id, { domain: kept!.domain })).toMatchObject({ created: false }); // saved before: 200, not 409
    await s.watchlist(3).remove(account.id, kept!.domain);
    await expect(s.watchlist(3).save(account.id, { domain: 'new.com' })).resolves.toMatchObject({ created: true });
  });

  it('refuses an invalid domain (400) and another account\'s searchId (404), saving nothing', async () => {
    const s = servicesOn(table, engineReturning(1));
    const mine = await s.accounts.open('Mine', 1);
    const theirs = await s.accounts.open('Theirs', 1);
    const { searchId } = await s.search.search(theirs.id, { domain: 'acme.com', limit: 10 });
    await expect(s.watchlist().save(mine.id, { domain: 'localhost' })).rejects.toMatchObject({ code: 'invalid_domain' });
    await expect(s.watchlist().save(mine.id, { domain: 'rival.com', searchId })).rejects.toMatchObject({ code: 'not_found' });
    await expect(s.watchlist().save(mine.id, { domain: 'rival.com', searchId: 'srch_nope' })).rejects.toMatchObject({ code: 'not_found' });
    expect((await s.watchlist().list(mine.id, { limit: 10 })).items).toEqual([]);
  });
});
