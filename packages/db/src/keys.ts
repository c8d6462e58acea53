// db: every key of the single table, built in one place. Items of one account share its partition, so that
// history, keys and ledger entries are one Query each; sort keys embed ULIDs, so they sort by time.
export const TABLE_ATTRIBUTES = { pk: 'pk', sk: 'sk', gsi1pk: 'gsi1pk', gsi1sk: 'gsi1sk', ttl: 'ttl' } as const;
export const GSI1 = 'gsi1';

/**
 * Running searches are spread over this many GSI1 partitions, so that a burst of searches never makes one hot index
 * partition; the sweeper reads each of them.
 */
export const SWEEP_SHARDS = 8;
const shardOf = (id: string) => {
  let h = 0;
  for (let i = 0; i < id.length; i++) h = (h * 31 + id.charCodeAt(i)) >>> 0;
  return h % SWEEP_SHARDS;
};

const COUNT_DIGITS = 10;
const COUNT_CEILING = 10 ** COUNT_DIGITS - 1;

export const keys = {
  account: (accountId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: 'ACCOUNT' }),
  apiKey: (accountId: string, keyId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `APIKEY#${keyId}` }),
  apiKeysOf: (accountId: string) => ({ pk: `ACCOUNT#${accountId}`, skPrefix: 'APIKEY#' }),
  /**
   * Claims a key hash for one key record, so that no two records can ever share a key. It names the owner and carries
   * revokedAt, so that the authorizer finds a key with one strongly consistent GetItem.
   */
  apiKeyHashClaim: (hash: string) => ({ pk: `APIKEYHASH#${hash}`, sk: 'APIKEYHASH' }),
  search: (accountId: string, searchId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `SEARCH#${searchId}` }),
  /**
   * Sparse GSI1 keys of a search while it runs (removed when it settles or is refunded): the sweeper finds the
   * searches still running past `sweepAfter` with one Query per shard, never a Scan.
   */
  runningSearch: (searchId: string, sweepAfter: string) => ({ gsi1pk: `RUNNING#${shardOf(searchId)}`, gsi1sk: `${sweepAfter}#${searchId}` }),
  runningShards: () => Array.from({ length: SWEEP_SHARDS }, (_, shard) => `RUNNING#${shard}`),
  searchesOf: (accountId: string) => ({ pk: `ACCOUNT#${accountId}`, skPrefix: 'SEARCH#' }),
  ledgerEntry: (accountId: string, entryId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `LEDGER#${entryId}` }),
  ledgerOf: (accountId: string) => ({ pk: `ACCOUNT#${accountId}`, skPrefix: 'LEDGER#' }),
  /** Idempotency records live in their own partitions, spread by key (not one hot partition). */
  idempotency: (recordKey: string) => ({ pk: `IDEMPOTENCY#${recordKey}`, sk: 'IDEMPOTENCY' }),
  /** A bulk job lives in its account's partition, so that the account's jobs are one Query. */
  bulkJob: (accountId: string, jobId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `JOB#${jobId}` }),
  bulkJobsOf: (accountId: string) => ({ pk: `ACCOUNT#${accountId}`, skPrefix: 'JOB#' }),
  /** A job's domains live in the job's own partition, in file order, so that its results page with one Query. */
  bulkDomain: (jobId: string, seq: number) => ({ pk: `JOB#${jobId}`, sk: `DOMAIN#${String(seq).padStart(6, '0')}` }),
  bulkDomainsOf: (jobId: string) => ({ pk: `JOB#${jobId}`, skPrefix: 'DOMAIN#' }),
  /** One marker per job not yet ended, for the sweeper: written with the job, deleted when it ends (never a Scan). */
  activeBulkJob: (jobId: string) => ({ pk: 'BULKJOBS#ACTIVE', sk: `JOB#${jobId}` }),
  activeBulkJobs: () => ({ pk: 'BULKJOBS#ACTIVE', skPrefix: 'JOB#' }),
  /**
   * One marker per job whose completion webhook is owed: written with the job, deleted when the webhook is delivered or
   * abandoned, so that a lost webhook message is found again (restart, re-drive) without a Scan.
   */
  webhookOwed: (jobId: string) => ({ pk: 'BULKJOBS#WEBHOOK', sk: `JOB#${jobId}` }),
  webhooksOwed: () => ({ pk: 'BULKJOBS#WEBHOOK', skPrefix: 'JOB#' }),
  /** The account's webhook signing secret. */
  webhookSecret: (accountId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: 'WEBHOOKSECRET' }),
  /** A settled search whose companies are not yet all counted in the account's rows (see companies.ts). */
  aggregationPending: (accountId: string, searchId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `AGGPENDING#${searchId}` }),
  aggregationsPendingOf: (accountId: string) => ({ pk: `ACCOUNT#${accountId}`, skPrefix: 'AGGPENDING#' }),
  /** The rows already counted for one target domain, so that searching it again counts nothing twice (companies.ts). */
  aggregationTarget: (accountId: string, targetDomain: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `AGGTARGET#${targetDomain}` }),
  /** One company the account's searches have found (a company's domain, or a product line's host), aggregated over them. */
  /**
   * Sparse GSI1 keys of a pending aggregation (gone with the item), sorted by when its message was last sent: the
   * re-drive finds the ones whose message was lost with one Query per shard.
   */
  pendingAggregation: (accountId: string, searchId: string, sentAt: string) => ({ gsi1pk: `AGGPENDING#${shardOf(searchId)}`, gsi1sk: `${sentAt}#${accountId}#${searchId}` }),
  pendingAggregationShards: () => Array.from({ length: SWEEP_SHARDS }, (_, shard) => `AGGPENDING#${shard}`),
  /** One company the account's searches have found, aggregated over them. */
  company: (accountId: string, domain: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `COMPANY#${domain}` }),
  /** GSI1 keys of a company row: most often found first (inverted, zero-padded count), then by domain. */
  companyByCount: (accountId: string, timesFound: number, domain: string) => ({
    gsi1pk: `COMPANIES#${accountId}`,
    gsi1sk: `${String(COUNT_CEILING - Math.min(timesFound, COUNT_CEILING)).padStart(COUNT_DIGITS, '0')}#${domain}`,
  }),
  companiesOf: (accountId: string) => ({ gsi1pk: `COMPANIES#${accountId}` }),
  /** The public lookup of a share link, keyed by the SHA-256 of its token (never the token). */
  share: (tokenHash: string) => ({ pk: `SHARE#${tokenHash}`, sk: 'SHARE' }),
  /** A watchlist row, one per domain; GSI1 lists them newest first. */
  saved: (accountId: string, domain: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `SAVED#${domain}` }),
  savedByTime: (accountId: string, savedAt: string, domain: string) => ({ gsi1pk: `SAVED#${accountId}`, gsi1sk: `${savedAt}#${domain}` }),
  savedOf: (accountId: string) => ({ gsi1pk: `SAVED#${accountId}` }),
  /** How many rows the watchlist holds, changed in the same transaction as each row (the cap). */
  watchlist: (accountId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: 'WATCHLIST' }),
  /**
   * Every watched company (a watchlist row) of every account, spread over shards, for the monitor's fan-out (a Query
   * per shard, never a Scan). Written and deleted in the same transaction as the row.
   */
  watched: (accountId: string, domain: string) => ({ pk: `WATCHED#${shardOf(`${accountId}#${domain}`)}`, sk: `${accountId}#${domain}` }),
  watchedShards: () => Array.from({ length: SWEEP_SHARDS }, (_, shard) => `WATCHED#${shard}`),
  /** A change the monitor recorded, newest last in the account's partition; GSI1 lists one watched company's. */
  change: (accountId: string, detectedAt: string, changeId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `CHANGE#${detectedAt}#${changeId}` }),
  changeOfDomain: (accountId: string, domain: string, detectedAt: string, changeId: string) => ({ gsi1pk: `CHANGES#${accountId}#${domain}`, gsi1sk: `${detectedAt}#${changeId}` }),
  /** A monitor run and its counters; the schedule's state (last knowledge-base version, last scheduled run). */
  monitorRun: (runId: string) => ({ pk: `MONITORRUN#${runId}`, sk: 'RUN' }),
  /** A company whose check in the run found changes (the operator's report). */
  monitorFinding: (runId: string, accountId: string, domain: string) => ({ pk: `MONITORRUN#${runId}`, sk: `FOUND#${accountId}#${domain}` }),
  monitorState: () => ({ pk: 'MONITOR#STATE', sk: 'STATE' }),
  /** The account's webhook endpoint (watchlist events) and the events owed to it. */
  webhookEndpoint: (accountId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: 'WEBHOOKENDPOINT' }),
  watchEvent: (accountId: string, eventId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `WATCHEVENT#${eventId}` }),
  /** A rate-limit token bucket (`key:<keyId>`, `ip:<address>`, `auth:<address>`): one item each, expired by TTL when idle. */
  rateBucket: (bucket: string) => {
    const at = bucket.indexOf(':');
    return { pk: `RATE#${bucket.slice(0, at)}#${bucket.slice(at + 1)}`, sk: 'RATE' };
  },
  /** Cached homepage profiles of domains the knowledge base does not know. */
  profile: (domain: string) => ({ pk: `PROFILE#${domain}`, sk: 'PROFILE' }),
  /**
   * A discovered company: its own partition (writes spread by domain), with its learned relations beside it. GSI1
   * lists every discovered company for operators, spread over shards by domain so that no index partition is hot.
   */
  discovered: (domain: string) => ({ pk: `DISCOVERED#${domain}`, sk: 'COMPANY' }),
  discoveredListed: (domain: string) => ({ gsi1pk: `DISCOVERED#${shardOf(domain)}`, gsi1sk: domain }),
  discoveredShards: () => Array.from({ length: SWEEP_SHARDS }, (_, shard) => `DISCOVERED#${shard}`),
  /** Which categories hold discovered members and which domains have learned relations (a hint; see discovered.ts). */
  discoveredSummary: () => ({ pk: 'DISCOVERED#SUMMARY', sk: 'SUMMARY' }),
  /** A learned relation, stored at both ends (one Query reads a domain's relations both ways). */
  learnedEdge: (domain: string, other: string) => ({ pk: `DISCOVERED#${domain}`, sk: `REL#${other}` }),
  learnedEdgesOf: (domain: string) => ({ pk: `DISCOVERED#${domain}`, skPrefix: 'REL#' }),
  /**
   * A discovered company's membership of one category, carrying the projection a search reads. One partition per
   * category, sorted by weight (primary members first), so that a search reads a category's best members with one
   * Query and a Limit.
   */
  discoveredMember: (category: string, weight: number, domain: string) => ({
    pk: `DISCAT#${category}`,
    sk: `${String(Math.round((1 - Math.min(1, Math.max(0, weight))) * 1000)).padStart(4, '0')}#${domain}`,
  }),
  discoveredMembersOf: (category: string) => ({ pk: `DISCAT#${category}` }),
  /** A company a team imported into its deployment's knowledge base, and the version every process watches. */
  kbImport: (domain: string) => ({ pk: 'KBIMPORT', sk: `COMPANY#${domain}` }),
  kbImportsOf: () => ({ pk: 'KBIMPORT', skPrefix: 'COMPANY#' }),
  kbImportVersion: () => ({ pk: 'KBIMPORT', sk: 'VERSION' }),
  /** A domain operators banned from the discovered layer; GSI1 lists the bans (few). */
  bannedDomain: (domain: string) => ({ pk: `BANNED#${domain}`, sk: 'BANNED' }),
  bannedListed: (domain: string) => ({ gsi1pk: 'BANNED', gsi1sk: domain }),
  bannedDomains: () => ({ gsi1pk: 'BANNED' }),
};

const KEY_FIELDS = new Set<string>(Object.values(TABLE_ATTRIBUTES));

/** An item without its key attributes, as the domain sees it. */
export function withoutKeys<T>(item: Record<string, unknown>): T {
  return Object.fromEntries(Object.entries(item).filter(([k]) => !KEY_FIELDS.has(k))) as T;
}
