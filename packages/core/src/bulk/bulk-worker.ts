// core use case: one bulk domain, as the queue worker runs it. The domain's own state guards every outcome (claim,
// charge, refund are conditional writes), so a redelivered or duplicate message never charges or refunds twice.
import type { FailureReason } from '@rivals/contracts';
import { ApiError } from '../errors.js';
import type { Clock, CreditsLedger, IdGenerator, ResearchEngine, SearchStore } from '../ports.js';
import { ResearchRun, type ResearchRunDeps } from '../services/research-run.js';
import type { BulkDomainRecord, BulkJobStore, DomainMessage, WebhookQueue } from './ports.js';
import { enqueueWebhook } from './webhooks.js';

export interface BulkWorkerDeps extends Pick<ResearchRunDeps, 'aggregation' | 'onAggregationError'> {
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
}

export type DomainOutcome = 'succeeded' | 'failed' | 'skipped';

/** Refunds a claimed domain, unless its search had in fact been settled (its worker died after settling): then it succeeded. */
export async function failDomain(deps: { jobs: BulkJobStore; searches: SearchStore }, domain: BulkDomainRecord, error: string, at: string, reason?: FailureReason): Promise<DomainOutcome> {
  const result = await deps.jobs.failDomain(domain, error, at, reason);
  if (result !== 'search-succeeded') return 'failed';
  const search = await deps.searches.get(domain.accountId, domain.searchId);
  await deps.jobs.succeedDomain(domain, { totalCompetitors: search?.totalCompetitors ?? 0, likelyCompetitors: search?.likelyCompetitors ?? 0 }, at);
  return 'succeeded';
}

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
      await jobs.startSearch({ id: domain.searchId, accountId: domain.accountId, domain: domain.domain, limit: job.limit, ...(job.filters ? { filters: job.filters } : {}), source: 'bulk', jobId: domain.jobId, createdAt: started.toISOString() });
      try {
        const settled = await this.run.researchAndSettle(domain.accountId, domain.searchId, { domain: domain.domain, limit: job.limit, filters: job.filters ?? undefined, via: 'bulk' }, started);
        outcome = await this.succeed(domain, settled.competitors.length, settled.likelyCompetitors);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        outcome = await this.fail(domain, error.code, error.extra.reason);
      }
    }
    await this.finish(domain.accountId, domain.jobId);
    return outcome;
  }

  private async succeed(domain: BulkDomainRecord, total: number, likely: number): Promise<DomainOutcome> {
    await this.deps.jobs.succeedDomain(domain, { totalCompetitors: total, likelyCompetitors: likely }, this.iso());
    return 'succeeded';
  }

  private fail(domain: BulkDomainRecord, error: string, reason?: FailureReason): Promise<DomainOutcome> {
    return failDomain(this.deps, domain, error, this.iso(), reason);
  }

  private async finish(accountId: string, jobId: string) {
    if (await this.deps.jobs.finishJobIfDone(accountId, jobId, this.iso())) await enqueueWebhook({ ...this.deps, webhookQueue: this.deps.webhookQueue }, accountId, jobId);
  }
}
