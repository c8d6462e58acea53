// core use case: the sweeper's bulk part (scheduled with the search sweeper). Unfinished domains with no sign of life
// are re-driven, and failed and refunded once their re-sends are used up (redrive.ts); owed webhooks and pending
// aggregations are re-driven too, and dead-letter queues drained; jobs whose last outcome was recorded but not yet
// counted as the end are ended; upload URLs never used expire. Needs no research engine.
import type { Clock, IdGenerator, SearchStore } from '../ports.js';
import type { BulkJobStore, WebhookQueue } from './ports.js';
import type { RedriveReport, Redriver } from './redrive.js';
import { enqueueWebhook } from './webhooks.js';

export interface BulkSweeperDeps {
  jobs: BulkJobStore;
  searches: SearchStore;
  webhookQueue: WebhookQueue;
  clock: Clock;
  ids: IdGenerator;
  redriver: Redriver;
  /** An upload URL whose file never landed: the job fails this long after the URL expired. */
  uploadGraceMs: number;
}

export interface BulkSweepReport {
  refunded: number;
  finished: number;
  expired: number;
  redriven: Omit<RedriveReport, 'abandonedWebhooks' | 'deadLetters'>;
  abandonedWebhooks: number;
  deadLetters: number;
}

export class BulkSweeper {
  constructor(private readonly deps: BulkSweeperDeps) {}

  /**
   * One pass: dead letters drained, owed webhooks and pending aggregations re-driven; then every live job: a cancel
   * that died before refunding is finished, each unfinished domain re-driven or (its re-sends used up) failed and
   * refunded once, the job ended when its last outcome is in; upload URLs never used expire.
   */
  async sweep(): Promise<BulkSweepReport> {
    const { jobs, redriver } = this.deps;
    const { domains: _none, abandonedWebhooks, deadLetters, ...redriven } = await redriver.redrive();
    const now = this.deps.clock.now();
    const totals: BulkSweepReport = { refunded: 0, finished: 0, expired: 0, redriven: { ...redriven, domains: 0 }, abandonedWebhooks, deadLetters };
    for await (const { accountId, jobId } of jobs.activeJobs()) {
      const job = await jobs.getJob(accountId, jobId);
      if (!job) continue;
      if (job.status === 'awaiting_upload') {
        if (job.uploadExpiresAt && Date.parse(job.uploadExpiresAt) + this.deps.uploadGraceMs < now.getTime()) {
          if (await jobs.failAwaitingJob(accountId, jobId, 'upload_expired', now.toISOString())) {
            totals.expired++;
            await enqueueWebhook(this.deps, accountId, jobId);
          }
        }
        continue;
      }
      // A cancel that died before refunding its pending domains is finished here.
      if (job.status === 'cancelled') totals.refunded += await jobs.cancelPendingDomains(job, now.toISOString());
      for await (const domain of jobs.unfinishedDomains(jobId)) {
        const outcome = await redriver.domain(job, domain, now);
        if (outcome === 'failed') totals.refunded++;
        if (outcome === 'redriven') totals.redriven.domains++;
      }
      if (await jobs.finishJobIfDone(accountId, jobId, now.toISOString())) {
        totals.finished++;
        await enqueueWebhook(this.deps, accountId, jobId);
      }
    }
    return totals;
  }
}
