// sdk-node: the payloads of the API as the SDK returns them. Search, balance, stored searches and keys come from
// @rivals/contracts; the account-data and bulk payloads follow the API's reference (docs/api.md).
import type { CompetitorType, SearchResult } from '@rivals/contracts';

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
  jobId?: string;
}

export type BulkJobStatus = 'awaiting_upload' | 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
export const BULK_TERMINAL: readonly BulkJobStatus[] = ['completed', 'failed', 'cancelled'];

export interface BulkUploadOptions {
  /** Competitors per domain, 1..100. */
  limit?: number;
  /** An https URL that gets `bulk_job.completed` when the job ends. */
  webhookUrl?: string;
}

export interface BulkUploadAccepted {
  jobId: string;
  status: BulkJobStatus;
  totalDomains: number;
  rejectedRows: unknown[];
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
  status: string;
  searchId: string | null;
  totalCompetitors: number | null;
  likelyCompetitors: number | null;
  error: string | null;
}

export interface BulkJob {
  jobId: string;
  status: BulkJobStatus;
  totalDomains: number;
  completedDomains: number;
  failedDomains: number;
  creditsCharged: number;
  creditsRefunded: number;
  createdAt: string;
  updatedAt: string;
  rejectedRows: unknown[];
  results: BulkResultRow[];
  nextCursor: string | null;
  error?: string | null;
}

export type BulkJobSummary = Omit<BulkJob, 'results' | 'nextCursor'> & Partial<Pick<BulkJob, 'results'>>;

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
  total: number;
}

export interface Share {
  token: string;
  url: string;
  createdAt: string;
}

export interface SavedCompanyInput {
  domain: string;
  company?: string;
  note?: string;
  searchId?: string;
}

export interface SavedCompany extends SavedCompanyInput {
  createdAt?: string;
  [field: string]: unknown;
}

export interface WebhookEvent<T = BulkJobSummary> {
  id: string;
  type: 'bulk_job.completed' | (string & {});
  createdAt: string;
  data: { job: T };
}
