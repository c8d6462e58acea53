// core use case: one paid search. Reserve a credit, research, then settle or refund before answering.
import type { SearchFilters, SearchResult } from '@rivals/contracts';
import { ApiError } from '../errors.js';
import { normalizeDomain } from '../domain.js';
import type { Clock, CreditsLedger, IdGenerator, ResearchEngine, ResearchOutcome, SearchSource } from '../ports.js';
import { withRetries, type RetryOptions } from '../retry.js';
import { elapsedSeconds as seconds } from '../runtime.js';
import { SWEEP_MARGIN_MS } from './sweeper.js';

export interface SearchServiceDeps {
  ledger: CreditsLedger;
  engine: ResearchEngine;
  clock: Clock;
  ids: IdGenerator;
  /** A synchronous search answers within this many milliseconds or fails with research_timeout (refunded). */
  deadlineMs: number;
  /** How hard a search tries to save its result, or give its credit back, before answering; the sweeper does the rest. */
  refundRetry?: Omit<RetryOptions, 'sleep'>;
}

/**
 * A settle or a refund is retried (the SDK already retries each call) for up to 3 s: long enough to ride out a blip, short enough
 * to answer before API Gateway's limit. A refund that still fails is left to the sweeper, and the answer says so.
 */
const REFUND_RETRY: Omit<RetryOptions, 'sleep'> = { attempts: 3, baseDelayMs: 200, budgetMs: 3_000 };

export interface SearchOrigin {
  source: SearchSource;
  jobId?: string;
}

export interface SearchAnswer {
  searchId: string;
  result: SearchResult;
}

/** The filters asked for, with excluded domains normalised (an invalid one is invalid_domain); undefined for none. */
export function normalizeFilters({ exclude, types, minMatchScore, countries }: SearchFilters): SearchFilters | undefined {
  const filters: SearchFilters = {};
  if (exclude?.length) {
    filters.exclude = [
      ...new Set(
        exclude.map((value, i) => {
          try {
            return normalizeDomain(value);
          } catch (error) {
            const e = error as ApiError;
            throw new ApiError(e.code, e.message, { details: [{ field: `exclude.${i}`, problem: 'not a public hostname' }] });
          }
        }),
      ),
    ];
  }
  if (types?.length) filters.types = [...new Set(types)];
  if (minMatchScore !== undefined) filters.minMatchScore = minMatchScore;
  if (countries?.length) filters.countries = [...new Set(countries.map((c) => c.toUpperCase()))];
  return Object.keys(filters).length ? filters : undefined;
}

export class SearchService {
  constructor(private readonly deps: SearchServiceDeps) {}

  async search(accountId: string, request: { domain: string; limit: number } & SearchFilters, origin: SearchOrigin = { source: 'api' }): Promise<SearchAnswer> {
    const { ledger, clock, ids } = this.deps;
    const domain = normalizeDomain(request.domain);
    const filters = normalizeFilters(request);
    const started = clock.now();
    const searchId = ids.next('srch');
    try {
      await ledger.reserveSearch({
        id: searchId,
        accountId,
        domain,
        limit: request.limit,
        source: origin.source,
        ...(origin.jobId ? { jobId: origin.jobId } : {}),
        ...(filters ? { filters } : {}),
        createdAt: started.toISOString(),
        sweepAfter: new Date(started.getTime() + this.deps.deadlineMs + SWEEP_MARGIN_MS).toISOString(),
      });
    } catch (error) {
      if (error instanceof ApiError) throw error; // insufficient_credits: nothing was written
      // The reservation may or may not have been written (a timeout can hide a success): make sure it is not kept.
      throw await this.refund(accountId, searchId, started, new ApiError('internal_error', 'The search could not start.', {}, { cause: error }));
    }

    let outcome: ResearchOutcome;
    try {
      outcome = await this.researchWithinDeadline(domain, request.limit, filters);
    } catch (error) {
      const failure = error instanceof ApiError ? error : new ApiError('research_failed', 'The research engine failed; the credit was refunded.', {}, { cause: error });
      throw await this.refund(accountId, searchId, started, failure);
    }

    if (outcome.competitors.length === 0) {
      throw await this.refund(
        accountId,
        searchId,
        started,
        new ApiError('no_competitors_found', `No competitors were found for ${domain}; the credit was refunded.`),
      );
    }

    const completed = clock.now();
    const elapsedSeconds = seconds(started, completed);
    const competitors = outcome.competitors.slice(0, request.limit).map((c, i) => ({ rank: i + 1, ...c }));
    const likelyCompetitors = competitors.filter((c) => c.likelyCompetitor).length;
    let creditsRemaining: number;
    try {
      // Read before the settle (which changes no credit): once the search is settled, nothing may fail its answer.
      creditsRemaining = await ledger.balance(accountId);
      // A settle whose answer was lost (a timeout) may still have landed: its retry then finds the search no longer
      // running, which means the first attempt succeeded.
      let attempt = 0;
      await withRetries(async () => {
        attempt++;
        try {
          await ledger.settleSearch(accountId, searchId, { completedAt: completed.toISOString(), elapsedSeconds, competitors, totalCompetitors: competitors.length, likelyCompetitors });
        } catch (error) {
          if (attempt > 1 && error instanceof ApiError && error.code === 'conflict') return;
          throw error;
        }
      }, this.deps.refundRetry ?? REFUND_RETRY);
    } catch (error) {
      throw await this.refund(accountId, searchId, started, new ApiError('internal_error', 'The search could not be saved; the credit was refunded.', {}, { cause: error }));
    }

    return {
      searchId,
      result: {
        domain,
        totalCompetitors: competitors.length,
        likelyCompetitors,
        elapsedSeconds,
        creditsRemaining,
        competitors: competitors.map(({ evidence: _evidence, ...row }) => row),
      },
    };
  }

  private async researchWithinDeadline(domain: string, limit: number, filters: SearchFilters | undefined): Promise<ResearchOutcome> {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new ApiError('research_timeout', `The research did not finish within ${this.deps.deadlineMs / 1000} s; the credit was refunded.`));
      }, this.deps.deadlineMs);
    });
    try {
      return await Promise.race([this.deps.engine.research({ domain, limit, ...(filters ? { filters } : {}), signal: controller.signal }), deadline]);
    } finally {
      clearTimeout(timer);
    }
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
        () => ledger.refundSearch(accountId, searchId, { error: failure.code, completedAt: completed.toISOString(), elapsedSeconds: seconds(started, completed) }),
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
