// core use case: one paid search. Reserve a credit, research and settle (ResearchRun, shared with bulk domains), or
// refund before answering.
import type { LookalikesResult, SearchFilters, SearchResult } from '@rivals/contracts';
import { ApiError, invalidRequest } from '../errors.js';
import { normalizeDomain } from '../domain.js';
import type { Clock, CreditsLedger, IdGenerator, ResearchEngine, SearchSource } from '../ports.js';
import { withRetries, type RetryOptions } from '../retry.js';
import { REFUND_RETRY, ResearchRun, type ResearchRunDeps, type SettledRun } from './research-run.js';
import { elapsedSeconds as seconds } from '../runtime.js';
import { SWEEP_MARGIN_MS } from './sweeper.js';

export interface SearchServiceDeps extends Pick<ResearchRunDeps, 'aggregation' | 'onAggregationError'> {
  ledger: CreditsLedger;
  engine: ResearchEngine;
  clock: Clock;
  ids: IdGenerator;
  /** A synchronous search answers within this many milliseconds or fails with research_timeout (refunded). */
  deadlineMs: number;
  /** How hard a search tries to save its result, or give its credit back, before answering; the sweeper does the rest. */
  refundRetry?: Omit<RetryOptions, 'sleep'>;
}

export interface SearchOrigin {
  source: SearchSource;
  jobId?: string;
}

export interface SearchAnswer {
  searchId: string;
  result: SearchResult;
}

/** The filters asked for, with excluded domains normalised (an invalid one is invalid_domain); undefined for none. */
export function normalizeFilters({ exclude, types, minMatchScore, countries, sizes, foundedFrom, foundedTo, ownership }: SearchFilters): SearchFilters | undefined {
  const filters: SearchFilters = {};
  if (exclude?.length) filters.exclude = normalizeDomains(exclude, 'exclude');
  if (types?.length) filters.types = [...new Set(types)];
  if (minMatchScore !== undefined) filters.minMatchScore = minMatchScore;
  if (countries?.length) filters.countries = [...new Set(countries.map((c) => c.toUpperCase()))];
  if (sizes?.length) filters.sizes = [...new Set(sizes)];
  if (foundedFrom !== undefined && foundedTo !== undefined && foundedFrom > foundedTo)
    throw invalidRequest('foundedFrom is after foundedTo.', [{ field: 'foundedFrom', problem: `must be at most foundedTo (${foundedTo})` }]);
  if (foundedFrom !== undefined) filters.foundedFrom = foundedFrom;
  if (foundedTo !== undefined) filters.foundedTo = foundedTo;
  if (ownership?.length) filters.ownership = [...new Set(ownership)];
  return Object.keys(filters).length ? filters : undefined;
}

/** Domains given in a list, normalised, duplicates dropped; an invalid one is invalid_domain naming `field.<index>`. */
export function normalizeDomains(values: readonly string[], field: string): string[] {
  return [
    ...new Set(
      values.map((value, i) => {
        try {
          return normalizeDomain(value);
        } catch (error) {
          const e = error as ApiError;
          throw new ApiError(e.code, e.message, { details: [{ field: `${field}.${i}`, problem: 'not a public hostname' }] });
        }
      }),
    ),
  ];
}

export class SearchService {
  private readonly run: ResearchRun;
  constructor(private readonly deps: SearchServiceDeps) {
    this.run = new ResearchRun(deps);
  }

  async search(accountId: string, request: { domain: string; limit: number } & SearchFilters, origin: SearchOrigin = { source: 'api' }): Promise<SearchAnswer> {
    const domain = normalizeDomain(request.domain);
    const filters = normalizeFilters(request);
    const { searchId, settled, creditsRemaining } = await this.paid(accountId, { domain, limit: request.limit, filters }, origin);
    const { competitors, likelyCompetitors, elapsedSeconds } = settled;
    return {
      searchId,
      result: {
        domain,
        totalCompetitors: competitors.length,
        likelyCompetitors,
        elapsedSeconds,
        creditsRemaining,
        // Exactly the Search result: evidence and firmographics stay with the stored search.
        competitors: competitors.map(({ evidence: _e, firmographics: _f, similarTo: _s, ...row }) => row),
      },
    };
  }

