// My companies on DynamoDB Local: rows aggregated when each search settles, counted exactly once whatever is
// replayed, retried concurrently or interrupted, read most often found first with one Query on GSI1.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { MyCompany, type CompetitorType } from '@rivals/contracts';
import type { ResearchedCompetitor } from '@rivals/core';
import type { DynamoCreditsLedger } from '@rivals/db';
import { competitor, ScriptedEngine } from '../fakes.js';
import { freshTable, servicesOn, type TestTable } from '../setup/table.js';

let table: TestTable;
beforeEach(async () => {
  table = await freshTable();
});

const TYPES: CompetitorType[] = ['Direct', 'Indirect', 'Adjacent', 'Emerging'];
const UNIVERSE = 30;
/** Target t<i>.com finds `width` companies of a universe of 30, overlapping with its neighbours. */
const found = (domain: string, width = 10): ResearchedCompetitor[] => {
  const i = Number(/\d+/.exec(domain)?.[0] ?? 0);
  return Array.from({ length: width }, (_, k) => {
    const n = (i + k) % UNIVERSE;
    return competitor(n, { company: `Rival ${n}`, domain: `rival${n}.com`, matchScore: 90 - k - (i % 3), type: TYPES[(i + k) % 4]! });
  });
};
/** 100 competitors, the same for every target. */
const wideEngine = () =>
  new ScriptedEngine((domain) => ({
    targetSource: 'knowledge-base',
    competitors: Array.from({ length: 100 }, (_, k) => competitor(k, { domain: `wide${k}.com`, matchScore: 99 - (k % 90) - Number(domain.length % 2) })),
  }));
const engine = (width = 10) => new ScriptedEngine((domain) => ({ targetSource: 'knowledge-base', competitors: found(domain, width) }));

/** The rows computed from first principles, to compare with what the store kept. */
function expected(targets: string[], width = 10) {
  const rows = new Map<string, { timesFound: number; bestMatchScore: number; types: Set<string>; foundFor: string[] }>();
  for (const target of targets) {
    for (const c of found(target, width)) {
      const row = rows.get(c.domain) ?? { timesFound: 0, bestMatchScore: 0, types: new Set<string>(), foundFor: [] };
      row.timesFound++;
      row.bestMatchScore = Math.max(row.bestMatchScore, c.matchScore);
      row.types.add(c.type);
      row.foundFor = [target, ...row.foundFor.filter((d) => d !== target)].slice(0, 20);
      rows.set(c.domain, row);
    }
  }
  return rows;
}

const pendingItems = async (accountId: string) =>
  (
    await table.client.send(
      new QueryCommand({
        TableName: table.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        ExpressionAttributeValues: { ':pk': `ACCOUNT#${accountId}`, ':p': 'AGGPENDING#' },
      }),
    )
  ).Items ?? [];

/** Makes the ledger's own aggregation fail, as if the process died right after the settle's transaction. */
const crashAfterSettle = (ledger: DynamoCreditsLedger) => {
  const companies = (ledger as unknown as { companies: { finish: (a: string, s: string) => Promise<void> } }).companies;
  const finish = companies.finish.bind(companies);
  companies.finish = () => Promise.reject(new Error('process died'));
  return () => void (companies.finish = finish);
};

/** Two searches of the same 100 companies; the second settles, then its process "dies" before they are counted. */
async function interruptedAggregation() {
  const s = servicesOn(table, wideEngine());
  const account = await s.accounts.open('Acme', 5);
  await s.search.search(account.id, { domain: 't0.com', limit: 100 });
  const restore = crashAfterSettle(s.ledger);
  const { searchId } = await s.search.search(account.id, { domain: 't1.com', limit: 100 });
  restore();
  return { s, account, searchId };
}

