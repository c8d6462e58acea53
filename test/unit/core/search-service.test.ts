// SearchService against an in-memory ledger: the order of reserve, research, settle and refund.
import { describe, expect, it } from 'vitest';
import { ApiError, SearchService, ulidIds, type CreditsLedger, type SearchRecord, type SettledSearch } from '@rivals/core';
import { engineReturning, ScriptedEngine } from '../../fakes.js';

class MemoryLedger implements CreditsLedger {
  searches = new Map<string, SearchRecord>();
  events: string[] = [];
  failSettle = false;
  constructor(public credits: number) {}
  async reserveSearch(search: Omit<SearchRecord, 'status'>) {
    if (this.credits < 1) throw new ApiError('insufficient_credits', 'no', { creditsRemaining: this.credits, creditsRequired: 1 });
    this.credits--;
    this.searches.set(search.id, { ...search, status: 'running' });
    this.events.push('reserve');
    return { searchId: search.id };
  }
  async settleSearch(_: string, id: string, result: SettledSearch) {
    if (this.failSettle) throw new Error('dynamodb down');
    this.searches.set(id, { ...this.searches.get(id)!, ...result, status: 'succeeded' });
    this.events.push('settle');
  }
  async refundSearch(_: string, id: string) {
    const s = this.searches.get(id)!;
    if (s.status !== 'running') return false;
    this.searches.set(id, { ...s, status: 'failed' });
    this.credits++;
    this.events.push('refund');
    return true;
  }
  async balance() {
    return this.credits;
  }
}

const service = (ledger: CreditsLedger, engine = engineReturning(3), deadlineMs = 1000) =>
  new SearchService({ ledger, engine, clock: { now: () => new Date() }, ids: ulidIds(), deadlineMs });

describe('SearchService', () => {
  it('returns exactly the Search result fields, ranks from 1, and counts likely competitors', async () => {
    const ledger = new MemoryLedger(5);
    const { result } = await service(ledger, engineReturning(4)).search('acct_1', { domain: 'WWW.Example.com', limit: 3 });
    expect(Object.keys(result).sort()).toEqual(['competitors', 'creditsRemaining', 'domain', 'elapsedSeconds', 'likelyCompetitors', 'totalCompetitors']);
    expect(result.competitors.map((c) => c.rank)).toEqual([1, 2, 3]);
    expect(Object.keys(result.competitors[0]!).sort()).toEqual(['company', 'confidence', 'domain', 'likelyCompetitor', 'matchScore', 'rank', 'type']);
    expect(result).toMatchObject({ domain: 'example.com', totalCompetitors: 3, likelyCompetitors: 1, creditsRemaining: 4 });
    expect(ledger.events).toEqual(['reserve', 'settle']);
  });

  it('refuses an invalid domain before touching credits', async () => {
    const ledger = new MemoryLedger(5);
    await expect(service(ledger).search('acct_1', { domain: 'localhost', limit: 3 })).rejects.toMatchObject({ code: 'invalid_domain' });
    expect(ledger.events).toEqual([]);
  });

  it.each([
    ['no competitors', engineReturning(0), 'no_competitors_found'],
    ['an engine crash', new ScriptedEngine(() => Promise.reject(new Error('x'))), 'research_failed'],
    ['a slow engine', new ScriptedEngine(() => new Promise(() => undefined)), 'research_timeout'],
  ])('refunds on %s and says so', async (_, engine, code) => {
    const ledger = new MemoryLedger(1);
    const error = await service(ledger, engine, 50).search('acct_1', { domain: 'example.com', limit: 10 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code, extra: { refunded: true, creditsRemaining: 1 } });
    expect(ledger.events).toEqual(['reserve', 'refund']);
  });

  it('refunds when the results cannot be saved', async () => {
    const ledger = new MemoryLedger(1);
    ledger.failSettle = true;
    const error = await service(ledger).search('acct_1', { domain: 'example.com', limit: 10 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'internal_error', extra: { refunded: true, creditsRemaining: 1 } });
  });
});
