// core: the ports the services need. Adapters (db, engine, crawler) implement them; services never import adapters.
import type { CompetitorType, Evidence, FailureReason, Firmographics, HistoryItem, MyCompany, SavedCompany, SearchFilters, StoredCompetitor } from '@rivals/contracts';

export interface Clock {
  now(): Date;
}

export type IdPrefix = 'acct' | 'srch' | 'key' | 'led' | 'job' | 'evt' | 'chg' | 'run';
export interface IdGenerator {
  /** A new opaque identifier, `prefix_` followed by a time-ordered unique part. */
  next(prefix: IdPrefix): string;
}

export type SearchSource = 'api' | 'bulk';
export type SearchStatus = 'running' | 'succeeded' | 'failed';

export interface SearchRecord {
  id: string;
  accountId: string;
  domain: string;
  limit: number;
  status: SearchStatus;
  source: SearchSource;
  jobId?: string;
  /** A look-alike search's seeds (registrable domains); `domain` is the first. */
  seeds?: string[];
  /** The filters asked for (exclude normalised), when any. */
  filters?: SearchFilters;
  createdAt: string;
  /** While running: a search not finished by this time is presumed dead (its process crashed) and the sweeper refunds it. */
  sweepAfter?: string;
  completedAt?: string;
  elapsedSeconds?: number;
  totalCompetitors?: number;
  likelyCompetitors?: number;
  competitors?: StoredCompetitor[];
  error?: string;
  /** For no_competitors_found: why nothing was found. */
  reason?: FailureReason;
  /** The live share link of this search; only its owner ever sees the token (the public lookup keeps its hash). */
  share?: ShareRecord;
}

export interface Reservation {
  searchId: string;
}

/** Credits and the searches they pay for. Every method is atomic; refund applies at most once per search. */
export interface CreditsLedger {
  /** Takes one credit and records a running search, or throws insufficient_credits with nothing written. */
  reserveSearch(search: Omit<SearchRecord, 'status'> & { sweepAfter: string }): Promise<Reservation>;
  /** Marks a running search succeeded with its results. Throws conflict if it is not running. */
  settleSearch(accountId: string, searchId: string, result: SettledSearch): Promise<void>;
  /** Marks a running search failed and gives its credit back. Returns false when it was no longer running. */
  refundSearch(accountId: string, searchId: string, failure: { error: string; reason?: FailureReason; completedAt: string; elapsedSeconds: number }): Promise<boolean>;
  balance(accountId: string): Promise<number>;
}

/** A search still running past its sweepAfter time. */
export interface OverdueSearch {
  accountId: string;
  searchId: string;
  jobId?: string;
  createdAt: string;
  sweepAfter: string;
}

/** The index of running searches, by the time after which each is presumed dead. */
export interface RunningSearches {
  /** Up to `limit` searches still running whose sweepAfter is before `now`, oldest first within each shard. */
  overdue(now: string, limit: number): Promise<OverdueSearch[]>;
}

export interface SettledSearch {
  completedAt: string;
  elapsedSeconds: number;
  competitors: StoredCompetitor[];
  totalCompetitors: number;
  likelyCompetitors: number;
}

/** One change of an account's balance, written in the same transaction as the change. */
export interface LedgerEntry {
  id: string;
  amount: number;
  reason: string;
  reference: string | null;
  createdAt: string;
}

export interface LedgerEntries {
  /** Every entry of the account, oldest first. */
  list(accountId: string): Promise<LedgerEntry[]>;
}

export interface HistoryFilter {
  source?: SearchSource;
  status?: SearchStatus;
}

export interface SearchStore {
  get(accountId: string, searchId: string): Promise<SearchRecord | null>;
  /** The account's searches, newest first, without their competitors. */
  history(accountId: string, request: PageRequest & HistoryFilter): Promise<Page<HistoryItem>>;
}

/**
 * The companies an account has found, one row per company, kept up to date after a search settles (the ledger's
 * settle marks the search for aggregation in its own transaction; the aggregation counts each search once).
 */
