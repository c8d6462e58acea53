// db: paged Queries of one partition, newest first, with opaque cursors. A cursor is the base64url of the last
// item's sort key; it is checked against the partition and prefix it was made for, so a forged or stale one is
// 400 invalid_request, never a DynamoDB error or another partition's data.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { invalidRequest, type Page, type PageRequest } from '@rivals/core';
import type { TableRef } from './client.js';

const badCursor = () => invalidRequest('The cursor is not valid for this list; start again without it.', [{ field: 'cursor', problem: 'invalid' }]);

export const encodeCursor = (sk: string) => Buffer.from(sk, 'utf8').toString('base64url');

export function decodeCursor(cursor: string, skPrefix: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw badCursor();
  const sk = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!sk.startsWith(skPrefix) || sk.length > 1024 || encodeCursor(sk) !== cursor) throw badCursor();
  return sk;
}

/** One page of the items of `pk` whose sort key starts with `skPrefix`, newest first (sort keys embed ULIDs). */
export async function queryPage(table: TableRef, query: { pk: string; skPrefix: string }, page: PageRequest): Promise<Page<Record<string, unknown>>> {
  const { pk, skPrefix } = query;
  const after = page.cursor === undefined ? undefined : decodeCursor(page.cursor, skPrefix);
  // One more than asked: there is a next page only if it came back.
  const { Items = [] } = await table.client.send(
    new QueryCommand({
      TableName: table.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
      ScanIndexForward: false,
      Limit: page.limit + 1,
      ...(after ? { ExclusiveStartKey: { pk, sk: after } } : {}),
    }),
  );
  const items = Items.slice(0, page.limit);
  const last = items.at(-1);
  return { items, nextCursor: Items.length > page.limit && last ? encodeCursor(String(last.sk)) : null };
}
