// contracts: bulk research jobs, their per-domain results and their webhooks (docs/api.md "Bulk").
import { z } from 'zod';
import { COMPANY_SIZES, COMPETITOR_TYPES, EXCLUDE_MAX, FailureReason, FIRMOGRAPHICS_CSV_COLUMNS, OWNERSHIPS, SEARCH_LIMIT_MAX, SearchFilters } from './search.js';

export const JOB_STATUSES = ['awaiting_upload', 'queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export const JobStatus = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof JobStatus>;
export const TERMINAL_JOB_STATUSES: readonly JobStatus[] = ['completed', 'failed', 'cancelled'];

export const DOMAIN_STATES = ['pending', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export const DomainState = z.enum(DOMAIN_STATES);
export type DomainState = z.infer<typeof DomainState>;

/** Most domains a job may hold (configurable on the server) and the most rejected rows a job keeps. */
export const BULK_MAX_DOMAINS = 10_000;
export const BULK_MAX_REJECTED_ROWS = 1_000;
export const BULK_MAX_BODY_BYTES = 5 * 1024 * 1024;
export const BULK_MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
/** A CSV record (row) holds at most this many cells, and this many characters; a file past either is refused (400). */
export const BULK_CSV_MAX_COLUMNS = 1_000;
export const BULK_CSV_MAX_RECORD_CHARS = 64 * 1024;
/** A CSV holds at most this many lines (header, blank lines, duplicates and invalid rows included); past it, 413. */
export const BULK_CSV_MAX_ROWS = 25_000;

/** A CSV row that was not researched and never charged: its 1-based line, what it held, and why. */
export const RejectedRow = z.strictObject({ row: z.number().int().min(1), value: z.string(), reason: z.string() });
export type RejectedRow = z.infer<typeof RejectedRow>;

const webhookUrl = z.url({ protocol: /^https$/, error: 'webhookUrl must be an https URL' }).max(2048);
const perDomainLimit = z.coerce.number().int().min(1).max(SEARCH_LIMIT_MAX);

/** A comma-separated query value as a list (`types=Direct,Emerging`). */
const commaList = <T extends z.ZodType>(item: T, max: number) =>
  z.preprocess((v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : v), z.array(item).min(1).max(max));

/** The file's name, kept with the job so that a person can tell jobs apart (never used as a path). */
const filename = z.string().trim().min(1).max(255);

/**
 * Query of POST /api/bulk/upload: the per-domain limit, the search filters (lists comma-separated), a webhook and the
 * file's name (a multipart upload's own file name when not given).
 */
export const BulkUploadQuery = z.strictObject({
  limit: perDomainLimit.default(SEARCH_LIMIT_MAX),
  filename: filename.optional(),
  webhookUrl: webhookUrl.optional(),
  exclude: commaList(z.string().min(1).max(2048), EXCLUDE_MAX).optional(),
  types: commaList(z.enum(COMPETITOR_TYPES), COMPETITOR_TYPES.length).optional(),
  minMatchScore: z.coerce.number().int().min(0).max(100).optional(),
  countries: commaList(z.string().regex(/^[A-Za-z]{2}$/, 'an ISO 3166-1 alpha-2 country code'), 250).optional(),
  sizes: commaList(z.enum(COMPANY_SIZES), COMPANY_SIZES.length).optional(),
  foundedFrom: z.coerce.number().int().min(1000).max(2100).optional(),
  foundedTo: z.coerce.number().int().min(1000).max(2100).optional(),
  ownership: commaList(z.enum(OWNERSHIPS), OWNERSHIPS.length).optional(),
});
export type BulkUploadQuery = z.output<typeof BulkUploadQuery>;

/** Body of POST /api/bulk/upload-url. */
export const BulkUploadUrlRequest = z.strictObject({
  /** The file's exact size: the upload URL accepts a body of this many bytes and no other. */
  sizeBytes: z.number().int().min(1).max(BULK_MAX_UPLOAD_BYTES),
  filename: filename.optional(),
  limit: z.number().int().min(1).max(SEARCH_LIMIT_MAX).default(SEARCH_LIMIT_MAX),
  webhookUrl: webhookUrl.optional(),
  ...SearchFilters.shape,
});
export type BulkUploadUrlRequest = z.input<typeof BulkUploadUrlRequest>;

export const BulkUploadAccepted = z.strictObject({
  jobId: z.string(),
  status: z.literal('queued'),
  totalDomains: z.number().int().min(1),
  rejectedRows: z.array(RejectedRow),
  creditsReserved: z.number().int().min(1),
  creditsRemaining: z.number().int().min(0),
});
export type BulkUploadAccepted = z.infer<typeof BulkUploadAccepted>;

export const BulkUploadUrl = z.strictObject({ jobId: z.string(), uploadUrl: z.string(), expiresAt: z.string() });
export type BulkUploadUrl = z.infer<typeof BulkUploadUrl>;

export const BulkDomainResult = z.strictObject({
  domain: z.string(),
  status: DomainState,
  searchId: z.string().nullable(),
  totalCompetitors: z.number().int().nullable(),
  likelyCompetitors: z.number().int().nullable(),
  error: z.string().nullable(),
  /** For no_competitors_found: why nothing was found (see FAILURE_REASONS). */
  reason: FailureReason.nullable(),
});
export type BulkDomainResult = z.infer<typeof BulkDomainResult>;

export const WebhookAttempt = z.strictObject({ at: z.string(), status: z.number().int().nullable(), error: z.string().nullable() });
export type WebhookAttempt = z.infer<typeof WebhookAttempt>;

/** A job as listed (GET /api/bulk/jobs) and as sent in the completion webhook. */
export const BulkJobSummary = z.strictObject({
  jobId: z.string(),
  status: JobStatus,
  totalDomains: z.number().int(),
  completedDomains: z.number().int(),
  failedDomains: z.number().int(),
  cancelledDomains: z.number().int(),
  creditsReserved: z.number().int(),
  creditsCharged: z.number().int(),
  creditsRefunded: z.number().int(),
  limit: z.number().int(),
  /** The search filters every domain of the job is researched with, when any. */
  filters: SearchFilters.nullable(),
  filename: z.string().nullable(),
  /** Why a job could not run (`failed`): e.g. insufficient_credits, upload_too_large, no_valid_domains. */
  error: z.string().nullable(),
  webhookUrl: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type BulkJobSummary = z.infer<typeof BulkJobSummary>;

export const BulkJobList = z.strictObject({ items: z.array(BulkJobSummary), nextCursor: z.string().nullable() });
export type BulkJobList = z.infer<typeof BulkJobList>;

/** GET /api/bulk/jobs/:id: the job, its rejected rows, one page of its per-domain results (file order). */
export const BulkJob = BulkJobSummary.extend({
  rejectedRows: z.array(RejectedRow),
  webhookAttempts: z.array(WebhookAttempt),
  results: z.array(BulkDomainResult),
  nextCursor: z.string().nullable(),
});
export type BulkJob = z.infer<typeof BulkJob>;

/**
 * Columns of a job's results CSV. `company` is the company whose website `domain` is (for a product line, the company
 * that makes it) and `product` the product line, when the row is one, so that `company` and `domain` always agree.
 */
export const BULK_CSV_COLUMNS = ['sourceDomain', 'rank', 'company', 'product', 'domain', 'matchScore', 'type', 'confidence', 'likelyCompetitor', 'error', 'reason', ...FIRMOGRAPHICS_CSV_COLUMNS] as const;

/** Body of the webhook POST. */
export const BulkJobEvent = z.strictObject({
  id: z.string(),
  type: z.literal('bulk_job.completed'),
  createdAt: z.string(),
  data: z.strictObject({ job: BulkJobSummary }),
});
export type BulkJobEvent = z.infer<typeof BulkJobEvent>;

export const WebhookSecret = z.strictObject({ secret: z.string() });
export type WebhookSecret = z.infer<typeof WebhookSecret>;