export interface CompanyStore {
  /** Counts one settled search in the account's rows; a no-op when it is counted already (redelivery, a read's catch-up). */
  finish(accountId: string, searchId: string): Promise<void>;
  /** Finishes the aggregation of any settled search of the account still pending (not yet applied by the worker). */
  catchUp(accountId: string): Promise<void>;
  /** The rows, most often found first, at most `max`; `total` counts every row. */
  top(accountId: string, max: number): Promise<{ items: MyCompany[]; total: number }>;
}

export interface ShareRecord {
  token: string;
  createdAt: string;
}

export interface ShareStore {
  /**
   * Stores a share of a succeeded search: the token on the owner's search, its hash in the public lookup. Returns
   * false, writing nothing, when the search has a share already or is not succeeded any more.
   */
  create(accountId: string, searchId: string, share: ShareRecord & { hash: string }): Promise<boolean>;
  /** Removes the search's share and its lookup; nothing happens when there is none. */
  revoke(accountId: string, searchId: string): Promise<void>;
  /** The search a live token's hash points to, or null. */
  findByHash(hash: string): Promise<SearchRecord | null>;
}

export interface SavedCompanyStore {
  /**
   * Saves a row unless the domain is saved already. Returns the stored row and whether it was created; throws
   * conflict when the watchlist holds `max` rows.
   */
  save(accountId: string, row: SavedCompany, max: number): Promise<{ row: SavedCompany; created: boolean }>;
  /** Newest first. */
  list(accountId: string, request: PageRequest): Promise<Page<SavedCompany>>;
  /** Changes the given fields of a saved row (null clears one); null when the domain is not saved. */
  update(accountId: string, domain: string, changes: Partial<Pick<SavedCompany, 'company' | 'note' | 'searchId'>>): Promise<SavedCompany | null>;
  /** Idempotent. */
  remove(accountId: string, domain: string): Promise<void>;
}

/** The name a company goes by, from what the service knows of its domain (the account's rows, the knowledge base, a read homepage). */
export type CompanyNameLookup = (accountId: string, domain: string) => Promise<string | null>;

export interface Account {
  id: string;
  name: string;
  credits: number;
  createdAt: string;
}

export interface AccountStore {
  /** Creates the account with its opening credits; throws conflict if the id exists. */
  create(account: Account): Promise<void>;
  get(accountId: string): Promise<Account | null>;
  /** Adds credits (an operator grant) and returns the new balance. Throws not_found for an unknown account. */
  grant(accountId: string, credits: number, reason: string): Promise<number>;
}

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  name: string | null;
  hash: string;
  prefix: string;
  last4: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** The item that claims a key hash: it names the key's owner and says whether the key was revoked. */
export interface ApiKeyClaim {
  accountId: string;
  keyId: string;
  revokedAt: string | null;
}

