// core use case: the completion webhook of a bulk job. Stripe-style signature (`Rivals-Signature: t=<unix>,v1=<hex
// HMAC-SHA256 of "<t>.<body>">`), per-account secret, retried with exponential backoff for 24 hours, every attempt
// recorded on the job.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { BulkJobEvent } from '@rivals/contracts';
import type { Clock, IdGenerator } from '../ports.js';
import type { WatchEventStore, WebhookEndpointStore } from '../monitor/ports.js';
import type { BulkJobStore, WebhookMessage, WebhookQueue, WebhookSecretStore, WebhookTransport } from './ports.js';
import { jobSummary } from './job-summary.js';

export const SIGNATURE_HEADER = 'Rivals-Signature';
/** How long a delivery is retried after its first attempt. */
export const WEBHOOK_RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;
const FIRST_RETRY_SECONDS = 30;
const MAX_BACKOFF_SECONDS = 6 * 60 * 60;
/** SQS's longest message delay; longer waits are chained. */
const MAX_QUEUE_DELAY_SECONDS = 15 * 60;

export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/** Checks a Rivals-Signature header against the raw body: the HMAC matches and the timestamp is within the tolerance. */
export function verifySignature(header: string, body: string, secret: string, options: { toleranceSeconds?: number; now?: number } = {}): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.trim().split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1) return false;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - t) > (options.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${body}`).digest('hex'));
  const given = Buffer.from(parts.v1);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Attempt n failed: the next one waits this long (30 s, doubling, at most 6 hours). */
export const webhookRetryDelaySeconds = (attempt: number) => Math.min(FIRST_RETRY_SECONDS * 2 ** attempt, MAX_BACKOFF_SECONDS);

/** A job has one completion event; its id derives from the job's, so that a re-sent message carries the same id. */
export const webhookEventId = (jobId: string) => `evt_${jobId.replace(/^job_/, '')}`;

export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

/** Owes the job's completion event to its webhook, when it has one. */
export async function enqueueWebhook(deps: { jobs: BulkJobStore; webhookQueue: WebhookQueue; clock: Clock; ids: IdGenerator }, accountId: string, jobId: string) {
  const job = await deps.jobs.getJob(accountId, jobId);
  if (!job?.webhookUrl || job.webhookState !== 'pending') return;
  const now = deps.clock.now().toISOString();
  await deps.webhookQueue.enqueue({ accountId, jobId, eventId: webhookEventId(jobId), firstAttemptAt: now, attempt: 0, notBefore: now }, 0);
}

export interface WebhookServiceDeps {
  jobs: BulkJobStore;
  secrets: WebhookSecretStore;
  queue: WebhookQueue;
  transport: WebhookTransport;
  clock: Clock;
  /** Watchlist events (docs/monitoring.md): sent to the account's endpoint with the same signature and retries. */
  watch?: { events: WatchEventStore; endpoints: WebhookEndpointStore };
}

export class WebhookService {
  constructor(private readonly deps: WebhookServiceDeps) {}

  /** POST /api/webhook-secret: creates or rotates the account's signing secret; shown once. */
  async rotateSecret(accountId: string): Promise<{ secret: string }> {
    const secret = newWebhookSecret();
    await this.deps.secrets.put(accountId, secret, this.deps.clock.now().toISOString());
    return { secret };
  }

  /** One delivery attempt of a queued webhook message; schedules the next one when it fails. */
  async deliver(message: WebhookMessage): Promise<void> {
    const { jobs, queue, clock } = this.deps;
    const now = clock.now();
    const wait = Math.ceil((Date.parse(message.notBefore) - now.getTime()) / 1000);
    if (wait > 0) return queue.enqueue(message, Math.min(wait, MAX_QUEUE_DELAY_SECONDS));

    if (message.event === 'watchlist.changed') {
      const watch = this.deps.watch;
      if (!watch) throw new Error('WebhookService: watchlist events are not wired here');
      const stored = await watch.events.getEvent(message.accountId, message.eventId);
      if (stored?.state !== 'pending') return;
      const endpoint = await watch.endpoints.getEndpoint(message.accountId);
      // The endpoint was removed since: the event is dropped, not sent anywhere else.
      if (!endpoint) return watch.events.recordEventAttempt(message.accountId, message.eventId, { at: now.toISOString(), status: null, error: 'no webhook endpoint' }, 'abandoned');
      return this.attempt(message, endpoint.url, stored.body, now, (attempt, state) => watch.events.recordEventAttempt(message.accountId, message.eventId, attempt, state));
    }

    const job = message.jobId ? await jobs.getJob(message.accountId, message.jobId) : null;
    if (!job?.webhookUrl || job.webhookState !== 'pending') return;
    const event: BulkJobEvent = { id: message.eventId, type: 'bulk_job.completed', createdAt: message.firstAttemptAt, data: { job: jobSummary(job) } };
    return this.attempt(message, job.webhookUrl, JSON.stringify(event), now, (attempt, state) => jobs.recordWebhookAttempt(message.accountId, job.id, attempt, state));
  }

  /** Signs and posts `body`, records the attempt, and queues the next one (exponential backoff) unless it is done. */
  private async attempt(
    message: WebhookMessage,
    url: string,
    body: string,
    now: Date,
    record: (attempt: { at: string; status: number | null; error: string | null }, state: 'pending' | 'delivered' | 'abandoned') => Promise<void>,
  ): Promise<void> {
    const secret = await this.deps.secrets.get(message.accountId);
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'Rivals-Webhooks/1.0' };
    if (secret) headers[SIGNATURE_HEADER] = signatureHeader(secret, body, Math.floor(now.getTime() / 1000));

    let status: number | null = null;
    let error: string | null = null;
    try {
      status = (await this.deps.transport.post(url, body, headers)).status;
    } catch (e) {
      error = (e as Error).message.slice(0, 200);
    }
    const delivered = status !== null && status >= 200 && status < 300;
    const backoff = webhookRetryDelaySeconds(message.attempt);
    const next = new Date(now.getTime() + backoff * 1000);
    const giveUp = !delivered && next.getTime() > Date.parse(message.firstAttemptAt) + WEBHOOK_RETRY_WINDOW_MS;
    await record({ at: now.toISOString(), status, error }, delivered ? 'delivered' : giveUp ? 'abandoned' : 'pending');
    if (delivered || giveUp) return;
    await this.deps.queue.enqueue({ ...message, attempt: message.attempt + 1, notBefore: next.toISOString() }, Math.min(backoff, MAX_QUEUE_DELAY_SECONDS));
  }
}
