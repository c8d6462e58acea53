// core use case: the re-drive of queued work whose message was lost (a crash of the local runtime, a message dropped or
// dead-lettered in AWS). The table, not the queue, is the source of truth: a bulk domain still pending or running, a
// completion webhook still owed and a settled search not yet counted are all items in it. Work with no sign of life
// for the re-drive window is sent again (workers claim conditionally, so a duplicate is harmless), with backoff (the
// window doubles after each re-send), a bounded number of times; only then is it given up: a domain failed and refunded,
// a webhook abandoned, an aggregation left to the account's next GET /api/my-companies (which counts it on read).
import type { AggregationQueue, Clock, IdGenerator, SearchStore } from '../ports.js';
import { failDomain } from './bulk-worker.js';
import type { BulkDomainRecord, BulkJobRecord, BulkJobStore, DeadLetterQueue, DomainQueue, OwedWebhook, PendingAggregations, WebhookMessage, WebhookQueue } from './ports.js';
import { WEBHOOK_RETRY_WINDOW_MS, webhookEventId, webhookRetryDelaySeconds } from './webhooks.js';

export interface RedrivePolicy {
  /** Work with no sign of life for this long is presumed lost, and its message sent again. */
  afterMs: number;
  /** Re-sends before the work is given up. */
  maxRedrives: number;
}

/** Production defaults (docs/reliability.md): 3 minutes, then 6, 12, 24, 48; given up after the fifth re-send's window. */
export const DEFAULT_REDRIVE: RedrivePolicy = { afterMs: 3 * 60_000, maxRedrives: 5 };

/** When the next re-send of work is due: the window, doubled for every re-send already made, after its last sign of life. */
export const redriveDueAt = (policy: RedrivePolicy, lastSignMs: number, redrives: number): number => lastSignMs + policy.afterMs * 2 ** redrives;

/** The most dead letters one pass reads from each dead-letter queue (ten a receive). */
const DEAD_LETTERS_PER_PASS = 1_000;

export interface RedriverDeps {
  jobs: BulkJobStore;
  searches: SearchStore;
  domainQueue: DomainQueue;
  webhookQueue: WebhookQueue;
  clock: Clock;
  ids: IdGenerator;
  policy: RedrivePolicy;
  /** The bulk worker's takeover time: a running domain's message is sent again no sooner (it would only be skipped). */
  takeoverAfterMs: number;
  /** The aggregate queue and the pending aggregations; without them aggregations are left to catch-up on read. */
  aggregation?: { queue: AggregationQueue; pending: PendingAggregations } | undefined;
  /** Dead-letter queues to drain: their messages are dropped, and the work they carried re-driven from the table. */
  deadLetterQueues?: DeadLetterQueue[] | undefined;
}

export type DomainRedrive = 'waiting' | 'redriven' | 'failed' | 'succeeded' | 'skipped';

export interface RedriveReport {
  domains: number;
  webhooks: number;
  aggregations: number;
  /** Webhooks given up after the last re-send. */
  abandonedWebhooks: number;
  deadLetters: number;
}

export interface ResumeReport {
  domains: number;
  released: number;
  webhooks: number;
  aggregations: number;
  /** Upload keys of jobs still awaiting their file: the file may have landed while nothing listened. */
  awaitingUploads: string[];
}

const ms = (iso: string | null | undefined) => (iso ? Date.parse(iso) : 0);

export class Redriver {
  constructor(private readonly deps: RedriverDeps) {}

  /**
   * One unfinished domain of a live job: re-sent when it shows no sign of life for the window (backoff after each
   * re-send), failed and refunded once the re-sends are used up. A pending domain's sign of life is its job's last
   * progress (a job whose other domains are moving has its messages flowing) or its last re-send; a running domain's is
   * its attempt's start or its last re-send, and never before the worker would take it over.
   */
  async domain(job: BulkJobRecord, domain: BulkDomainRecord, now: Date): Promise<DomainRedrive> {
    const { jobs, policy } = this.deps;
    const redrives = domain.redrives ?? 0;
    let due: number;
    if (domain.state === 'pending') due = redriveDueAt(policy, Math.max(ms(job.updatedAt), ms(domain.queuedAt ?? job.createdAt)), redrives);
    else if (domain.state === 'running') due = Math.max(redriveDueAt(policy, Math.max(ms(domain.startedAt), ms(domain.queuedAt)), redrives), ms(domain.startedAt) + this.deps.takeoverAfterMs);
    else return 'skipped';
    if (now.getTime() < due) return 'waiting';
    const at = now.toISOString();
    if (redrives >= policy.maxRedrives) {
      const claimed = await jobs.claimDomain(domain.jobId, domain.seq, at, new Date(now.getTime() - this.deps.takeoverAfterMs).toISOString());
      if (!claimed) return 'skipped';
      const outcome = await failDomain(this.deps, claimed, 'research_timeout', at);
      return outcome === 'failed' ? 'failed' : outcome;
    }
    if (!(await jobs.noteDomainRedrive(domain, at))) return 'skipped';
    await this.deps.domainQueue.enqueue([{ accountId: domain.accountId, jobId: domain.jobId, seq: domain.seq }]);
    return 'redriven';
  }

