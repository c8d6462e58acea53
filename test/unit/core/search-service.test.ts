// SearchService against an in-memory ledger: the order of reserve, research, settle and refund.
import { describe, expect, it } from 'vitest';
import { ApiError, SearchService, ulidIds, type CreditsLedger, type ResearchEngine, type SearchRecord, type SettledSearch } from '@rivals/core';
import { engineReturning, ScriptedEngine } from '../../fakes.js';

class MemoryLedger implements CreditsLedger {
  searches = new Map<string, SearchRecord>();
  events: string[] = [];
  failSettle = false;
  /** The next settle lands, but its caller is told it failed (a timeout that hid a success). */
  loseSettleAnswer = false;
  /** How many refunds fail before one goes through. */
  refundFailures = 0;
  /** The reservation throws an unknown error: after writing it ('after') or before ('before'). */
  reserveFault: 'after' | 'before' | null = null;
  constructor(public credits: number) {}
  async reserveSearch(search: Omit<SearchRecord, 'status'>) {
    if (this.reserveFault === 'before') throw new Error('connection reset');
    if (this.credits < 1) throw new ApiError('insufficient_credits', 'no', { creditsRemaining: this.credits, creditsRequired: 1 });
    this.credits--;
    this.searches.set(search.id, { ...search, status: 'running' });
    this.events.push('reserve');
    if (this.reserveFault === 'after') throw new Error('timed out');
    return { searchId: search.id };
  }
  async settleSearch(_: string, id: string, result: SettledSearch) {
    if (this.failSettle) throw new Error('dynamodb down');
    if (this.searches.get(id)!.status !== 'running') throw new ApiError('conflict', 'not running');
    this.searches.set(id, { ...this.searches.get(id)!, ...result, status: 'succeeded' });
    this.events.push('settle');
    if (this.loseSettleAnswer) {
      this.loseSettleAnswer = false;
      throw new Error('timed out');
    }
  }
  async refundSearch(_: string, id: string) {
    if (this.refundFailures > 0) {
      this.refundFailures--;
      this.events.push('refund failed');
      throw new Error('dynamodb down');
    }
    const s = this.searches.get(id);
    if (s?.status !== 'running') return false;
    this.searches.set(id, { ...s, status: 'failed' });
    this.credits++;
    this.events.push('refund');
    return true;
  }
  async balance() {
    return this.credits;
  }
}

const service = (ledger: CreditsLedger, engine: ResearchEngine = engineReturning(3), deadlineMs = 1000) =>
  new SearchService({ ledger, engine, clock: { now: () => new Date() }, ids: ulidIds(), deadlineMs, refundRetry: { attempts: 3, baseDelayMs: 1, budgetMs: 1_000 } });

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

  it('retries a refund that fails before answering, and says the credit is back', async () => {
    const ledger = new MemoryLedger(1);
    ledger.refundFailures = 2;
    const error = await service(ledger, engineReturning(0)).search('acct_1', { domain: 'example.com', limit: 10 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'no_competitors_found', extra: { refunded: true, creditsRemaining: 1 } });
    expect(ledger.events).toEqual(['reserve', 'refund failed', 'refund failed', 'refund']);
  });

  it('says so when the credit could not be refunded yet, and leaves the search running for the sweeper', async () => {
    const ledger = new MemoryLedger(1);
    ledger.refundFailures = 99;
    const error = (await service(ledger, engineReturning(0)).search('acct_1', { domain: 'example.com', limit: 10 }).catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ code: 'no_competitors_found', extra: { refunded: false } });
    expect(error.extra.creditsRemaining).toBeUndefined();
    expect(error.message).toMatch(/refunded automatically within \d+ minutes/);
    expect([...ledger.searches.values()].map((s) => [s.status, s.sweepAfter !== undefined])).toEqual([['running', true]]);
  });

  it('answers with the results when a settle landed but its answer was lost', async () => {
    const ledger = new MemoryLedger(1);
    ledger.loseSettleAnswer = true;
    const { result } = await service(ledger).search('acct_1', { domain: 'example.com', limit: 10 });
    expect(result).toMatchObject({ totalCompetitors: 3, creditsRemaining: 0 });
    expect(ledger.events).toEqual(['reserve', 'settle']);
  });

  it.each([
    ['after it was written', 'after', ['reserve', 'refund']],
    ['before anything was written', 'before', []],
  ] as const)('holds no credit when the reservation fails %s', async (_, fault, events) => {
    const ledger = new MemoryLedger(1);
    ledger.reserveFault = fault;
    const error = await service(ledger).search('acct_1', { domain: 'example.com', limit: 10 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'internal_error', extra: { refunded: true, creditsRemaining: 1 } });
    expect(ledger.events).toEqual(events);
  });

  it('passes the filters to the engine with excluded domains normalised, and records them', async () => {
    const ledger = new MemoryLedger(1);
    let asked: unknown;
    const spy: ResearchEngine = { research: async (request) => ((asked = request.filters), engineReturning(2).research({ domain: 'x' })) };
    await service(ledger, spy).search('acct_1', { domain: 'example.com', limit: 10, exclude: ['https://www.Rival.com/x', 'rival.com'], types: ['Direct', 'Direct'], countries: ['de'] });
    expect(asked).toEqual({ exclude: ['rival.com'], types: ['Direct'], countries: ['DE'] });
    expect([...ledger.searches.values()][0]!.filters).toEqual(asked);
  });

  it('refuses an excluded value that is not a domain, naming it, before touching credits', async () => {
    const ledger = new MemoryLedger(1);
    const error = await service(ledger).search('acct_1', { domain: 'example.com', limit: 10, exclude: ['rival.com', 'localhost'] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_domain', extra: { details: [{ field: 'exclude.1' }] } });
    expect(ledger.events).toEqual([]);
  });

  it('records no filters when none are asked for', async () => {
    const ledger = new MemoryLedger(1);
    await service(ledger).search('acct_1', { domain: 'example.com', limit: 10, exclude: [] });
    expect([...ledger.searches.values()][0]!.filters).toBeUndefined();
  });
});

describe('SearchService and the engine\'s storage reads', () => {
  it('asks the engine to prepare its reads before reserving the credit, so that they overlap', async () => {
    const ledger = new MemoryLedger(5);
    const base = engineReturning(2);
    const engine: ResearchEngine = { research: (r) => (ledger.events.push('research'), base.research(r)), prepare: (d) => void ledger.events.push(`prepare ${d}`) };
    await service(ledger, engine).search('acct_1', { domain: 'WWW.Example.com', limit: 3 });
    expect(ledger.events).toEqual(['prepare example.com', 'reserve', 'research', 'settle']);
  });
});
