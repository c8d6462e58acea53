// core: the ports of bulk research. Adapters (db, aws) implement them; the bulk services never import adapters.
import type { DomainState, FailureReason, JobStatus, RejectedRow, SearchFilters, WebhookAttempt } from '@rivals/contracts';
import type { Page, PageRequest, SearchRecord } from '../ports.js';

export interface BulkJobRecord {
  id: string;
  accountId: string;
  status: JobStatus;
  /** Per-domain result count, counted after the filters. */
  limit: number;
  /** Search filters of every domain (exclude normalised), null for none. */
  filters: SearchFilters | null;
  filename: string | null;
  webhookUrl: string | null;
  totalDomains: number;
  /** Domains without an outcome yet; the job ends when it reaches 0. */
  remainingDomains: number;
  completedDomains: number;
  failedDomains: number;
  cancelledDomains: number;
  creditsReserved: number;
  creditsCharged: number;
  creditsRefunded: number;
  rejectedRows: RejectedRow[];
  error: string | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
  /** Presigned uploads: the object key and when the URL expires. */
  uploadKey: string | null;
  uploadExpiresAt: string | null;
  webhookAttempts: WebhookAttempt[];
  /** pending while a completion event is owed to webhookUrl; delivered or abandoned after. */
  webhookState: 'pending' | 'delivered' | 'abandoned' | null;
}

export interface BulkDomainRecord {
  jobId: string;
  accountId: string;
  /** 1-based position in the job (file order). */
  seq: number;
  domain: string;
  state: DomainState;
  /** The stored search of this domain, fixed when the job is created, so that every delivery uses the same one. */
  searchId: string;
  attempts: number;
  startedAt: string | null;
  /** When its message was last re-sent by the re-drive (absent: only the upload's send), and how many times. */
  queuedAt?: string | null;
  redrives?: number;
  totalCompetitors: number | null;
  likelyCompetitors: number | null;
  error: string | null;
  /** For no_competitors_found: why nothing was found. */
  reason?: FailureReason | null;
}

/** The outcome of an attempt to fail a running domain. */
export type DomainFailure = 'refunded' | 'search-succeeded' | 'not-running';

/** Bulk jobs and their domains. Every state change is conditional, so that a redelivered message changes nothing. */
export interface BulkJobStore {
  /** Writes the job's domains, pending. Called before the job exists, so that a crash leaves no charged job short of domains. */
  putDomains(domains: BulkDomainRecord[]): Promise<void>;
  /** One transaction: takes `creditsReserved` credits, creates the job (queued), writes the ledger entry. Throws insufficient_credits with nothing written. */
  createJob(job: BulkJobRecord): Promise<void>;
  /** Creates an awaiting_upload job (nothing charged). */
  createAwaitingJob(job: BulkJobRecord): Promise<void>;
  /** One transaction: reserves credits and moves an awaiting_upload job to queued with its counts. */
  startAwaitingJob(
    accountId: string,
    jobId: string,
    counts: { totalDomains: number; rejectedRows: RejectedRow[]; at: string },
  ): Promise<'started' | 'insufficient_credits' | 'not_awaiting'>;
  /** Moves a job that has not been charged (awaiting_upload) to failed. False when it was not awaiting. */
  failAwaitingJob(accountId: string, jobId: string, error: string, at: string): Promise<boolean>;
  getJob(accountId: string, jobId: string): Promise<BulkJobRecord | null>;
  listJobs(accountId: string, page: PageRequest): Promise<Page<BulkJobRecord>>;
  /** How many of the account's jobs created at or after `since` still await their upload. */
  countAwaitingJobs(accountId: string, since: string): Promise<number>;
  listDomains(jobId: string, page: PageRequest): Promise<Page<BulkDomainRecord>>;
  /** Every domain of a job in file order, page by page (downloads). */
  allDomains(jobId: string): AsyncIterable<BulkDomainRecord>;
  /** pending -> running, or a running domain whose attempt started before `staleBefore` (its worker died) -> running again. */
  claimDomain(jobId: string, seq: number, at: string, staleBefore: string): Promise<BulkDomainRecord | null>;
  /** queued -> running (the first claimed domain); nothing otherwise. */
  markRunning(accountId: string, jobId: string, at: string): Promise<void>;
  /** The domain's stored search, running; nothing when it exists already (a retried attempt). */
  startSearch(search: Omit<SearchRecord, 'status'>): Promise<void>;
  /** running -> succeeded, counted on the job; the search must be settled already. False when it was not running. */
  succeedDomain(domain: BulkDomainRecord, totals: { totalCompetitors: number; likelyCompetitors: number }, at: string): Promise<boolean>;
  /** running -> failed, its search failed, its credit refunded and counted, in one transaction. */
  failDomain(domain: BulkDomainRecord, error: string, at: string, reason?: FailureReason): Promise<DomainFailure>;
  /** Ends the job when every domain has an outcome. Returns the ended job to the one caller that ended it, else null. */
  finishJobIfDone(accountId: string, jobId: string, at: string): Promise<BulkJobRecord | null>;
  /** queued|running -> cancelled. False when the job was in another state. */
  cancelJob(accountId: string, jobId: string, at: string): Promise<boolean>;
  /** pending -> cancelled for every pending domain, each refunded; returns how many. */
  cancelPendingDomains(job: BulkJobRecord, at: string): Promise<number>;
  /** Jobs not yet ended (awaiting_upload, queued, running), for the sweeper. */
  activeJobs(): AsyncIterable<{ accountId: string; jobId: string }>;
  /** Domains of a job still pending or running. */
  unfinishedDomains(jobId: string): AsyncIterable<BulkDomainRecord>;
  /** Records an attempt; a final state (delivered, abandoned) also drops the job's owed-webhook marker. */
  recordWebhookAttempt(accountId: string, jobId: string, attempt: WebhookAttempt, state: BulkJobRecord['webhookState']): Promise<void>;
  /**
   * Notes that the domain's message is being sent again: queuedAt = at, redrives + 1, conditioned on the domain being
   * as read (same state, attempts and redrives), so that two re-drivers never both count one re-drive. False otherwise.
   */
  noteDomainRedrive(domain: BulkDomainRecord, at: string): Promise<boolean>;
  /** running -> pending for an attempt known dead (the local runtime's restart: the DATA_DIR lock proves it). */
  releaseDomain(domain: BulkDomainRecord, at: string): Promise<boolean>;
  /** Jobs whose completion webhook is still owed (markers written with jobs that have a webhookUrl). */
  owedWebhooks(): AsyncIterable<OwedWebhook>;
  /** Notes a re-drive of the job's webhook (conditioned on `redrives` as read); false when another re-driver did. */
  noteWebhookRedrive(owed: OwedWebhook, at: string): Promise<boolean>;
  /** Drops an owed-webhook marker whose job no longer owes it (a crash between the attempt and the marker's delete). */
  dropOwedWebhook(jobId: string): Promise<void>;
}

