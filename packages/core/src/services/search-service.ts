// core use case: one paid search. Reserve a credit, research and settle (ResearchRun, shared with bulk domains), or
// refund before answering.
import type { SearchResult } from '@rivals/contracts';
import { ApiError } from '../errors.js';
import { normalizeDomain } from '../domain.js';
import type { Clock, CreditsLedger, IdGenerator, ResearchEngine, SearchSource } from '../ports.js';
import { ResearchRun, seconds, type SettledRun } from './research-run.js';

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

export class SearchService {
  private readonly run: ResearchRun;
  constructor(private readonly deps: SearchServiceDeps) {
    this.run = new ResearchRun(deps);
  }

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

    let settled: SettledRun;
    try {
      settled = await this.run.researchAndSettle(accountId, searchId, domain, request.limit, started);
    } catch (error) {
      throw await this.refund(accountId, searchId, started, error as ApiError);
    }
    const { competitors, likelyCompetitors, elapsedSeconds } = settled;

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
