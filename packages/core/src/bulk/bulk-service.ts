// core use case: bulk jobs as the API sees them. Upload (body or presigned S3 PUT), reserve the whole job's credits in
// one write, fan the domains out to the queue; list, read, cancel and download jobs.
import type { BulkJob, BulkUploadAccepted, BulkUploadUrl, BulkDomainResult, SearchFilters } from '@rivals/contracts';
import { BULK_CSV_COLUMNS, csvRow, firmographicsCells, type Firmographics } from '@rivals/contracts';
import { ApiError, insufficientCredits, invalidRequest, notFound } from '../errors.js';
import type { Clock, CreditsLedger, IdGenerator } from '../ports.js';
import { parseDomainsCsv, type ParsedDomains } from './csv.js';
import type { PageRequest, SearchRecord } from '../ports.js';
import type { BulkDomainRecord, BulkJobRecord, BulkJobStore, DomainQueue, UploadStore, WebhookQueue, WebhookSecretStore, WebhookUrlGuard } from './ports.js';
import { jobSummary } from './job-summary.js';
import { normalizeFilters } from '../services/search-service.js';
import { enqueueWebhook } from './webhooks.js';

export interface BulkServiceDeps {
  jobs: BulkJobStore;
  ledger: CreditsLedger;
  queue: DomainQueue;
  uploads: UploadStore;
  webhookQueue: WebhookQueue;
  secrets: WebhookSecretStore;
  clock: Clock;
  ids: IdGenerator;
  maxDomains: number;
  maxUploadBytes: number;
  uploadUrlTtlSeconds: number;
  /** Checks a job's webhook URL where it leads (absent: checked only at delivery). */
  webhookUrls?: WebhookUrlGuard;
}

export interface UploadOptions extends SearchFilters {
  limit: number;
  webhookUrl?: string | undefined;
  filename?: string | undefined;
}

/** Jobs an account may hold awaiting their upload at once (each holds a live upload URL); one more is 409 conflict. */
export const MAX_AWAITING_UPLOADS = 10;

const JOB_ID = /^job_[0-9a-z]{26}$/;
const UPLOAD_KEY = /^uploads\/(acct_[0-9a-z_]+)\/(job_[0-9a-z]{26})\.csv$/;

export const uploadKeyOf = (accountId: string, jobId: string) => `uploads/${accountId}/${jobId}.csv`;

const domainResult = (d: BulkDomainRecord): BulkDomainResult => ({
  domain: d.domain,
  status: d.state,
  searchId: d.state === 'pending' || d.state === 'cancelled' ? null : d.searchId,
  totalCompetitors: d.totalCompetitors,
  likelyCompetitors: d.likelyCompetitors,
  error: d.error,
  reason: d.reason ?? null,
});

export class BulkService {
  constructor(private readonly deps: BulkServiceDeps) {}

  private newJob(accountId: string, options: UploadOptions, now: string, overrides: Partial<BulkJobRecord>): BulkJobRecord {
    return {
      id: this.deps.ids.next('job'),
      accountId,
      status: 'queued',
      limit: options.limit,
      // Checked here, before anything is reserved: an excluded value that is not a domain is 400 invalid_domain.
      filters: normalizeFilters(options) ?? null,
      filename: options.filename ?? null,
      webhookUrl: options.webhookUrl ?? null,
      totalDomains: 0,
      remainingDomains: 0,
      completedDomains: 0,
      failedDomains: 0,
      cancelledDomains: 0,
      creditsReserved: 0,
      creditsCharged: 0,
      creditsRefunded: 0,
      rejectedRows: [],
      error: null,
      createdAt: now,
      updatedAt: now,
      finishedAt: null,
      uploadKey: null,
      uploadExpiresAt: null,
      webhookAttempts: [],
      webhookState: null,
      ...overrides,
    };
  }

  /** A webhook is signed with the account's secret, so one must exist before a webhookUrl is accepted. */
  private async checkWebhook(accountId: string, webhookUrl: string | undefined) {
    if (!webhookUrl) return;
    const problem = await this.deps.webhookUrls?.check(webhookUrl);
    if (problem) throw invalidRequest(`webhookUrl cannot be used: ${problem}.`, [{ field: 'webhookUrl', problem }]);
    if (!(await this.deps.secrets.has(accountId)))
      throw invalidRequest('Create a webhook signing secret first (POST /api/webhook-secret).', [{ field: 'webhookUrl', problem: 'no signing secret' }]);
  }

  private domainsOf(jobId: string, accountId: string, parsed: ParsedDomains): BulkDomainRecord[] {
    return parsed.domains.map((domain, i) => ({
      jobId,
      accountId,
      seq: i + 1,
      domain,
      state: 'pending',
      searchId: this.deps.ids.next('srch'),
      attempts: 0,
      startedAt: null,
      totalCompetitors: null,
      likelyCompetitors: null,
      error: null,
    }));
  }