describe('GET /api/my-companies (service and adapter)', () => {
  it('aggregates every company over many searches, most often found first', async () => {
    // Prepare: 25 searches of 10 competitors each over a universe of 30 companies (one target searched twice)
    const s = servicesOn(table, engine());
    const account = await s.accounts.open('Acme', 30);
    const targets = [...Array.from({ length: 24 }, (_, i) => `t${i}.com`), 't3.com'];
    for (const domain of targets) await s.search.search(account.id, { domain, limit: 100 });
    // Act
    const { items, total } = await s.myCompanies.list(account.id);
    // Assess
    const want = expected(targets);
    expect(total).toBe(want.size);
    expect(items).toHaveLength(want.size);
    for (const item of items) {
      expect(() => MyCompany.parse(item)).not.toThrow();
      const row = want.get(item.domain)!;
      expect(item).toMatchObject({ timesFound: row.timesFound, bestMatchScore: row.bestMatchScore, foundFor: row.foundFor });
      expect(new Set(item.types)).toEqual(row.types);
      expect(item.firstSeenAt <= item.lastSeenAt).toBe(true);
    }
    const counts = items.map((i) => i.timesFound);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(await pendingItems(account.id)).toEqual([]);
  });

  it('never counts a replayed settle: it is refused and nothing changes', async () => {
    const s = servicesOn(table, engine());
    const account = await s.accounts.open('Acme', 5);
    const { searchId } = await s.search.search(account.id, { domain: 't1.com', limit: 100 });
    const before = await s.myCompanies.list(account.id);
    const stored = (await s.searches.get(account.id, searchId))!;
    const replay = s.ledger.settleSearch(account.id, searchId, {
      domain: stored.domain,
      completedAt: new Date().toISOString(),
      elapsedSeconds: 0.1,
      competitors: stored.competitors!,
      totalCompetitors: stored.totalCompetitors!,
      likelyCompetitors: stored.likelyCompetitors!,
    });
    await expect(replay).rejects.toMatchObject({ code: 'conflict' });
    expect(await s.myCompanies.list(account.id)).toEqual(before);
    expect(before.items.every((i) => i.timesFound === 1)).toBe(true);
    expect(await s.ledger.balance(account.id)).toBe(4);
  });

  it('finishes an aggregation a crash interrupted on the next read, and counts it once however often it is retried', async () => {
    // Prepare: the search (100 competitors: two chunks) settles, then the process "dies" before they are counted
    const { s, account, searchId } = await interruptedAggregation();
    expect(await pendingItems(account.id)).toHaveLength(1);
    // Act: concurrent runners (a retry, a read) plus the read itself
    await Promise.all([s.companyStore.finish(account.id, searchId), s.companyStore.finish(account.id, searchId), s.companyStore.catchUp(account.id)]);
    const { items } = await s.myCompanies.list(account.id);
    await s.companyStore.finish(account.id, searchId);
    // Assess
    expect(items).toHaveLength(100);
    expect(items.every((i) => i.timesFound === 2)).toBe(true);
    expect((await s.myCompanies.list(account.id)).items).toEqual(items);
    expect(await pendingItems(account.id)).toEqual([]);
  });

  it('refuses a chunk a stale runner applies again, and finishes from where an interrupted run stopped', async () => {
    // Prepare: a settled search of 100 competitors (chunks 0 and 1) whose aggregation has not run
    const { s, account, searchId } = await interruptedAggregation();
    const store = s.companyStore as unknown as { settled(a: string, s: string): Promise<unknown>; apply(a: string, s: string, n: number, chunks: unknown[][], search: unknown): Promise<void> };
    const search = (await store.settled(account.id, searchId)) as { competitors: unknown[] };
    const chunks = [search.competitors.slice(0, 50), search.competitors.slice(50)];
    // Act: runner A applies chunk 0 and dies; runner B, which read the pending item before, applies chunk 0 again
    await store.apply(account.id, searchId, 0, chunks, search);
    const stale = store.apply(account.id, searchId, 0, chunks, search);
    // Assess
    await expect(stale).rejects.toMatchObject({ name: 'TransactionCanceledException' });
    expect((await pendingItems(account.id))[0]).toMatchObject({ nextChunk: 1 });
    const { items } = await s.myCompanies.list(account.id);
    expect(items).toHaveLength(100);
    expect(items.every((i) => i.timesFound === 2)).toBe(true);
    expect(await pendingItems(account.id)).toEqual([]);
  });

  it('counts a search of 100 competitors (several transactions) exactly once, also when concurrent searches share rows', async () => {
    const s = servicesOn(table, wideEngine());
    const account = await s.accounts.open('Acme', 10);
    await Promise.all(['x1.com', 'x22.com', 'x3.com', 'x44.com'].map((domain) => s.search.search(account.id, { domain, limit: 100 })));
    const { items, total } = await s.myCompanies.list(account.id);
    expect(total).toBe(100);
    expect(items.every((i) => i.timesFound === 4 && i.foundFor.length === 4)).toBe(true);
    expect(items.find((i) => i.domain === 'wide0.com')?.bestMatchScore).toBe(99);
  });

  it('caps the rows it answers and still counts them all', async () => {
    const s = servicesOn(table, engine());
    const account = await s.accounts.open('Acme', 5);
    for (const domain of ['t0.com', 't5.com']) await s.search.search(account.id, { domain, limit: 100 });
    const { items, total } = await s.companyStore.top(account.id, 3);
    expect(total).toBe(15);
    expect(items.map((i) => i.timesFound)).toEqual([2, 2, 2]);
  });

  it('exports CSV with a header row, RFC 4180 quoting and formula-like cells defused', async () => {
    const s = servicesOn(
      table,
      new ScriptedEngine(() => ({
        targetSource: 'knowledge-base',
        competitors: [competitor(1, { company: '=HYPERLINK("http://x")', domain: 'evil.com' }), competitor(2, { company: 'Acme, Inc.', domain: 'acme.com' })],
      })),
    );
    const account = await s.accounts.open('Acme', 5);
    await s.search.search(account.id, { domain: 't0.com', limit: 100 });
    const csv = await s.myCompanies.csv(account.id);
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('company,domain,timesFound,bestMatchScore,types,firstSeenAt,lastSeenAt,foundFor');
    expect(csv).toContain(`"'=HYPERLINK(""http://x"")",evil.com,1,89,Direct,`);
    expect(csv).toContain('"Acme, Inc.",acme.com,1,88,Direct,');
    expect(lines.at(-1)).toBe('');
  });
});