export interface PageRequest {
  limit: number;
  /** The opaque cursor of the previous page; a bad one throws invalid_request. */
  cursor?: string | undefined;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export type RevokeOutcome = 'revoked' | 'already_revoked' | 'not_found' | 'last_active_key';

export interface ApiKeyStore {
  /**
   * Writes the key record, claims its hash and counts it among the account's live keys, in one transaction. Throws
   * not_found for an unknown account, conflict when the hash is taken or the account already holds `maxActive` live keys.
   */
  create(record: ApiKeyRecord, limits: { maxActive: number | null }): Promise<void>;
  /** The claim of a key hash, read with strong consistency (a key created a moment ago is found). */
  findClaim(hash: string): Promise<ApiKeyClaim | null>;
  /** The key record and whether its account still exists, both read with strong consistency. */
  loadOwned(accountId: string, keyId: string): Promise<{ accountExists: boolean; record: ApiKeyRecord | null }>;
  /** Sets lastUsedAt to `at` on a live key unless it is already later than `notBefore` (at most one write a minute). */
  touch(accountId: string, keyId: string, at: string, notBefore: string): Promise<void>;
  get(accountId: string, keyId: string): Promise<ApiKeyRecord | null>;
  /** The account's keys, newest first. */
  list(accountId: string, page: PageRequest): Promise<Page<ApiKeyRecord>>;
  /**
   * Revokes the key (its record and its claim) and uncounts it, in one transaction. With `keepOneActive`, the
   * account's last live key is not revoked ('last_active_key').
   */
  revoke(accountId: string, keyId: string, at: string, options: { keepOneActive: boolean }): Promise<RevokeOutcome>;
}

/**
 * The cache in front of the authorizer (API Gateway's per-stage authorizer result cache; the local front's). Emptied
 * after a key is revoked, so that the key is refused on its next request rather than when its cached Allow expires.
 */
export interface AuthorizerCache {
  flush(): Promise<void>;
}

export interface ResearchRequest {
  domain: string;
  /** A look-alike search: companies like all of these registrable domains (`domain` is the first of them). */
  seeds?: string[];
  /** At most this many competitors, counted after the filters. */
  limit: number;
  /** Optional filters; `exclude` holds registrable domains. */
  filters?: SearchFilters;
  signal: AbortSignal;
  /** Whose search this is: only to cap the companies one account may teach the service an hour; never stored. */
  accountId?: string;
  /** How the search came (a single search or a bulk job's domain): what a discovered company records as `via`. */
  via?: 'search' | 'bulk';
}

export interface ResearchedCompetitor {
  company: string;
  domain: string;
  matchScore: number;
  type: CompetitorType;
  confidence: number;
  likelyCompetitor: boolean;
  evidence: Evidence;
  firmographics: Firmographics;
  /** Look-alike searches: the seeds it is close to, closest first. */
  similarTo?: string[];
}

export interface ResearchOutcome {
  /** How the engine knew the target: from the knowledge base, a crawled homepage, or not at all. */
  targetSource: 'knowledge-base' | 'homepage' | 'none';
  competitors: ResearchedCompetitor[];
  /** When `competitors` is empty: why (the homepage could not be read, said too little, no rival ranks, filters). */
  failureReason?: FailureReason;
}

/** The research engine: ranked competitors of a registrable domain, best first, at most `limit`. */
export interface ResearchEngine {
  research(request: ResearchRequest): Promise<ResearchOutcome>;
  /** Starts what research of `domain` will read from storage (best effort, never throws), so that it overlaps the
   * search's own bookkeeping (the credit reservation) instead of following it. */
  prepare?(domain: string): void;
}

/** What a company's homepage says about it (title, meta and Open Graph description, headings, JSON-LD Organization). */
export interface HomepageProfile {
  domain: string;
  url: string;
  title: string;
  description: string;
  headings: string[];
  organizationName: string | null;
  keywords: string[];
  fetchedAt: string;
  /** ISO 3166-1 alpha-2 country the page states (its JSON-LD Organization's address), when it does. */
  country?: string | null;
  /**
   * The page's language (ISO 639-1): what its text says when it says it clearly, else its `<html lang>`, else null.
   * Absent on profiles read before it was recorded.
   */
  language?: string | null;
}

/** Fetches and reads a homepage; null when the site cannot be reached or is not an HTML page we may read. */
export interface HomepageReader {
  read(domain: string, signal: AbortSignal): Promise<HomepageProfile | null>;
}

/** Profiles of unknown domains, kept for a while so that a domain is crawled once, not on every search. */
export interface ProfileCache {
  get(domain: string): Promise<HomepageProfile | null>;
  put(profile: HomepageProfile): Promise<void>;
}

/** The message asking the aggregate worker to count one settled search in its account's company rows. */
export interface AggregationMessage {
  accountId: string;
  searchId: string;
}

/** The aggregate queue: counting a settled search happens off the search's path (functions/workers/aggregate.ts). */
export interface AggregationQueue {
  enqueue(message: AggregationMessage): Promise<void>;
}
