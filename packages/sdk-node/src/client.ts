// sdk-node: the Rivals client: one method per endpoint, async iterators over the paged lists, and the bulk helper.
// Browser-safe (the dashboard uses it): fetch and Web Crypto only; Node's file system is loaded only to read a path.
import type { ApiKeySummary, Balance, BulkJob, BulkJobSummary, BulkUploadAccepted, BulkUploadUrl, CreatedApiKey, Health, LookalikesRequest, SearchRequest, StoredSearch } from '@rivals/contracts';
import { BulkJobFailedError, RivalsError } from './errors.js';
import { Transport, type ClientOptions, type HttpRequest, type RequestOptions } from './transport.js';
import {
  BULK_TERMINAL,
  type BulkUploadOptions,
  type Change,
  type ChangesParams,
  type WebhookEndpoint,
  type HistoryItem,
  type HistoryParams,
  type LookalikesResponse,
  type SharedSearch,
  type MyCompanies,
  type Page,
  type PageParams,
  type SavedCompany,
  type SavedCompanyInput,
  type SearchResponse,
  type Share,
} from './types.js';

const changesQuery = ({ since, ...params }: ChangesParams) => ({ ...params, ...(since === undefined ? {} : { since: since instanceof Date ? since.toISOString() : since }) });

/** Largest body the API takes directly; bigger files go through a presigned upload (up to 50 MB). */
export const DIRECT_UPLOAD_MAX_BYTES = 5 * 1024 * 1024;

export interface BulkProgress {
  jobId: string;
  status: BulkJob['status'];
  totalDomains: number;
  completedDomains: number;
  failedDomains: number;
}

export interface BulkRunOptions extends BulkUploadOptions, RequestOptions {
  /** Called after the upload and on every poll. */
  onProgress?: (progress: BulkProgress) => void;
  /** Poll interval in milliseconds; default 2000. */
  pollIntervalMs?: number;
  /** Give up waiting after this many milliseconds; default: wait as long as it takes. */
  waitTimeoutMs?: number;
  /** Files larger than this go through a presigned upload; default 5 MB. */
  directMaxBytes?: number;
  /** Also download the results CSV when the job is done; default true. */
  download?: boolean;
}

const enc = encodeURIComponent;
const pick = (options: RequestOptions = {}): RequestOptions => ({ signal: options.signal, timeoutMs: options.timeoutMs, maxRetries: options.maxRetries, headers: options.headers });

export class Rivals {
  readonly transport: Transport;

  constructor(options: ClientOptions = {}) {
    this.transport = new Transport(options);
  }

  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  private async call<T>(request: HttpRequest): Promise<T> {
    return (await this.transport.request<T>(request)).data;
  }

  /** Pages through a list from its first page (or `cursor`) to its last, one request a page. */
  async *paginate<T>(path: string, params: PageParams & Record<string, unknown> = {}, options: RequestOptions = {}): AsyncGenerator<T> {
    let cursor = params.cursor ?? null;
    do {
      const page = await this.call<Page<T>>({ method: 'GET', path, query: { ...(params as Record<string, string | number>), cursor }, ...pick(options) });
      yield* page.items;
      cursor = page.nextCursor;
    } while (cursor);
  }

  // ---- service ----
  health(options?: RequestOptions): Promise<Health> {
    return this.call({ method: 'GET', path: '/api/health', auth: false, ...pick(options) });
  }

  openapi(options?: RequestOptions): Promise<Record<string, unknown>> {
    return this.call({ method: 'GET', path: '/api/openapi.json', auth: false, ...pick(options) });
  }

  // ---- search (1 credit) ----
  /**
   * Researches a domain's competitors: 1 credit, refunded if the search fails or finds none. Every call sends an
   * Idempotency-Key (generated unless given), so the SDK's retries never charge twice.
   */
  search(request: SearchRequest | string, options: RequestOptions = {}): Promise<SearchResponse> {
    return this.research('/api/v1/search', typeof request === 'string' ? { domain: request } : request, options);
  }

  /** A paid research call: always with an Idempotency-Key; the answer with the stored search's id and the request id. */
  private async research<T>(path: string, body: unknown, options: RequestOptions): Promise<T & { searchId: string | null; requestId: string | null; replayed: boolean }> {
    const response = await this.transport.request<T>({ method: 'POST', path, json: body, idempotencyKey: options.idempotencyKey ?? crypto.randomUUID(), ...pick(options) });
    return { ...response.data, searchId: response.headers.get('x-search-id'), requestId: response.requestId, replayed: response.headers.get('idempotent-replayed') === 'true' };
  }