  /** Dead letters, then owed webhooks and pending aggregations (the sweeper runs the domains of each live job). */
  async redrive(): Promise<RedriveReport> {
    const report: RedriveReport = { domains: 0, webhooks: 0, aggregations: 0, abandonedWebhooks: 0, deadLetters: await this.drainDeadLetters() };
    const now = this.deps.clock.now();
    for await (const owed of this.deps.jobs.owedWebhooks()) {
      const result = await this.webhook(owed, now);
      if (result === 'redriven') report.webhooks++;
      if (result === 'abandoned') report.abandonedWebhooks++;
    }
    report.aggregations = await this.aggregations(now);
    return report;
  }

  /**
   * Drops what the dead-letter queues hold: each message names work the table still shows unfinished (a pending or
   * running domain, an owed webhook, a pending aggregation), which the same rule re-drives, or work already done. A
   * watchlist event for an account's endpoint has no such item to re-drive from: it is sent again as it was while its
   * 24-hour retry window lasts (the sender skips an event no longer pending), and dropped after. A message of another
   * shape is left in its queue (the dead-letter age alarm then tells an operator).
   */
  async drainDeadLetters(): Promise<number> {
    let drained = 0;
    const now = this.deps.clock.now().getTime();
    for (const queue of this.deps.deadLetterQueues ?? []) {
      for (let read = 0; read < DEAD_LETTERS_PER_PASS; ) {
        const messages = await queue.receive(10);
        if (messages.length === 0) break;
        read += messages.length;
        for (const message of messages) {
          const watchEvent = watchlistEvent(message.body);
          if (watchEvent) {
            if (now < Date.parse(watchEvent.firstAttemptAt) + WEBHOOK_RETRY_WINDOW_MS) await this.deps.webhookQueue.enqueue(watchEvent, 0);
          } else if (!isKnownWork(message.body)) continue;
          await message.remove();
          drained++;
        }
      }
    }
    return drained;
  }

  private async webhook(owed: OwedWebhook, now: Date): Promise<'waiting' | 'redriven' | 'abandoned' | 'dropped' | 'skipped'> {
    const { jobs, policy } = this.deps;
    const job = await jobs.getJob(owed.accountId, owed.jobId);
    if (!job?.webhookUrl || job.webhookState !== 'pending') {
      await jobs.dropOwedWebhook(owed.jobId);
      return 'dropped';
    }
    if (!job.finishedAt) return 'skipped'; // owed when the job ends; the end sends it
    const attempts = job.webhookAttempts ?? [];
    const last = attempts.at(-1);
    // The next attempt a live message would make: the backoff after the last one, or at once after the job ended.
    const expected = last ? ms(last.at) + webhookRetryDelaySeconds(attempts.length - 1) * 1000 : ms(job.finishedAt);
    if (now.getTime() < redriveDueAt(policy, Math.max(expected, ms(owed.redrivenAt)), owed.redrives)) return 'waiting';
    const at = now.toISOString();
    if (owed.redrives >= policy.maxRedrives) {
      await jobs.recordWebhookAttempt(owed.accountId, owed.jobId, { at, status: null, error: 'delivery lost: re-sent the most times allowed' }, 'abandoned');
      return 'abandoned';
    }
    if (!(await jobs.noteWebhookRedrive(owed, at))) return 'skipped';
    await this.sendWebhook(job, at);
    return 'redriven';
  }

