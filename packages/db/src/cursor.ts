// db: list pages and their cursors, one way for every list (a partition prefix, an index, a filtered Query). A cursor is the base64url JSON of the key a page stopped at; it is accepted back
// only when its partition is the caller's own (and, for index pages, the index partition too), so a cursor can never
// reach another account's items. Anything else is 400 invalid_request.
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { invalidRequest, type Page, type PageRequest } from '@rivals/core';
import type { TableRef } from './client.js';

type Key = Record<string, string>;

export const encodeKeyCursor = (key: Record<string, unknown>): string => Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');

/**
 * The key a cursor carries, checked: exactly the attributes of `names`, strings, with those of `expected` equal to it
 * and `sk` (when named) starting with `skPrefix`.
 */
export function decodeKeyCursor(cursor: string, names: readonly string[], expected: Key, skPrefix?: string): Key {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = null;
  }
  const valid =
    typeof key === 'object' &&
    key !== null &&
    !Array.isArray(key) &&
    Object.keys(key).length === names.length &&
    names.every((name) => typeof (key as Key)[name] === 'string') &&
    Object.entries(expected).every(([name, value]) => (key as Key)[name] === value) &&
    (skPrefix === undefined || (key as Key).sk!.startsWith(skPrefix));
  if (!valid) throw invalidRequest('The cursor is not valid: pass back the nextCursor of a previous page.', [{ field: 'cursor', problem: 'invalid' }]);
  return key as Key;
}

export interface KeyPageQuery {
  limit: number;
  cursor?: string;
  /** The key attributes of an item of this query (the table's, plus the index's for an index query). */
  keyNames: readonly string[];
  /** Key attributes a cursor must carry unchanged: the caller's partition. */
  expected: Key;
  skPrefix?: string;
  /** With a FilterExpression: items read per request, and requests made before the page ends anyway. */
  filtered?: { pageSize: number; maxRequests: number };
}

/**
 * One page of a Query: reads until `limit` items (one more, to know whether a next page exists), the end, or, with a
 * filter, `maxRequests` requests; the cursor goes on from the last item returned.
 */
export async function queryKeyPage<T>(table: TableRef, input: Omit<QueryCommandInput, 'TableName' | 'Limit' | 'ExclusiveStartKey'>, page: KeyPageQuery, map: (item: Record<string, unknown>) => T): Promise<Page<T>> {
  let start: Record<string, unknown> | undefined = page.cursor ? decodeKeyCursor(page.cursor, page.keyNames, page.expected, page.skPrefix) : undefined;
  const found: Record<string, unknown>[] = [];
  for (let requests = 1; ; requests++) {
    const { Items = [], LastEvaluatedKey } = await table.client.send(
      new QueryCommand({
        ...input,
        TableName: table.tableName,
        Limit: page.filtered ? page.filtered.pageSize : page.limit + 1 - found.length,
        ExclusiveStartKey: start,
      }),
    );
    found.push(...Items);
    start = LastEvaluatedKey;
    if (found.length > page.limit || !start || (page.filtered && requests >= page.filtered.maxRequests)) break;
  }
  const items = found.slice(0, page.limit);
  const last = items.at(-1);
  const nextCursor =
    found.length > page.limit && last ? encodeKeyCursor(Object.fromEntries(page.keyNames.map((name) => [name, last[name]]))) : start ? encodeKeyCursor(start) : null;
  return { items: items.map(map), nextCursor };
}

/** One page of the items of `pk` whose sort key starts with `skPrefix`, newest first (sort keys embed ULIDs), or in sort-key order. */
export function queryPage(table: TableRef, query: { pk: string; skPrefix: string }, page: PageRequest, order: 'newest-first' | 'sort-key' = 'newest-first'): Promise<Page<Record<string, unknown>>> {
  const { pk, skPrefix } = query;
  return queryKeyPage(
    table,
    {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
      ScanIndexForward: order === 'sort-key',
    },
    { limit: page.limit, ...(page.cursor === undefined ? {} : { cursor: page.cursor }), keyNames: ['pk', 'sk'], expected: { pk }, skPrefix },
    (item) => item,
  );
}