  /**
   * Companies like 1..20 seed companies at once (a customer list, a portfolio), each with the seeds it is close to: 1
   * credit, refunded if nothing is found. Sends an Idempotency-Key like search().
   */
  lookalikes(request: LookalikesRequest | string[], options: RequestOptions = {}): Promise<LookalikesResponse> {
    return this.research('/api/v1/lookalikes', Array.isArray(request) ? { domains: request } : request, options);
  }

  balance(options?: RequestOptions): Promise<Balance> {
    return this.call({ method: 'GET', path: '/api/v1/balance', ...pick(options) });
  }

  // ---- searches, history, shares ----
  readonly searches = {
    /** A stored search with the evidence behind each competitor. Free. */
    get: (id: string, options?: RequestOptions): Promise<StoredSearch> => this.call({ method: 'GET', path: `/api/searches/${enc(id)}`, ...pick(options) }),
    /** A public read-only link to a search (the same live link when called again). */
    /** The search's public link; `url` is absolute (resolved against `baseUrl` should a server answer a relative one). */
    share: async (id: string, options?: RequestOptions): Promise<Share> => {
      const link: Share = await this.call({ method: 'POST', path: `/api/searches/${enc(id)}/share`, idempotent: true, ...pick(options) });
      return link.url?.startsWith('/') ? { ...link, url: `${this.baseUrl.replace(/\/+$/, '')}${link.url}` } : link;
    },
    unshare: (id: string, options?: RequestOptions): Promise<void> => this.call({ method: 'DELETE', path: `/api/searches/${enc(id)}/share`, ...pick(options) }),
    /** A shared search, read without a key. */
    shared: (token: string, options?: RequestOptions): Promise<SharedSearch> => this.call({ method: 'GET', path: `/api/shared/${enc(token)}`, auth: false, ...pick(options) }),
  };

  readonly history = {
    list: (params: HistoryParams = {}, options?: RequestOptions): Promise<Page<HistoryItem>> => this.call({ method: 'GET', path: '/api/history', query: { ...params }, ...pick(options) }),
    /** Every past search, newest first, fetched a page at a time. */
    iterate: (params: HistoryParams = {}, options?: RequestOptions): AsyncGenerator<HistoryItem> => this.paginate('/api/history', { ...params }, options),
  };

  // ---- account data ----
  readonly myCompanies = {
    /** Every company found across your searches, most often found first (up to 5,000). */
    list: (options?: RequestOptions): Promise<MyCompanies> => this.call({ method: 'GET', path: '/api/my-companies', ...pick(options) }),
    csv: (options?: RequestOptions): Promise<string> => this.call({ method: 'GET', path: '/api/my-companies', query: { format: 'csv' }, headers: { accept: 'text/csv' }, ...pick(options) }),
  };

  readonly saved = {
    list: (params: PageParams = {}, options?: RequestOptions): Promise<Page<SavedCompany>> => this.call({ method: 'GET', path: '/api/saved-companies', query: { ...params }, ...pick(options) }),
    iterate: (params: PageParams = {}, options?: RequestOptions): AsyncGenerator<SavedCompany> => this.paginate('/api/saved-companies', { ...params }, options),
    /** Saves a company; saving the same domain again updates the note (or name) given, and keeps its place. */
    add: (company: SavedCompanyInput, options?: RequestOptions): Promise<SavedCompany> => this.call({ method: 'POST', path: '/api/saved-companies', json: company, idempotent: true, ...pick(options) }),
    /** Changes a saved company's note or name (`null` clears one); NotFoundError when it is not saved. */
    update: (domain: string, changes: { note?: string | null; company?: string | null }, options?: RequestOptions): Promise<SavedCompany> =>
      this.call({ method: 'PATCH', path: `/api/saved-companies/${enc(domain)}`, json: changes, idempotent: true, ...pick(options) }),
    remove: (domain: string, options?: RequestOptions): Promise<void> => this.call({ method: 'DELETE', path: `/api/saved-companies/${enc(domain)}`, ...pick(options) }),
  };

  // ---- watchlist monitoring (free; docs/monitoring.md) ----
  readonly changes = {
    /** What the monitor found in the watched companies' competitors, newest first. */
    list: (params: ChangesParams = {}, options?: RequestOptions): Promise<Page<Change>> => this.call({ method: 'GET', path: '/api/changes', query: changesQuery(params), ...pick(options) }),
    /** Every change, newest first, fetched a page at a time. */
    iterate: (params: ChangesParams = {}, options?: RequestOptions): AsyncGenerator<Change> => this.paginate('/api/changes', changesQuery(params), options),
  };

