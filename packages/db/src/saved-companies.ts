// db adapter (secondary): the watchlist. One row per domain (ACCOUNT#<acct> / SAVED#<domain>), listed newest first
// through GSI1 (SAVED#<acct> / <savedAt>#<domain>). A counter item changes in the same transaction as each row, so
// the cap holds under concurrent saves, and so does the row's WATCHED# index item (the monitor's list, see monitor.ts).
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SavedCompany } from '@rivals/contracts';
import { ApiError, type Page, type PageRequest, type SavedCompanyStore } from '@rivals/core';
import { transact, type TableRef } from './client.js';
import { CONDITIONS, failedCondition } from './conditions.js';
import { queryKeyPage } from './cursor.js';
import { GSI1, keys } from './keys.js';

const toRow = (item: Record<string, unknown>): SavedCompany => ({
  domain: item.domain as string,
  company: (item.company as string | null | undefined) ?? null,
  note: (item.note as string | null | undefined) ?? null,
  searchId: (item.searchId as string | null | undefined) ?? null,
  savedAt: item.savedAt as string,
  lastCheckedAt: (item.lastCheckedAt as string | null | undefined) ?? null,
  unseenChanges: (item.unseenChanges as number | undefined) ?? 0,
});

export class DynamoSavedCompanyStore implements SavedCompanyStore {
  constructor(private readonly table: TableRef) {}

  async save(accountId: string, row: SavedCompany, max: number): Promise<{ row: SavedCompany; created: boolean }> {
    const { tableName } = this.table;
    try {
      await transact(this.table, {
        TransactItems: [
          {
            Put: {
              TableName: tableName,
              Item: { ...keys.saved(accountId, row.domain), ...keys.savedByTime(accountId, row.savedAt, row.domain), ...row },
              ConditionExpression: CONDITIONS.isNew,
            },
          },
          {
            Update: {
              TableName: tableName,
              Key: keys.watchlist(accountId),
              UpdateExpression: 'ADD #count :one',
              ConditionExpression: 'attribute_not_exists(#count) OR #count < :max',
              ExpressionAttributeNames: { '#count': 'count' },
              ExpressionAttributeValues: { ':one': 1, ':max': max },
            },
          },
          // Every saved company is watched: the monitor finds it through this index item (docs/monitoring.md).
          { Put: { TableName: tableName, Item: { ...keys.watched(accountId, row.domain), accountId, domain: row.domain } } },
        ],
      });
      return { row, created: true };
    } catch (error) {
      const failed = failedCondition(error);
      if (failed?.index === 0) {
        const { Item } = await this.table.client.send(new GetCommand({ TableName: tableName, Key: keys.saved(accountId, row.domain), ConsistentRead: true }));
        if (Item) return { row: toRow(Item), created: false };
      }
      if (failed?.index === 1) throw new ApiError('conflict', `The watchlist holds at most ${max} companies; remove one before saving another.`);
      throw error;
    }
  }

  list(accountId: string, request: PageRequest): Promise<Page<SavedCompany>> {
    const { pk } = keys.account(accountId);
    const { gsi1pk } = keys.savedOf(accountId);
    return queryKeyPage(
      this.table,
      { IndexName: GSI1, KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': gsi1pk }, ScanIndexForward: false },
      { limit: request.limit, ...(request.cursor ? { cursor: request.cursor } : {}), keyNames: ['pk', 'sk', 'gsi1pk', 'gsi1sk'], expected: { pk, gsi1pk }, skPrefix: 'SAVED#' },
      toRow,
    );
  }

  async update(accountId: string, domain: string, changes: Partial<Pick<SavedCompany, 'company' | 'note' | 'searchId'>>): Promise<SavedCompany | null> {
    const fields = Object.entries(changes).filter(([, v]) => v !== undefined);
    if (!fields.length) {
      const { Item } = await this.table.client.send(new GetCommand({ TableName: this.table.tableName, Key: keys.saved(accountId, domain), ConsistentRead: true }));
      return Item ? toRow(Item) : null;
    }
    try {
      const { Attributes } = await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: keys.saved(accountId, domain),
          UpdateExpression: `SET ${fields.map(([k]) => `#${k} = :${k}`).join(', ')}`,
          ConditionExpression: CONDITIONS.exists,
          ExpressionAttributeNames: Object.fromEntries(fields.map(([k]) => [`#${k}`, k])),
          ExpressionAttributeValues: Object.fromEntries(fields.map(([k, v]) => [`:${k}`, v])),
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes ? toRow(Attributes) : null;
    } catch (error) {
      if ((error as Error).name === 'ConditionalCheckFailedException') return null;
      throw error;
    }
  }

  async remove(accountId: string, domain: string): Promise<void> {
    try {
      await transact(this.table, {
        TransactItems: [
          { Delete: { TableName: this.table.tableName, Key: keys.saved(accountId, domain), ConditionExpression: CONDITIONS.exists } },
          {
            Update: {
              TableName: this.table.tableName,
              Key: keys.watchlist(accountId),
              UpdateExpression: 'ADD #count :minusOne',
              ExpressionAttributeNames: { '#count': 'count' },
              ExpressionAttributeValues: { ':minusOne': -1 },
            },
          },
          { Delete: { TableName: this.table.tableName, Key: keys.watched(accountId, domain) } },
        ],
      });
    } catch (error) {
      if (failedCondition(error)?.index !== 0) throw error; // not saved: nothing to remove
    }
  }
}
