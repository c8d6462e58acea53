// db adapter (secondary): stored searches, read back for free. History is one Query on the account's partition
// (newest first, sort keys embed ULIDs), projected to the listed fields so that competitors are never returned.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { PAGE_LIMIT_MAX, type HistoryItem } from '@rivals/contracts';
import type { HistoryFilter, Page, PageRequest, SearchRecord, SearchStore } from '@rivals/core';
import type { TableRef } from './client.js';
import { queryKeyPage } from './cursor.js';
import { keys, withoutKeys } from './keys.js';

const HISTORY_FIELDS = ['pk', 'sk', 'id', 'domain', 'status', 'createdAt', 'totalCompetitors', 'likelyCompetitors', 'source', 'jobId', 'seeds'] as const;
/** With a filter, requests made until `limit` items match; then the page ends and its cursor goes on. */
const MAX_FILTERED_REQUESTS = 10;

const toHistoryItem = (item: Record<string, unknown>): HistoryItem => ({
  id: item.id as string,
  domain: item.domain as string,
  status: item.status as HistoryItem['status'],
  createdAt: item.createdAt as string,
  totalCompetitors: Number(item.totalCompetitors ?? 0),
  likelyCompetitors: Number(item.likelyCompetitors ?? 0),
  source: (item.source as HistoryItem['source'] | undefined) ?? 'api',
  ...(item.jobId ? { jobId: item.jobId as string } : {}),
  ...(item.seeds ? { seeds: item.seeds as string[] } : {}),
});

export class DynamoSearchStore implements SearchStore {
  constructor(private readonly table: TableRef) {}

  async get(accountId: string, searchId: string): Promise<SearchRecord | null> {
    const { Item } = await this.table.client.send(new GetCommand({ TableName: this.table.tableName, Key: keys.search(accountId, searchId) }));
    return Item ? withoutKeys<SearchRecord>(Item) : null;
  }

  history(accountId: string, request: PageRequest & HistoryFilter): Promise<Page<HistoryItem>> {
    const { pk, skPrefix } = keys.searchesOf(accountId);
    const filters: string[] = [];
    const values: Record<string, unknown> = { ':pk': pk, ':prefix': skPrefix };
    if (request.source) {
      filters.push('#source = :source');
      values[':source'] = request.source;
    }
    if (request.status) {
      filters.push('#status = :status');
      values[':status'] = request.status;
    }
    return queryKeyPage(
      this.table,
      {
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
        ProjectionExpression: HISTORY_FIELDS.map((f) => `#${f}`).join(', '),
        ExpressionAttributeNames: Object.fromEntries(HISTORY_FIELDS.map((f) => [`#${f}`, f])),
        ExpressionAttributeValues: values,
        ScanIndexForward: false,
      },
      {
        limit: request.limit,
        ...(request.cursor ? { cursor: request.cursor } : {}),
        keyNames: ['pk', 'sk'],
        expected: { pk },
        skPrefix,
        ...(filters.length ? { filtered: { pageSize: PAGE_LIMIT_MAX, maxRequests: MAX_FILTERED_REQUESTS } } : {}),
      },
      toHistoryItem,
    );
  }
}
