// core use case: one paid search. Reserve a credit, research, then settle or refund before answering.
import type { SearchResult } from '@rivals/contracts';
import { ApiError } from '../errors.js';
import { normalizeDomain } from '../domain.js';
import type { Clock, CreditsLedger, IdGenerator, ResearchEngine, ResearchOutcome, SearchSource } from '../ports.js';

export interface SearchServiceDeps {
  ledger: CreditsLedger;
  engine: ResearchEngine;
  clock: Clock;
  ids: IdGenerator;
  /** A synchronous search answers within this many milliseconds or fails with research_timeout (refunded). */
  deadlineMs: number;
}

export interface SearchOrigin {
  source: SearchSource;
  jobId?: string;
}

export interface SearchAnswer {
  searchId: string;
  result: SearchResult;
}

/** Elapsed seconds, to the millisecond. */
const seconds = (from: Date, to: Date) => Math.round(to.getTime() - from.getTime()) / 1000;

export class SearchService {
  constructor(private readonly deps: SearchServiceDeps) {}

  async search(accountId: string, request: { domain: string; limit: number }, origin: SearchOrigin = { source: 'api' }): Promise<SearchAnswer> {
    const { ledger, clock, ids } = this.deps;
    const domain = normalizeDomain(request.domain);
    const started = clock.now();
    const searchId = ids.next('srch');
    await ledger.reserveSearch({
      id: searchId,
      accountId,
      domain,
      limit: request.limit,
      source: origin.source,
      ...(origin.jobId ? { jobId: origin.jobId } : {}),
      createdAt: started.toISOString(),
    });

    let outcome: ResearchOutcome;
    try {
      outcome = await this.researchWithinDeadline(domain, request.limit);
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
    try {
      await ledger.settleSearch(accountId, searchId, {
        completedAt: completed.toISOString(),
        elapsedSeconds,
        competitors,
        totalCompetitors: competitors.length,
        likelyCompetitors,
      });
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
        creditsRemaining: await ledger.balance(accountId),
        competitors: competitors.map(({ evidence: _evidence, ...row }) => row),
      },
    };
  }

  private async researchWithinDeadline(domain: string, limit: number): Promise<ResearchOutcome> {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new ApiError('research_timeout', `The research did not finish within ${this.deps.deadlineMs / 1000} s; the credit was refunded.`));
      }, this.deps.deadlineMs);
    });
    try {
      return await Promise.race([this.deps.engine.research({ domain, limit, signal: controller.signal }), deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Gives the credit back (once) and returns the error to throw, stamped with the refund and the balance. */
  private async refund(accountId: string, searchId: string, started: Date, failure: ApiError): Promise<ApiError> {
    const completed = this.deps.clock.now();
    await this.deps.ledger.refundSearch(accountId, searchId, {
      error: failure.code,
      completedAt: completed.toISOString(),
      elapsedSeconds: seconds(started, completed),
    });
    const creditsRemaining = await this.deps.ledger.balance(accountId);
    return new ApiError(failure.code, failure.message, { ...failure.extra, refunded: true, creditsRemaining }, { cause: failure.cause ?? failure });
  }
}
