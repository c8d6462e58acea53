// core use case: the sweeper's bulk part (scheduled with the search sweeper). Domains stuck running past their deadline
// (their messages went to the dead-letter queue, or the queue lost them) and domains never started long after their job
// was created are failed and refunded, once (the same conditional outcome a worker writes); jobs whose last outcome
// was recorded but not yet counted as the end are ended; upload URLs never used expire. Needs no research engine.
import type { Clock, IdGenerator, SearchStore } from '../ports.js';
import { failDomain } from './bulk-worker.js';
import type { BulkJobStore, WebhookQueue } from './ports.js';
import { enqueueWebhook } from './webhooks.js';

export interface BulkSweeperDeps {
  jobs: BulkJobStore;
  searches: SearchStore;
  webhookQueue: WebhookQueue;
  clock: Clock;
  ids: IdGenerator;
  /** A domain still running this long after its attempt started is failed and refunded. */
  runningDeadlineMs: number;
  /** A domain still pending this long after its job was created is failed and refunded (its message was lost). */
  pendingDeadlineMs: number;
  /** An upload URL whose file never landed: the job fails this long after the URL expired. */
  uploadGraceMs: number;
}

export class BulkSweeper {
  constructor(private readonly deps: BulkSweeperDeps) {}

  /**
   * One pass: domains stuck running past their deadline (their messages went to the dead-letter queue,
   * or the queue lost them) and domains never started long after their job was created are failed and refunded, once;
   * jobs whose last outcome was recorded but not yet counted as the end are ended; upload URLs never used expire.
   */
  async sweep(): Promise<{ refunded: number; finished: number; expired: number }> {
    const { jobs } = this.deps;
    const now = this.deps.clock.now();
    const totals = { refunded: 0, finished: 0, expired: 0 };
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
      const pendingTooLong = Date.parse(job.createdAt) + this.deps.pendingDeadlineMs < now.getTime();
      for await (const domain of jobs.unfinishedDomains(jobId)) {
        const stuckRunning = domain.state === 'running' && domain.startedAt !== null && Date.parse(domain.startedAt) + this.deps.runningDeadlineMs < now.getTime();
        if (!stuckRunning && !(domain.state === 'pending' && pendingTooLong)) continue;
        const claimed = await jobs.claimDomain(jobId, domain.seq, now.toISOString(), new Date(now.getTime() - this.deps.runningDeadlineMs).toISOString());
        if (claimed && (await failDomain(this.deps, claimed, 'research_timeout', now.toISOString())) === 'failed') totals.refunded++;
      }
      if (await jobs.finishJobIfDone(accountId, jobId, now.toISOString())) {
        totals.finished++;
        await enqueueWebhook(this.deps, accountId, jobId);
      }
    }
    return totals;
  }
}