  /**
   * A look-alike search: companies like all the seeds at once (a customer list, a portfolio), paid, stored and refunded
   * exactly as a search is (one credit, whatever the number of seeds); the stored search's `domain` is the first seed.
   */
  async lookalikes(accountId: string, request: { domains: string[]; limit: number } & SearchFilters): Promise<{ searchId: string; result: LookalikesResult }> {
    const seeds = normalizeDomains(request.domains, 'domains');
    const filters = normalizeFilters(request);
    const { searchId, settled, creditsRemaining } = await this.paid(accountId, { domain: seeds[0]!, seeds, limit: request.limit, filters }, { source: 'api' });
    return {
      searchId,
      result: {
        domains: seeds,
        totalCompanies: settled.competitors.length,
        elapsedSeconds: settled.elapsedSeconds,
        creditsRemaining,
        companies: settled.competitors.map(({ evidence: _e, firmographics: _f, similarTo, ...row }) => ({ ...row, similarTo: similarTo ?? [seeds[0]!] })),
      },
    };
  }

  /** The one paid path: reserve a credit with the running search, research and settle, or refund before answering. */
  private async paid(
    accountId: string,
    request: { domain: string; seeds?: string[]; limit: number; filters: SearchFilters | undefined },
    origin: SearchOrigin,
  ): Promise<{ searchId: string; settled: SettledRun; creditsRemaining: number }> {
    const { ledger, clock, ids } = this.deps;
    const { domain, seeds, filters } = request;
    const started = clock.now();
    const searchId = ids.next('srch');
    this.deps.engine.prepare?.(domain);
    try {
      await ledger.reserveSearch({
        id: searchId,
        accountId,
        domain,
        limit: request.limit,
        source: origin.source,
        ...(origin.jobId ? { jobId: origin.jobId } : {}),
        ...(seeds ? { seeds } : {}),
        ...(filters ? { filters } : {}),
        createdAt: started.toISOString(),
        sweepAfter: new Date(started.getTime() + this.deps.deadlineMs + SWEEP_MARGIN_MS).toISOString(),
      });
    } catch (error) {
      if (error instanceof ApiError) throw error; // insufficient_credits: nothing was written
      // The reservation may or may not have been written (a timeout can hide a success): make sure it is not kept.
      throw await this.refund(accountId, searchId, started, new ApiError('internal_error', 'The search could not start.', {}, { cause: error }));
    }

    let settled: SettledRun;
    let creditsRemaining: number;
    try {
      // Read before the settle (which changes no credit): once the search is settled, nothing may fail its answer.
      creditsRemaining = await ledger.balance(accountId);
      settled = await this.run.researchAndSettle(accountId, searchId, { domain, ...(seeds ? { seeds } : {}), limit: request.limit, filters }, started);
    } catch (error) {
      const failure = error instanceof ApiError ? error : new ApiError('internal_error', 'The search could not be completed; the credit was refunded.', {}, { cause: error });
      throw await this.refund(accountId, searchId, started, failure);
    }
    return { searchId, settled, creditsRemaining };
  }

  /**
   * Gives the credit back (once) and returns the error to throw, saying whether the credit is back. Never throws: when
   * the database cannot take the refund now, the sweeper refunds the search once it is past its sweepAfter time.
   */
  private async refund(accountId: string, searchId: string, started: Date, failure: ApiError): Promise<ApiError> {
    const { ledger, clock } = this.deps;
    const completed = clock.now();
    let refunded: boolean;
    try {
      // false: the search was not running any more, or never was: either way no credit of it is held.
      await withRetries(
        () => ledger.refundSearch(accountId, searchId, { error: failure.code, ...(failure.extra.reason ? { reason: failure.extra.reason } : {}), completedAt: completed.toISOString(), elapsedSeconds: seconds(started, completed) }),
        this.deps.refundRetry ?? REFUND_RETRY,
      );
      refunded = true;
    } catch {
      refunded = false;
    }
    const creditsRemaining = refunded ? await ledger.balance(accountId).catch(() => undefined) : undefined;
    const message = refunded
      ? failure.message
      : `${failure.message.replace(/;? ?the credit was refunded\.?$/, '.')} The credit could not be refunded yet; it will be refunded automatically within ${Math.ceil((this.deps.deadlineMs + SWEEP_MARGIN_MS) / 60_000) + 5} minutes.`;
    return new ApiError(failure.code, message, { ...failure.extra, refunded, ...(creditsRemaining === undefined ? {} : { creditsRemaining }) }, { cause: failure.cause ?? failure });
  }
}
