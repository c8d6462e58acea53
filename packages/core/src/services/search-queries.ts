// core use case: reading past searches. Free, and never touches the research engine.
import { UNKNOWN_FIRMOGRAPHICS, type HistoryPage, type HistoryQuery, type StoredCompetitor, type StoredSearch } from '@rivals/contracts';
import { notFound } from '../errors.js';
import type { SearchRecord, SearchStore } from '../ports.js';

const SEARCH_ID = /^srch_[0-9a-z]{26}$/;

/** A search of this account, or null for an unknown id, a malformed one or another account's. */
export const ownSearch = (searches: SearchStore, accountId: string, searchId: string): Promise<SearchRecord | null> =>
  SEARCH_ID.test(searchId) ? searches.get(accountId, searchId) : Promise.resolve(null);

/** A stored search's rows as the API shows them: searches stored before firmographics were kept get nulls. */
export const storedCompetitors = (record: SearchRecord): StoredCompetitor[] =>
  (record.competitors ?? []).map((c) => (c.firmographics ? c : { ...c, firmographics: UNKNOWN_FIRMOGRAPHICS }));

export class SearchQueries {
  constructor(private readonly searches: SearchStore) {}

  /** A past search of this account, with its evidence; not_found for an unknown id or another account's. */
  async find(accountId: string, searchId: string): Promise<StoredSearch> {
    const record = await ownSearch(this.searches, accountId, searchId);
    if (!record) throw notFound('search');
    return {
      id: record.id,
      domain: record.domain,
      status: record.status,
      source: record.source,
      ...(record.jobId ? { jobId: record.jobId } : {}),
      ...(record.seeds ? { seeds: record.seeds } : {}),
      ...(record.filters ? { filters: record.filters } : {}),
      createdAt: record.createdAt,
      completedAt: record.completedAt ?? null,
      elapsedSeconds: record.elapsedSeconds ?? null,
      totalCompetitors: record.totalCompetitors ?? 0,
      likelyCompetitors: record.likelyCompetitors ?? 0,
      error: record.error ?? null,
      reason: record.reason ?? null,
      competitors: storedCompetitors(record),
    };
  }

  /** The account's searches (api and bulk), newest first, paged, optionally filtered by source and status. */
  history(accountId: string, query: HistoryQuery): Promise<HistoryPage> {
    const { limit, cursor, source, status } = query;
    return this.searches.history(accountId, { limit, ...(cursor ? { cursor } : {}), ...(source ? { source } : {}), ...(status ? { status } : {}) });
  }
}
