// sdk-node: the payloads of the API as the SDK returns them. Search, balance, stored searches and keys come from
// @rivals/contracts; the account-data payloads mirror their contracts field for field.
import type { BulkDomainResult, CompetitorType, DomainState, JobStatus, SearchFilters, SearchResult, StoredCompetitor } from '@rivals/contracts';

export type {
  ApiKeySummary,
  BulkDomainResult,
  BulkJob,
  BulkJobEvent,
  BulkJobSummary,
  BulkUploadAccepted,
  BulkUploadUrl,
  RejectedRow,
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

export type BulkJobStatus = JobStatus;
export type BulkDomainState = DomainState;
export type BulkResultRow = BulkDomainResult;
export const BULK_TERMINAL: readonly BulkJobStatus[] = ['completed', 'failed', 'cancelled'];

/** A bulk job's options: per-domain limit, the search filters every domain is researched with, a webhook. */
export interface BulkUploadOptions extends SearchFilters {
  /** Competitors per domain, 1..100 (default 100). */
  limit?: number;
  /** An https URL that gets `bulk_job.completed` when the job ends. */
  webhookUrl?: string;
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

/** The body of a webhook (`bulk_job.completed`). */
export type WebhookEvent = import('@rivals/contracts').BulkJobEvent;
