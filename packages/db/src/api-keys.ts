// db adapter (secondary): API key records. Found by hash through GSI1 (the authorizer's one read), listed per account.
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ApiError, type ApiKeyRecord, type ApiKeyStore } from '@rivals/core';
import type { TableRef } from './client.js';
import { CONDITIONS, failedCondition, isConditionFailure } from './conditions.js';
import { GSI1, keys, withoutKeys } from './keys.js';

const toRecord = (item: Record<string, unknown>): ApiKeyRecord => {
  const record = withoutKeys<ApiKeyRecord>(item);
  return { ...record, lastUsedAt: record.lastUsedAt ?? null, revokedAt: record.revokedAt ?? null };
};

export class DynamoApiKeyStore implements ApiKeyStore {
  constructor(private readonly table: TableRef) {}

  async create(record: ApiKeyRecord): Promise<void> {
    const { tableName } = this.table;
    // Absent, not null, until set: if_not_exists() must see no revokedAt on a live key.
    const { revokedAt, lastUsedAt, ...stored } = record;
    try {
      await this.table.client.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: tableName, Item: { ...keys.apiKeyHashClaim(record.hash), accountId: record.accountId, keyId: record.id }, ConditionExpression: CONDITIONS.isNew } },
            {
              Put: {
                TableName: tableName,
                Item: { ...keys.apiKey(record.accountId, record.id), ...keys.apiKeyHash(record.hash), ...stored, ...(revokedAt ? { revokedAt } : {}), ...(lastUsedAt ? { lastUsedAt } : {}) },
                ConditionExpression: CONDITIONS.isNew,
              },
            },
          ],
        }),
      );
    } catch (error) {
      if (failedCondition(error)) throw new ApiError('conflict', 'That API key exists.');
      throw error;
    }
  }

  async findByHash(hash: string): Promise<ApiKeyRecord | null> {
    const { gsi1pk, gsi1sk } = keys.apiKeyHash(hash);
    const { Items } = await this.table.client.send(
      new QueryCommand({
        TableName: this.table.tableName,
        IndexName: GSI1,
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
        ExpressionAttributeValues: { ':pk': gsi1pk, ':sk': gsi1sk },
        Limit: 1,
      }),
    );
    const item = Items?.[0];
    return item ? toRecord(item) : null;
  }

  async accountExists(accountId: string): Promise<boolean> {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.tableName, Key: keys.account(accountId), ConsistentRead: true, ProjectionExpression: 'pk' }),
    );
    return Item !== undefined;
  }

  async list(accountId: string): Promise<ApiKeyRecord[]> {
    const { pk, skPrefix } = keys.apiKeysOf(accountId);
    const records: ApiKeyRecord[] = [];
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await this.table.client.send(
        new QueryCommand({
          TableName: this.table.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
          ScanIndexForward: false,
          ExclusiveStartKey,
        }),
      );
      records.push(...(page.Items ?? []).map(toRecord));
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    return records;
  }

  async revoke(accountId: string, keyId: string, at: string): Promise<boolean> {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: keys.apiKey(accountId, keyId),
          UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :at)',
          ConditionExpression: CONDITIONS.exists,
          ExpressionAttributeValues: { ':at': at },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }
}
