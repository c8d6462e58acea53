// core use case: the sweeper. A search whose process died (a crash, a killed worker, a database that failed the
// settle and the refund) stays `running` with its credit taken; past its sweepAfter time it is failed and refunded,
// exactly once (the ledger's refund is conditioned on the search still running). Scheduled every few minutes.
import type { Clock, CreditsLedger, OverdueSearch, RunningSearches } from '../ports.js';
import { elapsedSeconds } from '../runtime.js';

/** A synchronous search that has not finished this long after its research deadline is presumed dead. */
export const SWEEP_MARGIN_MS = 60_000;

export interface SweepReport {
  overdue: number;
  refunded: number;
  /** Finished (settled or refunded) by someone else between the index read and the refund. */
  alreadyFinished: number;
  failed: number;
}

export interface SweeperDeps {
  running: RunningSearches;
  ledger: CreditsLedger;
  clock: Clock;
  /** Searches read from the index per round. */
  batchSize?: number;
  /** At most this many rounds a run, so that one run stays well inside its function's timeout. */
  maxRounds?: number;
  onError?: (search: OverdueSearch, error: unknown) => void;
}

export class Sweeper {
  constructor(private readonly deps: SweeperDeps) {}

  async sweep(): Promise<SweepReport> {
    const { running, ledger, clock, batchSize = 100, maxRounds = 20 } = this.deps;
    const report: SweepReport = { overdue: 0, refunded: 0, alreadyFinished: 0, failed: 0 };
    for (let round = 0; round < maxRounds; round++) {
      const now = clock.now();
      const overdue = await running.overdue(now.toISOString(), batchSize);
      report.overdue += overdue.length;
      let progress = 0;
      for (const search of overdue) {
        try {
          const refunded = await ledger.refundSearch(search.accountId, search.searchId, {
            error: 'research_timeout',
            completedAt: now.toISOString(),
            elapsedSeconds: elapsedSeconds(new Date(search.createdAt), now),
          });
          if (refunded) report.refunded++;
          else report.alreadyFinished++;
          progress++;
        } catch (error) {
          report.failed++;
          this.deps.onError?.(search, error);
        }
      }
      // A short page means the index holds no more; a round with no progress would only repeat itself.
      if (overdue.length < batchSize || progress === 0) break;
    }
    return report;
  }
}