  private sendWebhook(job: BulkJobRecord, at: string) {
    const attempts = job.webhookAttempts ?? [];
    return this.deps.webhookQueue.enqueue(
      { accountId: job.accountId, jobId: job.id, eventId: webhookEventId(job.id), firstAttemptAt: attempts[0]?.at ?? job.finishedAt ?? at, attempt: attempts.length, notBefore: at },
      0,
    );
  }

  private async aggregations(now: Date): Promise<number> {
    const { aggregation, policy } = this.deps;
    if (!aggregation) return 0;
    let sent = 0;
    for await (const pending of aggregation.pending.stale(new Date(now.getTime() - policy.afterMs).toISOString())) {
      if (pending.redrives >= policy.maxRedrives || now.getTime() < redriveDueAt(policy, ms(pending.sentAt), pending.redrives)) continue;
      if (!(await aggregation.pending.noteRedrive(pending, now.toISOString()))) continue;
      await aggregation.queue.enqueue({ accountId: pending.accountId, searchId: pending.searchId });
      sent++;
    }
    return sent;
  }

  /**
   * After a restart of the local runtime, whose queues lived in its memory: every unfinished domain of every live job,
   * every owed webhook of an ended job and every pending aggregation is sent again, at once and without counting as a
   * re-drive. Running domains are released first (pending again): the DATA_DIR lock proves their worker died with the
   * last run. Never for a service whose workers may still run (AWS, a live local runtime): use redrive() there.
   */
  async resume(): Promise<ResumeReport> {
    const { jobs } = this.deps;
    const report: ResumeReport = { domains: 0, released: 0, webhooks: 0, aggregations: 0, awaitingUploads: [] };
    const at = this.deps.clock.now().toISOString();
    for await (const { accountId, jobId } of jobs.activeJobs()) {
      const job = await jobs.getJob(accountId, jobId);
      if (job?.status === 'awaiting_upload' && job.uploadKey) report.awaitingUploads.push(job.uploadKey);
      if (job?.status !== 'queued' && job?.status !== 'running') continue;
      const seqs: number[] = [];
      for await (const domain of jobs.unfinishedDomains(jobId)) {
        if (domain.state === 'running') {
          if (!(await jobs.releaseDomain(domain, at))) continue;
          report.released++;
        }
        seqs.push(domain.seq);
      }
      await this.deps.domainQueue.enqueue(seqs.map((seq) => ({ accountId, jobId, seq })));
      report.domains += seqs.length;
    }
    for await (const owed of jobs.owedWebhooks()) {
      const job = await jobs.getJob(owed.accountId, owed.jobId);
      if (!job?.webhookUrl || job.webhookState !== 'pending') await jobs.dropOwedWebhook(owed.jobId);
      else if (job.finishedAt) {
        await this.sendWebhook(job, at);
        report.webhooks++;
      }
    }
    if (this.deps.aggregation) {
      for await (const pending of this.deps.aggregation.pending.stale(null)) {
        await this.deps.aggregation.queue.enqueue({ accountId: pending.accountId, searchId: pending.searchId });
        report.aggregations++;
      }
    }
    return report;
  }
}

/** A watchlist event's webhook message (WebhookService), or null. */
function watchlistEvent(body: string): WebhookMessage | null {
  try {
    const message = JSON.parse(body) as Partial<WebhookMessage> | null;
    const valid =
      message?.event === 'watchlist.changed' &&
      typeof message.accountId === 'string' &&
      typeof message.eventId === 'string' &&
      typeof message.attempt === 'number' &&
      !Number.isNaN(Date.parse(message.firstAttemptAt ?? '')) &&
      !Number.isNaN(Date.parse(message.notBefore ?? ''));
    if (!valid) return null;
    const { accountId, eventId, firstAttemptAt, attempt, notBefore } = message as WebhookMessage;
    return { accountId, event: 'watchlist.changed', eventId, firstAttemptAt, attempt, notBefore };
  } catch {
    return null;
  }
}

/** A bulk domain, webhook or aggregation message, as the service's own queues carry them. */
function isKnownWork(body: string): boolean {
  let message: Record<string, unknown>;
  try {
    message = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return false;
  }
  if (typeof message !== 'object' || message === null || typeof message.accountId !== 'string') return false;
  return (typeof message.jobId === 'string' && (typeof message.seq === 'number' || typeof message.eventId === 'string')) || typeof message.searchId === 'string';
}
