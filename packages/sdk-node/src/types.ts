// sdk-node: the payloads of the API as the SDK returns them. Search, balance, stored searches and keys come from
// @rivals/contracts; the account-data and bulk payloads mirror their contracts field for field.
import type { CompetitorType, SearchResult, StoredCompetitor } from '@rivals/contracts';

export type {
  ApiKeySummary,
  Balance,
  Competitor,
  CompetitorType,
  CreatedApiKey,
  Health,
  SearchFilters,
  SearchRequest,
  SearchResult,
  StoredCompetitor,
  StoredSearch,
} from '@rivals/contracts';

/** A page of a list: newest first; `nextCursor` is null on the last page. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface PageParams {
  /** 1..200, default 50. */
  limit?: number;
  cursor?: string;
}

/** The search result, plus the id of the stored search (X-Search-Id) and the request id. */
export type SearchResponse = SearchResult & { searchId: string | null; requestId: string | null; replayed: boolean };

export interface HistoryItem {
  id: string;
  domain: string;
  status: 'running' | 'succeeded' | 'failed';
  createdAt: string;
  totalCompetitors: number;
  likelyCompetitors: number;
  source: 'api' | 'bulk';
  /** Only for searches of a bulk job. */
  jobId?: string;
}

export interface HistoryParams extends PageParams {
  source?: 'api' | 'bulk';
  status?: 'running' | 'succeeded' | 'failed';
}

export type BulkJobStatus = 'awaiting_upload' | 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
export const BULK_TERMINAL: readonly BulkJobStatus[] = ['completed', 'failed', 'cancelled'];
export type BulkDomainState = 'pending' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface BulkUploadOptions {
  /** Competitors per domain, 1..100 (default 100). */
  limit?: number;
  /** An https URL that gets `bulk_job.completed` when the job ends. */
  webhookUrl?: string;
}

/** A CSV row that was not researched and never charged: its 1-based line, what it held, and why. */
export interface RejectedRow {
  row: number;
  value: string;
  reason: string;
}

export interface BulkUploadAccepted {
  jobId: string;
  status: 'queued';
  totalDomains: number;
  rejectedRows: RejectedRow[];
  creditsReserved: number;
  creditsRemaining: number;
}

export interface BulkUploadUrl {
  jobId: string;
  uploadUrl: string;
  expiresAt: string;
}

export interface BulkResultRow {
  domain: string;
  status: BulkDomainState;
  searchId: string | null;
  totalCompetitors: number | null;
  likelyCompetitors: number | null;
  error: string | null;
}

/** A job as listed and as sent in the completion webhook. */
export interface BulkJobSummary {
  jobId: string;
  status: BulkJobStatus;
  totalDomains: number;
  completedDomains: number;
  failedDomains: number;
  cancelledDomains: number;
  creditsReserved: number;
  creditsCharged: number;
  creditsRefunded: number;
  limit: number;
  filename: string | null;
  /** Why a job could not run (`failed`), e.g. insufficient_credits. */
  error: string | null;
  webhookUrl: string | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

/** GET /api/bulk/jobs/:id: the job, its rejected rows and one page of its per-domain results. */
export interface BulkJob extends BulkJobSummary {
  rejectedRows: RejectedRow[];
  webhookAttempts: { at: string; status: number | null; error: string | null }[];
  results: BulkResultRow[];
  nextCursor: string | null;
}

export interface MyCompany {
  company: string;
  domain: string;
  timesFound: number;
  bestMatchScore: number;
  types: CompetitorType[];
  firstSeenAt: string;
  lastSeenAt: string;
  foundFor: string[];
}

export interface MyCompanies {
  items: MyCompany[];
  /** Companies found in all; more than items.length when the list is capped at 5,000. */
  total: number;
}

export interface Share {
  token: string;
  url: string;
  createdAt: string;
}

/** GET /api/shared/:token: the search, read-only, without account data. */
export interface SharedSearch {
  domain: string;
  createdAt: string;
  completedAt: string | null;
  totalCompetitors: number;
  likelyCompetitors: number;
  competitors: StoredCompetitor[];
}

export interface SavedCompanyInput {
  domain: string;
  company?: string;
  note?: string;
  searchId?: string;
}

export interface SavedCompany {
  domain: string;
  company: string | null;
  note: string | null;
  searchId: string | null;
  savedAt: string;
}

export interface WebhookEvent<T = BulkJobSummary> {
  id: string;
  type: 'bulk_job.completed' | (string & {});
  createdAt: string;
  data: { job: T };
}
