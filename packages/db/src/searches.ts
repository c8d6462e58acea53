// db adapter (secondary): stored searches, read back for free.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { SearchRecord, SearchStore } from '@rivals/core';
import type { TableRef } from './client.js';
import { keys, withoutKeys } from './keys.js';

export class DynamoSearchStore implements SearchStore {
  constructor(private readonly table: TableRef) {}

  async get(accountId: string, searchId: string): Promise<SearchRecord | null> {
    const { Item } = await this.table.client.send(new GetCommand({ TableName: this.table.tableName, Key: keys.search(accountId, searchId) }));
    return Item ? withoutKeys<SearchRecord>(Item) : null;
  }
}