  /** Enqueues every domain; when that fails, the job is cancelled and its credits given back before the error surfaces. */
  private async fanOut(job: BulkJobRecord) {
    try {
      await this.deps.queue.enqueue(Array.from({ length: job.totalDomains }, (_, i) => ({ accountId: job.accountId, jobId: job.id, seq: i + 1 })));
    } catch (error) {
      const at = this.deps.clock.now().toISOString();
      await this.deps.jobs.cancelJob(job.accountId, job.id, at);
      await this.deps.jobs.cancelPendingDomains(job, at);
      await this.deps.jobs.finishJobIfDone(job.accountId, job.id, at);
      throw new ApiError('internal_error', 'The job could not be queued; its credits were refunded.', { refunded: true }, { cause: error });
    }
  }

  /** POST /api/bulk/upload: parse, reserve, fan out. 402 with nothing created when the balance is short. */
  async upload(accountId: string, csv: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>, options: UploadOptions): Promise<BulkUploadAccepted> {
    await this.checkWebhook(accountId, options.webhookUrl);
    const parsed = await parseDomainsCsv(csv, { maxDomains: this.deps.maxDomains });
    const cost = parsed.domains.length;
    const balance = await this.deps.ledger.balance(accountId);
    if (balance < cost) throw insufficientCredits(balance, cost);

    const now = this.deps.clock.now().toISOString();
    const job = this.newJob(accountId, options, now, {
      totalDomains: cost,
      remainingDomains: cost,
      creditsReserved: cost,
      rejectedRows: parsed.rejectedRows,
      webhookState: options.webhookUrl ? 'pending' : null,
    });
    // Domains first: a crash before the reservation leaves unreachable rows and no charge.
    await this.deps.jobs.putDomains(this.domainsOf(job.id, accountId, parsed));
    await this.deps.jobs.createJob(job);
    await this.fanOut(job);
    return {
      jobId: job.id,
      status: 'queued',
      totalDomains: cost,
      rejectedRows: parsed.rejectedRows,
      creditsReserved: cost,
      creditsRemaining: await this.deps.ledger.balance(accountId),
    };
  }

  /** POST /api/bulk/upload-url: an awaiting_upload job and a presigned PUT; nothing is charged until the file lands. */
  async createUploadUrl(accountId: string, options: UploadOptions & { sizeBytes: number }): Promise<BulkUploadUrl> {
    if (options.sizeBytes > this.deps.maxUploadBytes)
      throw new ApiError('payload_too_large', `An uploaded CSV may be at most ${this.deps.maxUploadBytes / 1024 / 1024} MB.`, { details: [{ field: 'sizeBytes', problem: 'too large' }] });
    await this.checkWebhook(accountId, options.webhookUrl);
    const now = this.deps.clock.now();
    // Only jobs made within one URL lifetime can still await their file (older ones have expired).
    const since = new Date(now.getTime() - this.deps.uploadUrlTtlSeconds * 1000).toISOString();
    if ((await this.deps.jobs.countAwaitingJobs(accountId, since)) >= MAX_AWAITING_UPLOADS)
      throw new ApiError(
        'conflict',
        `This account already has ${MAX_AWAITING_UPLOADS} jobs awaiting their upload; upload their files, or let their URLs expire (${this.deps.uploadUrlTtlSeconds / 60} minutes), first.`,
      );
    const expiresAt = new Date(now.getTime() + this.deps.uploadUrlTtlSeconds * 1000).toISOString();
    const job = this.newJob(accountId, options, now.toISOString(), { status: 'awaiting_upload', uploadExpiresAt: expiresAt });
    job.uploadKey = uploadKeyOf(accountId, job.id);
    job.webhookState = options.webhookUrl ? 'pending' : null;
    await this.deps.jobs.createAwaitingJob(job);
    const uploadUrl = await this.deps.uploads.presignPut(job.uploadKey, 'text/csv', options.sizeBytes, this.deps.uploadUrlTtlSeconds);
    return { jobId: job.id, uploadUrl, expiresAt };
  }

