// core use case: reading past searches. Free, and never touches the research engine.
import type { StoredSearch } from '@rivals/contracts';
import { notFound } from '../errors.js';
import type { SearchStore } from '../ports.js';

const SEARCH_ID = /^srch_[0-9a-z]{26}$/;

export class SearchQueries {
  constructor(private readonly searches: SearchStore) {}

  /** A past search of this account, with its evidence; not_found for an unknown id or another account's. */
  async find(accountId: string, searchId: string): Promise<StoredSearch> {
    const record = SEARCH_ID.test(searchId) ? await this.searches.get(accountId, searchId) : null;
    if (!record) throw notFound('search');
    return {
      id: record.id,
      domain: record.domain,
      status: record.status,
      source: record.source,
      ...(record.jobId ? { jobId: record.jobId } : {}),
      ...(record.filters ? { filters: record.filters } : {}),
      createdAt: record.createdAt,
      completedAt: record.completedAt ?? null,
      elapsedSeconds: record.elapsedSeconds ?? null,
      totalCompetitors: record.totalCompetitors ?? 0,
      likelyCompetitors: record.likelyCompetitors ?? 0,
      error: record.error ?? null,
      competitors: record.competitors ?? [],
    };
  }
}
