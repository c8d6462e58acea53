// core use case: the watchlist (saved companies). Free. One row per registrable domain; saving it again updates the
// fields given (a note, a name) and keeps its place; PATCH changes them too.
import { WATCHLIST_MAX, type SaveCompanyRequest, type SavedCompaniesPage, type SavedCompany, type UpdateSavedCompanyRequest } from '@rivals/contracts';
import { normalizeDomain } from '../domain.js';
import { notFound } from '../errors.js';
import type { Clock, CompanyNameLookup, PageRequest, SavedCompanyStore, SearchStore } from '../ports.js';
import { ownSearch } from './search-queries.js';

export class WatchlistService {
  constructor(private readonly deps: { saved: SavedCompanyStore; searches: SearchStore; clock: Clock; max?: number; names?: CompanyNameLookup }) {}

  /**
   * Saves a company (created: true), or updates the row saved before with the fields given (created: false). Without a
   * `company`, the name is the one the search it came from gave it, else what the service knows of the domain.
   * searchId must be the caller's.
   */
  async save(accountId: string, request: SaveCompanyRequest): Promise<{ row: SavedCompany; created: boolean }> {
    const domain = normalizeDomain(request.domain);
    const search = request.searchId === undefined ? null : await ownSearch(this.deps.searches, accountId, request.searchId);
    if (request.searchId !== undefined && !search) throw notFound('search');
    const company = request.company ?? search?.competitors?.find((c) => c.domain === domain && !c.evidence?.parentCompany)?.company ?? (await this.nameOf(accountId, domain));
    const row: SavedCompany = {
      domain,
      company,
      note: request.note ?? null,
      searchId: request.searchId ?? null,
      savedAt: this.deps.clock.now().toISOString(),
      lastCheckedAt: null,
      unseenChanges: 0,
    };
    const saved = await this.deps.saved.save(accountId, row, this.deps.max ?? WATCHLIST_MAX);
    if (saved.created) return saved;
    // Saved before: what this request says wins (a new note, a name); the rest, and the place in the list, stay.
    const changes = {
      ...(request.note !== undefined && request.note !== saved.row.note ? { note: request.note } : {}),
      ...(request.company !== undefined && request.company !== saved.row.company ? { company: request.company } : {}),
      ...(request.company === undefined && saved.row.company === null && company ? { company } : {}),
      ...(request.searchId !== undefined && request.searchId !== saved.row.searchId ? { searchId: request.searchId } : {}),
    };
    if (!Object.keys(changes).length) return saved;
    return { row: (await this.deps.saved.update(accountId, domain, changes)) ?? saved.row, created: false };
  }

  /** PATCH: changes the note or the name of a saved company (null clears it); not_found when it is not saved. */
  async update(accountId: string, domainOrUrl: string, request: UpdateSavedCompanyRequest): Promise<SavedCompany> {
    const domain = normalizeDomain(domainOrUrl);
    const changes = { ...(request.note !== undefined ? { note: request.note } : {}), ...(request.company !== undefined ? { company: request.company } : {}) };
    const row = await this.deps.saved.update(accountId, domain, changes);
    if (!row) throw notFound('saved company');
    return row;
  }

  private async nameOf(accountId: string, domain: string): Promise<string | null> {
    return (await this.deps.names?.(accountId, domain).catch(() => null)) ?? null;
  }

  list(accountId: string, request: PageRequest): Promise<SavedCompaniesPage> {
    return this.deps.saved.list(accountId, request);
  }

  /** Idempotent: 204 whether or not the domain was saved. */
  remove(accountId: string, domain: string): Promise<void> {
    return this.deps.saved.remove(accountId, normalizeDomain(domain));
  }
}