  readonly webhookEndpoint = {
    /** Sets the account's https endpoint for `watchlist.changed` events (create a webhook secret first). */
    set: (url: string, options?: RequestOptions): Promise<WebhookEndpoint> => this.call({ method: 'PUT', path: '/api/webhook-endpoint', json: { url }, ...pick(options) }),
    /** The endpoint, or null when none is set. */
    get: async (options?: RequestOptions): Promise<WebhookEndpoint | null> => {
      try {
        return await this.call<WebhookEndpoint>({ method: 'GET', path: '/api/webhook-endpoint', ...pick(options) });
      } catch (error) {
        if (error instanceof RivalsError && error.status === 404) return null;
        throw error;
      }
    },
    remove: (options?: RequestOptions): Promise<void> => this.call({ method: 'DELETE', path: '/api/webhook-endpoint', ...pick(options) }),
  };

  readonly keys = {
    list: (params: PageParams = {}, options?: RequestOptions): Promise<Page<ApiKeySummary>> => this.call({ method: 'GET', path: '/api/auth/api-keys', query: { ...params }, ...pick(options) }),
    iterate: (params: PageParams = {}, options?: RequestOptions): AsyncGenerator<ApiKeySummary> => this.paginate('/api/auth/api-keys', { ...params }, options),
    /** A new key; its secret is in `key`, shown this once. */
    create: (params: { name?: string } = {}, options?: RequestOptions): Promise<CreatedApiKey> => this.call({ method: 'POST', path: '/api/auth/api-keys', json: params, ...pick(options) }),
    revoke: (id: string, options?: RequestOptions): Promise<void> => this.call({ method: 'DELETE', path: `/api/auth/api-keys/${enc(id)}`, ...pick(options) }),
  };

  readonly webhookSecret = {
    /** Creates or rotates the account's webhook secret (`whsec_...`, shown once). */
    rotate: (options?: RequestOptions): Promise<{ secret: string }> => this.call({ method: 'POST', path: '/api/webhook-secret', ...pick(options) }),
  };

  // ---- bulk (1 credit a domain with results) ----
  readonly bulk = {
    /** Uploads a CSV (up to 5 MB) directly; the job's credits are reserved up front. */
    upload: (csv: string | Uint8Array, params: BulkUploadOptions = {}, options: RequestOptions = {}): Promise<BulkUploadAccepted> =>
      this.call({
        method: 'POST',
        path: '/api/bulk/upload',
        // The query carries the filters' lists comma-separated.
        query: {
          limit: params.limit, filename: params.filename, webhookUrl: params.webhookUrl, minMatchScore: params.minMatchScore, exclude: params.exclude?.join(','), types: params.types?.join(','), countries: params.countries?.join(','),
          sizes: params.sizes?.join(','), foundedFrom: params.foundedFrom, foundedTo: params.foundedTo, ownership: params.ownership?.join(','),
        },
        body: csv,
        contentType: 'text/csv',
        idempotencyKey: options.idempotencyKey ?? crypto.randomUUID(),
        ...pick(options),
      }),
    /**
     * A presigned URL for a larger CSV (up to 50 MB) of exactly `sizeBytes` bytes (the URL accepts no other size); the
     * job starts when the file lands.
     */
    createUploadUrl: (params: BulkUploadOptions & { sizeBytes: number }, options?: RequestOptions): Promise<BulkUploadUrl> =>
      this.call({ method: 'POST', path: '/api/bulk/upload-url', json: params, ...pick(options) }),
    /** PUTs the file to a presigned URL (no API key: the URL is the credential; its size must be the one asked for). */
    putFile: async (uploadUrl: string, csv: string | Uint8Array, options?: RequestOptions): Promise<void> => {
      await this.call({ method: 'PUT', path: '', url: uploadUrl, body: csv, contentType: 'text/csv', idempotent: true, ...pick(options) });
    },
    get: (jobId: string, params: PageParams = {}, options?: RequestOptions): Promise<BulkJob> => this.call({ method: 'GET', path: `/api/bulk/jobs/${enc(jobId)}`, query: { ...params }, ...pick(options) }),
    /** Every result row of a job. */
    results: (jobId: string, params: PageParams = {}, options?: RequestOptions) => this.paginateJob(jobId, params, options),
    list: (params: PageParams = {}, options?: RequestOptions): Promise<Page<BulkJobSummary>> => this.call({ method: 'GET', path: '/api/bulk/jobs', query: { ...params }, ...pick(options) }),
    iterate: (params: PageParams = {}, options?: RequestOptions): AsyncGenerator<BulkJobSummary> => this.paginate('/api/bulk/jobs', { ...params }, options),
    /** The results as CSV: one row per competitor, one row with `error` per failed domain. */
    download: (jobId: string, options?: RequestOptions): Promise<string> => this.call({ method: 'GET', path: `/api/bulk/jobs/${enc(jobId)}/download`, headers: { accept: 'text/csv' }, ...pick(options) }),
    /** Cancels a queued or running job; domains not yet started are refunded. */
    cancel: (jobId: string, options?: RequestOptions): Promise<void> => this.call({ method: 'DELETE', path: `/api/bulk/jobs/${enc(jobId)}`, ...pick(options) }),
    /** Polls a job until it ends, reporting progress; a job that could not run throws BulkJobFailedError. */
    wait: (jobId: string, options: Omit<BulkRunOptions, 'limit' | 'webhookUrl' | 'directMaxBytes' | 'download'> = {}) => this.waitForJob(jobId, options),
    /**
     * The whole round: uploads `file` (a path, or the CSV itself as a Buffer), directly or through a presigned URL
     * by size, waits for the job with progress callbacks and downloads the results.
     */
    run: (file: string | Uint8Array, options: BulkRunOptions = {}) => this.runBulk(file, options),
  };

