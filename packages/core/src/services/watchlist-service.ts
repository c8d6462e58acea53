// core use case: the watchlist (saved companies). Free. One row per registrable domain; saving it again changes nothing.
import { WATCHLIST_MAX, type SaveCompanyRequest, type SavedCompaniesPage, type SavedCompany } from '@rivals/contracts';
import { normalizeDomain } from '../domain.js';
import { notFound } from '../errors.js';
import type { Clock, PageRequest, SavedCompanyStore, SearchStore } from '../ports.js';
import { ownSearch } from './search-queries.js';

export class WatchlistService {
  constructor(private readonly deps: { saved: SavedCompanyStore; searches: SearchStore; clock: Clock; max?: number }) {}

  /** Saves a company (created: true), or answers the row saved before, unchanged. searchId must be the caller's. */
  async save(accountId: string, request: SaveCompanyRequest): Promise<{ row: SavedCompany; created: boolean }> {
    const domain = normalizeDomain(request.domain);
    if (request.searchId !== undefined && !(await ownSearch(this.deps.searches, accountId, request.searchId))) throw notFound('search');
    const row: SavedCompany = {
      domain,
      company: request.company ?? null,
      note: request.note ?? null,
      searchId: request.searchId ?? null,
      savedAt: this.deps.clock.now().toISOString(),
      lastCheckedAt: null,
      unseenChanges: 0,
    };
    return this.deps.saved.save(accountId, row, this.deps.max ?? WATCHLIST_MAX);
  }

  list(accountId: string, request: PageRequest): Promise<SavedCompaniesPage> {
    return this.deps.saved.list(accountId, request);
  }

  /** Idempotent: 204 whether or not the domain was saved. */
  remove(accountId: string, domain: string): Promise<void> {
    return this.deps.saved.remove(accountId, normalizeDomain(domain));
  }
}