  /**
   * An object landed in the upload bucket (S3 ObjectCreated). Starts its job, or fails it with nothing charged. S3 may
   * deliver an event twice: only an awaiting_upload job moves.
   */
  async uploadLanded(key: string): Promise<void> {
    const match = UPLOAD_KEY.exec(key);
    if (!match) return;
    const [, accountId, jobId] = match as unknown as [string, string, string];
    const job = await this.deps.jobs.getJob(accountId, jobId);
    if (!job || job.status !== 'awaiting_upload') return;

    const fail = async (error: string) => {
      if (await this.deps.jobs.failAwaitingJob(accountId, jobId, error, this.deps.clock.now().toISOString())) await this.notify(accountId, jobId);
    };
    const object = await this.deps.uploads.stat(job.uploadKey!);
    if (object === null) return;
    if (object.size > this.deps.maxUploadBytes) return fail('upload_too_large');

    let parsed: ParsedDomains;
    try {
      // The version just checked, and no more than the cap of it: a file replaced or grown since is not read.
      const bytes = await this.deps.uploads.read(job.uploadKey!, { etag: object.etag, maxBytes: this.deps.maxUploadBytes });
      parsed = await parseDomainsCsv(bytes, { maxDomains: this.deps.maxDomains });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const problem = error.extra.details?.[0]?.problem;
      if (problem === 'too large') return fail('upload_too_large');
      if (problem === 'changed') return fail('upload_changed');
      const reason = { payload_too_large: 'too_many_domains', unsupported_media_type: 'not_csv' } as Record<string, string>;
      return fail(reason[error.code] ?? (/no valid domain/.test(error.message) ? 'no_valid_domains' : 'invalid_csv'));
    }
    await this.deps.jobs.putDomains(this.domainsOf(jobId, accountId, parsed));
    const at = this.deps.clock.now().toISOString();
    const started = await this.deps.jobs.startAwaitingJob(accountId, jobId, { totalDomains: parsed.domains.length, rejectedRows: parsed.rejectedRows, at });
    if (started === 'insufficient_credits') return fail('insufficient_credits');
    if (started === 'not_awaiting') return;
    const queued = await this.deps.jobs.getJob(accountId, jobId);
    if (queued) await this.fanOut(queued);
  }

  async list(accountId: string, page: PageRequest) {
    const { items, nextCursor } = await this.deps.jobs.listJobs(accountId, page);
    return { items: items.map(jobSummary), nextCursor };
  }

  private async job(accountId: string, jobId: string): Promise<BulkJobRecord> {
    const job = JOB_ID.test(jobId) ? await this.deps.jobs.getJob(accountId, jobId) : null;
    if (!job) throw notFound('job');
    return job;
  }

  async get(accountId: string, jobId: string, page: PageRequest): Promise<BulkJob> {
    const job = await this.job(accountId, jobId);
    const { items, nextCursor } = await this.deps.jobs.listDomains(job.id, page);
    return { ...jobSummary(job), rejectedRows: job.rejectedRows, webhookAttempts: job.webhookAttempts, results: items.map(domainResult), nextCursor };
  }

  /** DELETE /api/bulk/jobs/:id: a queued or running job is cancelled and its pending domains refunded at once. */
  async cancel(accountId: string, jobId: string): Promise<void> {
    const job = await this.job(accountId, jobId);
    const at = this.deps.clock.now().toISOString();
    if (job.status === 'queued' || job.status === 'running') await this.deps.jobs.cancelJob(accountId, jobId, at);
    // Also after a crash between the two writes: a cancelled job's pending domains are refunded by whoever comes next.
    const current = await this.deps.jobs.getJob(accountId, jobId);
    if (current?.status !== 'cancelled') return;
    await this.deps.jobs.cancelPendingDomains(current, at);
    if (await this.deps.jobs.finishJobIfDone(accountId, jobId, at)) await this.notify(accountId, jobId);
  }

  /** GET /api/bulk/jobs/:id/download: CSV lines, produced page by page (never the whole file in memory at once). */
  async *download(accountId: string, jobId: string, searches: { get(accountId: string, searchId: string): Promise<Pick<SearchRecord, 'competitors'> | null> }): AsyncGenerator<string> {
    const job = await this.job(accountId, jobId);
    yield `${csvRow(BULK_CSV_COLUMNS)}\r\n`;
    for await (const d of this.deps.jobs.allDomains(job.id)) {
      if (d.state === 'succeeded') {
        const search = await searches.get(accountId, d.searchId);
        for (const c of search?.competitors ?? []) {
          const parent = c.evidence?.parentCompany;
          yield `${csvRow([d.domain, c.rank, parent ?? c.company, parent ? c.company : '', c.domain, c.matchScore, c.type, c.confidence, c.likelyCompetitor, '', '', ...firmographicsCells(c.firmographics)])}\r\n`;
        }
      } else if (d.state === 'failed' || d.state === 'cancelled') {
        yield `${csvRow([d.domain, '', '', '', '', '', '', '', '', d.error ?? d.state, d.reason ?? '', ...firmographicsCells(undefined)])}\r\n`;
      }
    }
  }

  private notify(accountId: string, jobId: string) {
    return enqueueWebhook(this.deps, accountId, jobId);
  }
}