  private async *paginateJob(jobId: string, params: PageParams, options?: RequestOptions): AsyncGenerator<BulkJob['results'][number]> {
    let cursor = params.cursor ?? null;
    do {
      const job = await this.bulk.get(jobId, { limit: params.limit, cursor: cursor ?? undefined }, options);
      yield* job.results;
      cursor = job.nextCursor;
    } while (cursor);
  }

  private async waitForJob(jobId: string, options: BulkRunOptions): Promise<BulkJob> {
    const started = Date.now();
    for (;;) {
      const job = await this.bulk.get(jobId, { limit: 1 }, options);
      options.onProgress?.({ jobId, status: job.status, totalDomains: job.totalDomains, completedDomains: job.completedDomains, failedDomains: job.failedDomains });
      if (job.status === 'failed') throw new BulkJobFailedError({ code: job.error ?? 'bulk_job_failed', message: `Bulk job ${jobId} failed${job.error ? `: ${job.error}` : ''}.`, job });
      if (BULK_TERMINAL.includes(job.status)) return job;
      if (options.waitTimeoutMs !== undefined && Date.now() - started > options.waitTimeoutMs)
        throw new RivalsError({ code: 'timeout', message: `Bulk job ${jobId} is still ${job.status} after ${options.waitTimeoutMs} ms.` });
      await new Promise((resolve) => setTimeout(resolve, options.pollIntervalMs ?? 2000));
      options.signal?.throwIfAborted();
    }
  }

  private async runBulk(file: string | Uint8Array, options: BulkRunOptions): Promise<{ jobId: string; job: BulkJob; csv: string | null }> {
    const content = typeof file === 'string' ? await (await import('node:fs/promises')).readFile(file) : file;
    const filename = options.filename ?? (typeof file === 'string' ? file.split(/[\\/]/).pop() : undefined);
    const params: BulkUploadOptions = {
      limit: options.limit, filename, webhookUrl: options.webhookUrl, exclude: options.exclude, types: options.types, minMatchScore: options.minMatchScore, countries: options.countries,
      sizes: options.sizes, foundedFrom: options.foundedFrom, foundedTo: options.foundedTo, ownership: options.ownership,
    };
    let jobId: string;
    if (content.byteLength <= (options.directMaxBytes ?? DIRECT_UPLOAD_MAX_BYTES)) {
      jobId = (await this.bulk.upload(content, params, options)).jobId;
    } else {
      const target = await this.bulk.createUploadUrl({ ...params, sizeBytes: content.byteLength }, options);
      await this.bulk.putFile(target.uploadUrl, content, options);
      jobId = target.jobId;
    }
    const job = await this.waitForJob(jobId, options);
    const csv = options.download === false || job.status !== 'completed' ? null : await this.bulk.download(jobId, options);
    return { jobId, job, csv };
  }
}
