// db adapter (secondary): the companies an account has found, one row per company, aggregated over its searches.
//
// How a search is counted exactly once, whatever is replayed or crashes where:
// 1. The ledger's settleSearch writes, in the SAME transaction as the settle (conditioned on the search still
//    running), a pending item ACCOUNT#<acct> / AGGPENDING#<searchId> with nextChunk 0. A replayed settle is cancelled
//    whole, so a search is marked for aggregation at most once, and only when it succeeded.
// 2. finish() applies the search's competitors in chunks of CHUNK rows. Each chunk is one transaction: move the
//    pending item's nextChunk from n to n + 1 (condition: it is n; the last chunk deletes the item instead) and put
//    each company row with optimistic locking on its version. A chunk lands whole, counted once, or not at all; a
//    second runner (a retry, a concurrent read) fails the nextChunk condition, reads the pending item again and goes on
//    from where the first stopped. No marker outlives the pending item, and nothing is ever counted without it.
// 3. Why not the rows in the settle's own transaction: a search has up to 100 competitors, and 100 rows plus the settle
//    exceed TransactWriteItems' 100 items; and a row's new count, best score, type set, capped foundFor list and sort
//    key are computed from the row as it was (read first, written with a version condition), which ADD cannot express.
// 4. finish() runs off the search's path: after the settle, ResearchRun enqueues {accountId, searchId} on the aggregate
//    queue and functions/workers/aggregate.ts calls finish(); a redelivered message finds no pending item, a no-op.
//    A lost message (the send failed, a crash before it) or a worker not yet run leaves the pending item: GET
//    /api/my-companies finishes the account's pending aggregations first (one Query on its partition, normally
//    empty), so a read always includes every settled search and no sweeper is needed.
//
// Rows: ACCOUNT#<acct> / COMPANY#<row key>; GSI1 COMPANIES#<acct> / <inverted zero-padded timesFound>#<row key>, so
// "most often found first" is one Query on the index. foundFor keeps the FOUND_FOR_MAX most recent target domains.
// One row per company entity: a company's row key is its domain; a product line reported under its company's domain
// (Teams under microsoft.com) has its own row, keyed by its own host, with the company named beside the product.
//
// timesFound counts distinct targets: searching stripe.com twice counts Adyen once. Each target the account searched
// has a marker ACCOUNT#<acct> / AGGTARGET#<target> holding the row keys already counted for it (a string set, bounded
// by the companies ever found for that one target); a chunk reads it with its rows, counts only the rows it lacks,
// and adds them to it in the same transaction. Two searches of one target racing on a row are serialised by the
// row's version condition: the loser re-reads the marker and finds the row counted.
import { BatchGetCommand, GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { COMPETITOR_TYPES, FOUND_FOR_MAX, UNKNOWN_FIRMOGRAPHICS, type CompetitorType, type MyCompany, type StoredCompetitor } from '@rivals/contracts';
import type { CompanyStore } from '@rivals/core';
import type { TableRef } from './client.js';
import { CONDITIONS } from './conditions.js';
import { GSI1, keys } from './keys.js';

/** Company rows per transaction (plus the pending item): well under TransactWriteItems' 100 items and 4 MB. */
const CHUNK = 50;
/** Cancelled transactions (a concurrent search of the same account touched a row) retried before giving up. */
const MAX_CONFLICTS = 12;
/** Pending aggregations finished by one read; more wait for the next read. */
const CATCH_UP_BATCH = 25;

/** What counting a search needs: its target, when it settled, and its ranked competitors. */
export interface SettledForAggregation {
  domain: string;
  at: string;
  competitors: StoredCompetitor[];
}

interface CompanyRow extends MyCompany {
  version: number;
}

const isCancelled = (error: unknown) => ['TransactionCanceledException', 'TransactionConflictException'].includes((error as Error)?.name);
const pause = (attempt: number) => new Promise((r) => setTimeout(r, Math.random() * 10 * 2 ** Math.min(attempt, 6)));

/** The row a competitor counts in: its domain, or a product line's own host (so Teams and OneDrive are two rows). */
export const rowKeyOf = (c: StoredCompetitor): string => (c.evidence?.parentCompany && c.evidence.entity ? c.evidence.entity : c.domain);

/** The search's competitors, one per row, in rank order: the same chunks on every run. */
function chunksOf(competitors: StoredCompetitor[]): StoredCompetitor[][] {
  const seen = new Set<string>();
  const unique = competitors.filter((c) => !seen.has(rowKeyOf(c)) && seen.add(rowKeyOf(c)));
  const chunks: StoredCompetitor[][] = [];
  for (let i = 0; i < unique.length; i += CHUNK) chunks.push(unique.slice(i, i + CHUNK));
  return chunks;
}

const typesOf = (value: unknown): CompetitorType[] => {
  const set = new Set(value instanceof Set ? [...value] : Array.isArray(value) ? value : []);
  return COMPETITOR_TYPES.filter((t) => set.has(t));
};

/** The company and product names of a competitor's row. */
const namesOf = (c: StoredCompetitor) => (c.evidence?.parentCompany ? { company: c.evidence.parentCompany, product: c.company } : { company: c.company, product: null });

/** The row after one more search found this company; `newTarget`: the first search of this target to find it. */
function foundAgain(row: CompanyRow | undefined, competitor: StoredCompetitor, search: { domain: string; at: string }, newTarget = true): CompanyRow {
  if (!row)
    return {
      ...namesOf(competitor),
      domain: competitor.domain,
      timesFound: 1,
      bestMatchScore: competitor.matchScore,
      types: [competitor.type],
      firstSeenAt: search.at,
      lastSeenAt: search.at,
      foundFor: [search.domain],
      firmographics: competitor.firmographics ?? UNKNOWN_FIRMOGRAPHICS,
      version: 1,
    };
  const latest = search.at >= row.lastSeenAt;
  const others = row.foundFor.filter((d) => d !== search.domain);
  return {
    ...(latest ? namesOf(competitor) : { company: row.company, product: row.product }),
    domain: row.domain,
    timesFound: row.timesFound + (newTarget ? 1 : 0),
    bestMatchScore: Math.max(row.bestMatchScore, competitor.matchScore),
    types: typesOf([...row.types, competitor.type]),
    firstSeenAt: search.at < row.firstSeenAt ? search.at : row.firstSeenAt,
    lastSeenAt: latest ? search.at : row.lastSeenAt,
    foundFor: (latest ? [search.domain, ...others] : row.foundFor.includes(search.domain) ? row.foundFor : [...row.foundFor, search.domain]).slice(0, FOUND_FOR_MAX),
    firmographics: latest ? (competitor.firmographics ?? row.firmographics) : row.firmographics,
    version: row.version + 1,
  };
}

const toRow = (item: Record<string, unknown>): CompanyRow => ({
  company: item.company as string,
  product: (item.product as string | null | undefined) ?? null,
  domain: item.domain as string,
  timesFound: Number(item.timesFound),
  bestMatchScore: Number(item.bestMatchScore),
  types: typesOf(item.types),
  firstSeenAt: item.firstSeenAt as string,
  lastSeenAt: item.lastSeenAt as string,
  foundFor: (item.foundFor as string[] | undefined) ?? [],
  // Rows counted before firmographics were stored have none yet; the next search that finds the company adds them.
  firmographics: (item.firmographics as MyCompany['firmographics'] | undefined) ?? UNKNOWN_FIRMOGRAPHICS,
  version: Number(item.version ?? 0),
});

const toCompany = ({ version: _version, ...company }: CompanyRow): MyCompany => company;

export class DynamoCompanyStore implements CompanyStore {
  constructor(private readonly table: TableRef) {}

  /**
   * Counts a settled search in the account's rows, once; a no-op when it is counted already (no pending item). Each
   * chunk is one BatchGetItem and one transaction. Whenever a transaction is cancelled (another runner moved the
   * pending item, or changed a row), it reads the pending item again and goes on from there.
   */
  async finish(accountId: string, searchId: string): Promise<void> {
    let search: SettledForAggregation | null | undefined;
    /** The pending item's next chunk as this runner knows it; undefined: read it. */
    let next: number | undefined;
    for (let conflicts = 0; ; ) {
      if (next === undefined) {
        const pending = await this.get(keys.aggregationPending(accountId, searchId));
        if (!pending) return;
        next = Number(pending.nextChunk ?? 0);
      }
      search ??= await this.settled(accountId, searchId);
      const chunks = search ? chunksOf(search.competitors) : [];
      const n = next;
      try {
        await this.apply(accountId, searchId, n, chunks, search);
        if (n + 1 >= chunks.length) return;
        next = n + 1; // this runner's own transaction moved it there
      } catch (error) {
        next = undefined;
        if (!isCancelled(error) || ++conflicts > MAX_CONFLICTS) throw error;
        await pause(conflicts);
      }
    }
  }

  async catchUp(accountId: string): Promise<void> {
    const { pk, skPrefix } = keys.aggregationsPendingOf(accountId);
    const { Items = [] } = await this.table.client.send(
      new QueryCommand({
        TableName: this.table.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
        ProjectionExpression: 'sk',
        Limit: CATCH_UP_BATCH,
      }),
    );
    for (const item of Items) {
      // A search that still cannot be applied (sustained contention) stays pending for the next read; the rows
      // answered now are correct without it.
      await this.finish(accountId, (item.sk as string).slice(skPrefix.length)).catch(() => undefined);
    }
  }

  async top(accountId: string, max: number): Promise<{ items: MyCompany[]; total: number }> {
    const { gsi1pk } = keys.companiesOf(accountId);
    const query = { TableName: this.table.tableName, IndexName: GSI1, KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': gsi1pk } };
    const items: MyCompany[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.table.client.send(new QueryCommand({ ...query, Limit: max - items.length, ExclusiveStartKey: start }));
      items.push(...(page.Items ?? []).map((item) => toCompany(toRow(item))));
      start = page.LastEvaluatedKey;
    } while (start && items.length < max);
    // Beyond the cap, the rest is counted, not read.
    let total = items.length;
    while (start) {
      const page = await this.table.client.send(new QueryCommand({ ...query, Select: 'COUNT', ExclusiveStartKey: start }));
      total += page.Count ?? 0;
      start = page.LastEvaluatedKey;
    }
    return { items, total };
  }

  /** The name of a company this account's searches found under this domain (as itself, not as a product line). */
  async nameOf(accountId: string, domain: string): Promise<string | null> {
    const item = await this.get(keys.company(accountId, domain), 'company');
    return typeof item?.company === 'string' ? item.company : null;
  }

  /** One chunk: the pending item moves on (or goes, after the last chunk) in the same transaction as the rows. */
  private async apply(accountId: string, searchId: string, n: number, chunks: StoredCompetitor[][], search: SettledForAggregation | null): Promise<void> {
    const { tableName } = this.table;
    const chunk = chunks[n] ?? [];
    const targetKey = search ? keys.aggregationTarget(accountId, search.domain) : null;
    const [current, target] = await Promise.all([this.rows(accountId, chunk.map(rowKeyOf)), targetKey ? this.get(targetKey, '#rows', { '#rows': 'rows' }) : null]);
    const counted = new Set<string>(target?.rows instanceof Set ? [...(target.rows as Set<string>)] : []);
    const newKeys = chunk.map(rowKeyOf).filter((k) => !counted.has(k));
    const last = n + 1 >= chunks.length;
    const pendingKey = keys.aggregationPending(accountId, searchId);
    const guard = { ConditionExpression: 'nextChunk = :n', ExpressionAttributeValues: { ':n': n } };
    await this.table.client.send(
      new TransactWriteCommand({
        TransactItems: [
          last
            ? { Delete: { TableName: tableName, Key: pendingKey, ...guard } }
            : { Update: { TableName: tableName, Key: pendingKey, UpdateExpression: 'SET nextChunk = :next', ...guard, ExpressionAttributeValues: { ':n': n, ':next': n + 1 } } },
          ...(targetKey && newKeys.length
            ? [{ Update: { TableName: tableName, Key: targetKey, UpdateExpression: 'ADD #rows :keys', ExpressionAttributeNames: { '#rows': 'rows' }, ExpressionAttributeValues: { ':keys': new Set(newKeys) } } }]
            : []),
          ...chunk.map((competitor) => {
            const key = rowKeyOf(competitor);
            const before = current.get(key);
            const row = foundAgain(before, competitor, search!, !counted.has(key));
            return {
              Put: {
                TableName: tableName,
                Item: { ...keys.company(accountId, key), ...keys.companyByCount(accountId, row.timesFound, key), ...row, types: new Set(row.types) },
                ...(before
                  ? { ConditionExpression: 'version = :version', ExpressionAttributeValues: { ':version': before.version } }
                  : { ConditionExpression: CONDITIONS.isNew }),
              },
            };
          }),
        ],
      }),
    );
  }

  /** The rows of these row keys, by key. */
  private async rows(accountId: string, rowKeys: string[]): Promise<Map<string, CompanyRow>> {
    const found = new Map<string, CompanyRow>();
    const prefix = keys.company(accountId, '').sk;
    let keysLeft: Record<string, unknown>[] = rowKeys.map((k) => keys.company(accountId, k));
    while (keysLeft.length) {
      const { Responses, UnprocessedKeys } = await this.table.client.send(
        new BatchGetCommand({ RequestItems: { [this.table.tableName]: { Keys: keysLeft, ConsistentRead: true } } }),
      );
      for (const item of Responses?.[this.table.tableName] ?? []) found.set((item.sk as string).slice(prefix.length), toRow(item));
      keysLeft = (UnprocessedKeys?.[this.table.tableName]?.Keys as Record<string, unknown>[] | undefined) ?? [];
    }
    return found;
  }

  private async settled(accountId: string, searchId: string): Promise<SettledForAggregation | null> {
    const item = await this.get(keys.search(accountId, searchId), '#domain, completedAt, createdAt, competitors', { '#domain': 'domain' });
    if (!item) return null;
    return { domain: item.domain as string, at: (item.completedAt ?? item.createdAt) as string, competitors: (item.competitors as StoredCompetitor[] | undefined) ?? [] };
  }

  private async get(key: Record<string, string>, projection?: string, names?: Record<string, string>) {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.tableName, Key: key, ConsistentRead: true, ...(projection ? { ProjectionExpression: projection, ExpressionAttributeNames: names } : {}) }),
    );
    return Item ?? null;
  }
}