export interface OwedWebhook {
  accountId: string;
  jobId: string;
  redrives: number;
  redrivenAt: string | null;
}

/** The message of one domain on the bulk queue. */
export interface DomainMessage {
  accountId: string;
  jobId: string;
  seq: number;
}

/** A message read from a dead-letter queue; `remove` deletes it once it has been dealt with. */
export interface DeadLetter {
  body: string;
  remove(): Promise<void>;
}

/** A dead-letter queue the re-drive drains (those of the bulk, webhook and aggregate queues). */
export interface DeadLetterQueue {
  name: string;
  /** Up to `max` messages (fewer when the queue holds fewer); an empty list when it is empty. */
  receive(max: number): Promise<DeadLetter[]>;
}

/** Settled searches not yet counted in their account's company rows (their pending aggregation items). */
export interface PendingAggregations {
  /** Pending items whose message was last sent before `sentBefore` (all of them when null). */
  stale(sentBefore: string | null): AsyncIterable<PendingAggregation>;
  /** Notes a re-send (sentAt = at, redrives + 1), conditioned on the item still existing with `redrives` as read. */
  noteRedrive(pending: PendingAggregation, at: string): Promise<boolean>;
}

export interface PendingAggregation {
  accountId: string;
  searchId: string;
  sentAt: string;
  redrives: number;
}

export interface DomainQueue {
  /** Sends one message per domain, batched. */
  enqueue(messages: DomainMessage[]): Promise<void>;
}

export interface WebhookMessage {
  accountId: string;
  /** The bulk job whose completion event this is (absent for a watchlist event). */
  jobId?: string;
  /** Absent: a bulk job's completion; `watchlist.changed`: a stored monitor event for the account's endpoint. */
  event?: 'watchlist.changed';
  eventId: string;
  /** First attempt's time, so that retries stop 24 hours after it. */
  firstAttemptAt: string;
  attempt: number;
  /** Not to be sent before this time (SQS delays are at most 15 minutes; longer waits are chained). */
  notBefore: string;
}

export interface WebhookQueue {
  enqueue(message: WebhookMessage, delaySeconds: number): Promise<void>;
}

/** The upload bucket. */
export interface UploadStore {
  /**
   * A presigned PUT for `key`, pinned to the content type and to exactly `sizeBytes` bytes (Content-Length is a
   * signed header, so S3 refuses a body of any other size).
   */
  presignPut(key: string, contentType: string, sizeBytes: number, expiresInSeconds: number): Promise<string>;
  /** The object's size in bytes and its ETag, or null when it does not exist. */
  stat(key: string): Promise<{ size: number; etag: string } | null>;
  /**
   * The object's bytes, only if it is still the version `etag` names (If-Match; 409 conflict otherwise: it was
   * replaced after it was checked), and never more than `maxBytes` of them (413 payload_too_large past it).
   */
  read(key: string, pin: { etag: string; maxBytes: number }): Promise<AsyncIterable<Uint8Array>>;
}

/** Per-account webhook signing secrets. */
export interface WebhookSecretStore {
  put(accountId: string, secret: string, at: string): Promise<void>;
  get(accountId: string): Promise<string | null>;
  /** Whether the account has a secret, without reading (or unsealing) it. */
  has(accountId: string): Promise<boolean>;
}

/**
 * Where a webhook URL leads, checked when a job names it with the same address guard the delivery goes through: null
 * when it may be used, else the problem (an IP literal or a name of a private, loopback, link-local or metadata
 * address). A name that does not resolve yet passes; the delivery checks it again.
 */
export interface WebhookUrlGuard {
  check(url: string): Promise<string | null>;
}

/** Sends a signed webhook; the address guard lives in the adapter. */
export interface WebhookTransport {
  post(url: string, body: string, headers: Record<string, string>): Promise<{ status: number }>;
}
