// sdk-node: the payloads of the API as the SDK returns them: the types of @rivals/contracts, so the SDK's types are
// the handlers' own schemas.
import type { BulkDomainResult, DomainState, JobStatus, LookalikesResult, SearchFilters, SearchResult } from '@rivals/contracts';

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
  Firmographics,
  Health,
  Lookalike,
  LookalikesRequest,
  LookalikesResult,
  Ownership,
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

/** The look-alike result, plus the id of the stored search (X-Search-Id) and the request id. */
export type LookalikesResponse = LookalikesResult & { searchId: string | null; requestId: string | null; replayed: boolean };

export type HistoryItem = import('@rivals/contracts').HistoryItem;

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
  /** The file's name, shown in the job list (not a path on the server). */
  filename?: string;
}

export type MyCompany = import('@rivals/contracts').MyCompany;
export type MyCompanies = import('@rivals/contracts').MyCompanies;
export type Share = import('@rivals/contracts').ShareLink;
export type SharedSearch = import('@rivals/contracts').SharedSearch;
export type SavedCompanyInput = import('@rivals/contracts').SaveCompanyRequest;
export type SavedCompany = import('@rivals/contracts').SavedCompany;

export type Change = import('@rivals/contracts').Change;
export type WebhookEndpoint = import('@rivals/contracts').WebhookEndpoint;
/** The body of a `watchlist.changed` webhook: one watched company's changes found by a monitor run. */
export type WatchlistChangedEvent = import('@rivals/contracts').WatchlistChangedEvent;

export interface ChangesParams extends PageParams {
  /** One watched company; reading its first page marks its changes seen. */
  domain?: string;
  /** Changes detected at or after this time (ISO 8601, or a Date). */
  since?: string | Date;
}

/** The body of a webhook (`bulk_job.completed`). */
export type WebhookEvent = import('@rivals/contracts').BulkJobEvent;
