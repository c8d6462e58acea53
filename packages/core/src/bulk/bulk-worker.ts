// core use case: one bulk domain, as the queue worker runs it. The domain's own state guards every outcome (claim,
// charge, refund are conditional writes), so a redelivered or duplicate message never charges or refunds twice.
import { ApiError } from '../errors.js';
import type { Clock, CreditsLedger, IdGenerator, ResearchEngine, SearchStore } from '../ports.js';
import { ResearchRun } from '../services/research-run.js';
import type { BulkDomainRecord, BulkJobStore, DomainMessage, WebhookQueue } from './ports.js';
import { enqueueWebhook } from './webhooks.js';

export interface BulkWorkerDeps {
  jobs: BulkJobStore;
  ledger: CreditsLedger;
  engine: ResearchEngine;
  searches: SearchStore;
  webhookQueue: WebhookQueue;
  clock: Clock;
  ids: IdGenerator;
  /** Research deadline of one domain. */
  deadlineMs: number;
  /** A running domain whose attempt started longer ago than this is taken over by the next delivery (its worker died). */
  takeoverAfterMs: number;
  /** The sweeper fails a domain still running this long after its attempt started, and a job pending this long after it was created. */
  runningDeadlineMs: number;
  pendingDeadlineMs: number;
  /** An upload URL whose file never landed: the job fails this long after the URL expired. */
  uploadGraceMs: number;
}

export type DomainOutcome = 'succeeded' | 'failed' | 'skipped';

export class BulkWorker {
  private readonly run: ResearchRun;
  constructor(private readonly deps: BulkWorkerDeps) {
    this.run = new ResearchRun(deps);
  }

  private iso = (offsetMs = 0) => new Date(this.deps.clock.now().getTime() + offsetMs).toISOString();

  /** Researches one domain of a job. Throws only when the outcome could not be recorded (the message is then retried). */
  async process(message: DomainMessage): Promise<DomainOutcome> {
    const { jobs } = this.deps;
    const started = this.deps.clock.now();
    const domain = await jobs.claimDomain(message.jobId, message.seq, started.toISOString(), this.iso(-this.deps.takeoverAfterMs));
    if (!domain) return 'skipped';
    const job = await jobs.getJob(domain.accountId, domain.jobId);
    if (!job) return 'skipped';
    await jobs.markRunning(domain.accountId, domain.jobId, started.toISOString());

    // A taken-over attempt may find its search settled already (the last worker died after settling).
    const existing = domain.attempts > 1 ? await this.deps.searches.get(domain.accountId, domain.searchId) : null;
    let outcome: DomainOutcome;
    if (existing?.status === 'succeeded') {
      outcome = await this.succeed(domain, existing.totalCompetitors ?? 0, existing.likelyCompetitors ?? 0);
    } else {
      await jobs.startSearch({ id: domain.searchId, accountId: domain.accountId, domain: domain.domain, limit: job.limit, source: 'bulk', jobId: domain.jobId, createdAt: started.toISOString() });
      try {
        const settled = await this.run.researchAndSettle(domain.accountId, domain.searchId, domain.domain, job.limit, started);
        outcome = await this.succeed(domain, settled.competitors.length, settled.likelyCompetitors);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        outcome = await this.fail(domain, error.code);
      }
    }
    await this.finish(domain.accountId, domain.jobId);
    return outcome;
  }

  private async succeed(domain: BulkDomainRecord, total: number, likely: number): Promise<DomainOutcome> {
    await this.deps.jobs.succeedDomain(domain, { totalCompetitors: total, likelyCompetitors: likely }, this.iso());
    return 'succeeded';
  }

  /** Refunds the domain, unless its search had in fact been settled: then it is a success. */
  private async fail(domain: BulkDomainRecord, error: string): Promise<DomainOutcome> {
    const result = await this.deps.jobs.failDomain(domain, error, this.iso());
    if (result !== 'search-succeeded') return 'failed';
    const search = await this.deps.searches.get(domain.accountId, domain.searchId);
    return this.succeed(domain, search?.totalCompetitors ?? 0, search?.likelyCompetitors ?? 0);
  }

  private async finish(accountId: string, jobId: string) {
    if (await this.deps.jobs.finishJobIfDone(accountId, jobId, this.iso())) await enqueueWebhook({ ...this.deps, webhookQueue: this.deps.webhookQueue }, accountId, jobId);
  }

  /**
   * The sweeper's bulk part: domains stuck running past their deadline (their messages went to the dead-letter queue,
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
      const pendingTooLong = Date.parse(job.createdAt) + this.deps.pendingDeadlineMs < now.getTime();
      for await (const domain of jobs.unfinishedDomains(jobId)) {
        const stuckRunning = domain.state === 'running' && domain.startedAt !== null && Date.parse(domain.startedAt) + this.deps.runningDeadlineMs < now.getTime();
        if (!stuckRunning && !(domain.state === 'pending' && pendingTooLong)) continue;
        const claimed = await jobs.claimDomain(jobId, domain.seq, now.toISOString(), this.iso(-this.deps.runningDeadlineMs));
        if (claimed && (await this.fail(claimed, 'research_timeout')) === 'failed') totals.refunded++;
      }
      if (await jobs.finishJobIfDone(accountId, jobId, now.toISOString())) {
        totals.finished++;
        await enqueueWebhook(this.deps, accountId, jobId);
      }
    }
    return totals;
  }
}
