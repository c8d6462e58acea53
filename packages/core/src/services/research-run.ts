// core: the research core shared by the synchronous search and bulk domains: run the engine within a deadline, rank
// the rows, and settle the stored search through the ledger's one settle path. Who pays (a reserved search credit or a
// bulk job's reservation) is the caller's business; this never touches credits.
import type { StoredCompetitor } from '@rivals/contracts';
import { ApiError } from '../errors.js';
import type { Clock, CreditsLedger, ResearchEngine, ResearchOutcome } from '../ports.js';

export interface ResearchRunDeps {
  ledger: CreditsLedger;
  engine: ResearchEngine;
  clock: Clock;
  /** The research finishes within this many milliseconds or fails with research_timeout. */
  deadlineMs: number;
}

export interface SettledRun {
  competitors: StoredCompetitor[];
  likelyCompetitors: number;
  elapsedSeconds: number;
}

/** Elapsed seconds, to the millisecond. */
export const seconds = (from: Date, to: Date) => Math.round(to.getTime() - from.getTime()) / 1000;

export class ResearchRun {
  constructor(private readonly deps: ResearchRunDeps) {}

  /**
   * Researches `domain` for the running search `searchId` and settles it. Throws an ApiError (research_failed,
   * research_timeout, no_competitors_found, internal_error) when there is nothing to settle; the search is then still
   * running and the caller refunds it its own way.
   */
  async researchAndSettle(accountId: string, searchId: string, domain: string, limit: number, started: Date): Promise<SettledRun> {
    let outcome: ResearchOutcome;
    try {
      outcome = await this.researchWithinDeadline(domain, limit);
    } catch (error) {
      throw error instanceof ApiError ? error : new ApiError('research_failed', 'The research engine failed; the credit was refunded.', {}, { cause: error });
    }
    if (outcome.competitors.length === 0) throw new ApiError('no_competitors_found', `No competitors were found for ${domain}; the credit was refunded.`);

    const completed = this.deps.clock.now();
    const elapsedSeconds = seconds(started, completed);
    const competitors = outcome.competitors.slice(0, limit).map((c, i) => ({ rank: i + 1, ...c }));
    const likelyCompetitors = competitors.filter((c) => c.likelyCompetitor).length;
    try {
      await this.deps.ledger.settleSearch(accountId, searchId, {
        completedAt: completed.toISOString(),
        elapsedSeconds,
        competitors,
        totalCompetitors: competitors.length,
        likelyCompetitors,
      });
    } catch (error) {
      throw new ApiError('internal_error', 'The search could not be saved; the credit was refunded.', {}, { cause: error });
    }
    return { competitors, likelyCompetitors, elapsedSeconds };
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
}
