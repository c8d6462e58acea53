// core: the research core shared by the synchronous search and bulk domains: run the engine within a deadline, rank
// the rows, and settle the stored search through the ledger's one settle path. Who pays (a reserved search credit or a
// bulk job's reservation) is the caller's business; this never touches credits.
import type { FailureReason, SearchFilters, StoredCompetitor } from '@rivals/contracts';
import { ApiError } from '../errors.js';
import type { AggregationQueue, Clock, CreditsLedger, ResearchEngine, ResearchOutcome } from '../ports.js';
import { withRetries, type RetryOptions } from '../retry.js';
import { elapsedSeconds } from '../runtime.js';

export interface ResearchRunDeps {
  ledger: CreditsLedger;
  engine: ResearchEngine;
  clock: Clock;
  /** The research finishes within this many milliseconds or fails with research_timeout. */
  deadlineMs: number;
  /** How hard a settle (or a refund) is retried before giving up; the sweeper does the rest. */
  refundRetry?: Omit<RetryOptions, 'sleep'>;
  /** Where a settled search is sent to be counted in the account's company rows; without it, the next read counts it. */
  aggregation?: AggregationQueue;
  /** Told when the aggregate message could not be sent (the search is settled all the same). */
  onAggregationError?: (searchId: string, error: unknown) => void;
}

/**
 * A settle or a refund is retried (the SDK already retries each call) for up to 3 s: long enough to ride out a blip, short enough
 * to answer before API Gateway's limit. A refund that still fails is left to the sweeper, and the answer says so.
 */
export const REFUND_RETRY: Omit<RetryOptions, 'sleep'> = { attempts: 3, baseDelayMs: 200, budgetMs: 3_000 };

/** The reason of a search that found nothing, in a user's words (the 422's message). */
export const FAILURE_EXPLANATIONS: Record<FailureReason, string> = {
  homepage_unreachable: 'the company is not in the knowledge base and its homepage could not be read',
  homepage_too_thin: 'the company is not in the knowledge base and its homepage says too little to tell what it does',
  no_rivals_known: 'no company is known to compete with it',
  filters_excluded_all: 'competitors were found, but none passed the filters',
};

export interface SettledRun {
  competitors: StoredCompetitor[];
  likelyCompetitors: number;
  elapsedSeconds: number;
}

export class ResearchRun {
  constructor(private readonly deps: ResearchRunDeps) {}

  /**
   * Researches `domain` for the running search `searchId` and settles it. Throws an ApiError (research_failed,
   * research_timeout, no_competitors_found, internal_error) when there is nothing settled; the search is then still
   * running and the caller refunds it its own way.
   */
  async researchAndSettle(
    accountId: string,
    searchId: string,
    request: { domain: string; seeds?: string[]; limit: number; filters?: SearchFilters | undefined; via?: 'search' | 'bulk' },
    started: Date,
  ): Promise<SettledRun> {
    const { ledger, clock } = this.deps;
    const { domain, limit } = request;
    let outcome: ResearchOutcome;
    try {
      outcome = await this.researchWithinDeadline(request, accountId);
    } catch (error) {
      throw error instanceof ApiError ? error : new ApiError('research_failed', 'The research engine failed; the credit was refunded.', {}, { cause: error });
    }
    if (outcome.competitors.length === 0) {
      const reason = outcome.failureReason ?? 'no_rivals_known';
      const what = request.seeds ? `No look-alikes were found for ${request.seeds.join(', ')}` : `No competitors were found for ${domain}`;
      throw new ApiError('no_competitors_found', `${what}: ${FAILURE_EXPLANATIONS[reason]}; the credit was refunded.`, { reason });
    }

    const completed = clock.now();
    const elapsed = elapsedSeconds(started, completed);
    const competitors = outcome.competitors.slice(0, limit).map((c, i) => ({ rank: i + 1, ...c }));
    const likelyCompetitors = competitors.filter((c) => c.likelyCompetitor).length;
    try {
      // A settle whose answer was lost (a timeout) may still have landed: its retry then finds the search no longer
      // running, which means the first attempt succeeded.
      let attempt = 0;
      await withRetries(async () => {
        attempt++;
        try {
          await ledger.settleSearch(accountId, searchId, { completedAt: completed.toISOString(), elapsedSeconds: elapsed, competitors, totalCompetitors: competitors.length, likelyCompetitors });
        } catch (error) {
          if (attempt > 1 && error instanceof ApiError && error.code === 'conflict') return;
          throw error;
        }
      }, this.deps.refundRetry ?? REFUND_RETRY);
    } catch (error) {
      throw new ApiError('internal_error', 'The search could not be saved; the credit was refunded.', {}, { cause: error });
    }
    await this.enqueueAggregation(accountId, searchId);
    return { competitors, likelyCompetitors, elapsedSeconds: elapsed };
  }

  /**
   * Best effort, after the settle: the settle's own transaction wrote the search's pending aggregation item, and that
   * item, not this message, is what guarantees the count. A message that is lost (the send fails, the process dies
   * here) leaves the item pending: GET /api/my-companies finishes it before answering (catch-up on read). A message
   * delivered twice finds no pending item the second time and does nothing.
   */
  private async enqueueAggregation(accountId: string, searchId: string): Promise<void> {
    try {
      await this.deps.aggregation?.enqueue({ accountId, searchId });
    } catch (error) {
      this.deps.onAggregationError?.(searchId, error);
    }
  }

  private async researchWithinDeadline(
    { domain, seeds, limit, filters, via = 'search' }: { domain: string; seeds?: string[]; limit: number; filters?: SearchFilters | undefined; via?: 'search' | 'bulk' },
    accountId: string,
  ): Promise<ResearchOutcome> {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new ApiError('research_timeout', `The research did not finish within ${this.deps.deadlineMs / 1000} s; the credit was refunded.`));
      }, this.deps.deadlineMs);
    });
    try {
      return await Promise.race([this.deps.engine.research({ domain, ...(seeds ? { seeds } : {}), limit, ...(filters ? { filters } : {}), signal: controller.signal, accountId, via }), deadline]);
    } finally {
      clearTimeout(timer);
    }
  }
}
