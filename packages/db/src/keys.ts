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
  /** A rate-limit token bucket (`key:<keyId>`, `ip:<address>`, `auth:<address>`): one item each, expired by TTL when idle. */
  rateBucket: (bucket: string) => {
    const at = bucket.indexOf(':');
    return { pk: `RATE#${bucket.slice(0, at)}#${bucket.slice(at + 1)}`, sk: 'RATE' };
  },
  /** Cached homepage profiles of domains the knowledge base does not know. */
  profile: (domain: string) => ({ pk: `PROFILE#${domain}`, sk: 'PROFILE' }),
};

const KEY_FIELDS = new Set<string>(Object.values(TABLE_ATTRIBUTES));

/** An item without its key attributes, as the domain sees it. */
export function withoutKeys<T>(item: Record<string, unknown>): T {
  return Object.fromEntries(Object.entries(item).filter(([k]) => !KEY_FIELDS.has(k))) as T;
}
