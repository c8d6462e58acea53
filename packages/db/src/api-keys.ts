// db adapter (secondary): API keys. The hash-claim item (APIKEYHASH#<sha256>) is what the authorizer reads, with a
// strongly consistent GetItem; the key record (in the account's partition) is what the account lists. The account
// item counts live keys (activeKeys), so the cap and "never revoke the last key" hold under concurrent calls.
import { BatchGetCommand, type BatchGetCommandOutput, GetCommand, TransactWriteCommand, UpdateCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { ApiError, type ApiKeyClaim, type ApiKeyRecord, type ApiKeyStore, type Page, type PageRequest, type RevokeOutcome } from '@rivals/core';
import { queryPages, type TableRef } from './client.js';
import { CONDITIONS, failedCondition, isConditionFailure } from './conditions.js';
import { keys, withoutKeys } from './keys.js';
import { queryPage } from './cursor.js';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const toRecord = (item: Record<string, unknown>): ApiKeyRecord => {
  const { id, accountId, name, hash, prefix, last4, createdAt, lastUsedAt, revokedAt } = withoutKeys<ApiKeyRecord>(item);
  return { id, accountId, name: name ?? null, hash, prefix, last4, createdAt, lastUsedAt: lastUsedAt ?? null, revokedAt: revokedAt ?? null };
};

export class DynamoApiKeyStore implements ApiKeyStore {
  constructor(private readonly table: TableRef) {}

  async create(record: ApiKeyRecord, limits: { maxActive: number | null }): Promise<void> {
    const { tableName } = this.table;
    // Absent, not null, until set: the conditions test attribute_not_exists(revokedAt) and (lastUsedAt).
    const { revokedAt: _revoked, lastUsedAt: _used, ...stored } = record;
    const capped = limits.maxActive !== null;
    const transaction = (): TransactItem[] => [
      { Put: { TableName: tableName, Item: { ...keys.apiKeyHashClaim(record.hash), accountId: record.accountId, keyId: record.id }, ConditionExpression: CONDITIONS.isNew } },
      { Put: { TableName: tableName, Item: { ...keys.apiKey(record.accountId, record.id), ...stored }, ConditionExpression: CONDITIONS.isNew } },
      {
        Update: {
          TableName: tableName,
          Key: keys.account(record.accountId),
          UpdateExpression: 'SET activeKeys = activeKeys + :one',
          ConditionExpression: capped ? CONDITIONS.keyCountBelow : CONDITIONS.keyCounted,
          ExpressionAttributeValues: { ':one': 1, ...(capped ? { ':max': limits.maxActive } : {}) },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
    ];
    for (let attempt = 0; ; attempt++) {
      try {
        await this.table.client.send(new TransactWriteCommand({ TransactItems: transaction() }));
        return;
      } catch (error) {
        const failed = failedCondition(error);
        if (!failed) throw error;
        if (failed.index < 2) throw new ApiError('conflict', 'That API key exists.');
        if (!failed.item) throw new ApiError('not_found', 'No such account.');
        if (failed.item.activeKeys === undefined && attempt === 0) {
          await this.countLiveKeys(record.accountId);
          continue;
        }
        throw new ApiError('conflict', `An account holds at most ${limits.maxActive} active API keys; revoke one first.`);
      }
    }
  }

  async findClaim(hash: string): Promise<ApiKeyClaim | null> {
    const { Item } = await this.table.client.send(new GetCommand({ TableName: this.table.tableName, Key: keys.apiKeyHashClaim(hash), ConsistentRead: true }));
    if (!Item || typeof Item.accountId !== 'string' || typeof Item.keyId !== 'string') return null;
    return { accountId: Item.accountId, keyId: Item.keyId, revokedAt: typeof Item.revokedAt === 'string' ? Item.revokedAt : null };
  }

  async loadOwned(accountId: string, keyId: string): Promise<{ accountExists: boolean; record: ApiKeyRecord | null }> {
    const { tableName } = this.table;
    const wanted = [keys.account(accountId), keys.apiKey(accountId, keyId)];
    const found: Record<string, unknown>[] = [];
    let request: Record<string, { Keys: Record<string, unknown>[]; ConsistentRead: boolean }> | undefined = { [tableName]: { Keys: wanted, ConsistentRead: true } };
    for (let round = 0; request && round < 5; round++) {
      const output: BatchGetCommandOutput = await this.table.client.send(new BatchGetCommand({ RequestItems: request }));
      found.push(...(output.Responses?.[tableName] ?? []));
      const rest = output.UnprocessedKeys?.[tableName]?.Keys;
      request = rest?.length ? { [tableName]: { Keys: rest, ConsistentRead: true } } : undefined;
    }
    if (request) throw new Error('DynamoDB left keys unprocessed after 5 rounds');
    const account = found.find((item) => item.sk === 'ACCOUNT');
    const record = found.find((item) => item.sk === keys.apiKey(accountId, keyId).sk);
    return { accountExists: account !== undefined, record: record ? toRecord(record) : null };
  }

  async touch(accountId: string, keyId: string, at: string, notBefore: string): Promise<void> {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: keys.apiKey(accountId, keyId),
          UpdateExpression: 'SET lastUsedAt = :at',
          ConditionExpression: CONDITIONS.keyUseIsStale,
          ExpressionAttributeValues: { ':at': at, ':notBefore': notBefore },
        }),
      );
    } catch (error) {
      // Written less than a minute ago, revoked or gone: nothing to record.
      if (!isConditionFailure(error)) throw error;
    }
  }

  async get(accountId: string, keyId: string): Promise<ApiKeyRecord | null> {
    const { Item } = await this.table.client.send(new GetCommand({ TableName: this.table.tableName, Key: keys.apiKey(accountId, keyId), ConsistentRead: true }));
    return Item ? toRecord(Item) : null;
  }

  async list(accountId: string, page: PageRequest): Promise<Page<ApiKeyRecord>> {
    const { pk, skPrefix } = keys.apiKeysOf(accountId);
    const { items, nextCursor } = await queryPage(this.table, { pk, skPrefix }, page);
    return { items: items.map(toRecord), nextCursor };
  }

  async revoke(accountId: string, keyId: string, at: string, options: { keepOneActive: boolean }): Promise<RevokeOutcome> {
    const { tableName } = this.table;
    const record = await this.get(accountId, keyId);
    if (!record) return 'not_found';
    if (record.revokedAt) return 'already_revoked';
    const transaction = (): TransactItem[] => [
      {
        Update: {
          TableName: tableName,
          Key: keys.apiKey(accountId, keyId),
          UpdateExpression: 'SET revokedAt = :at',
          ConditionExpression: CONDITIONS.keyIsLive,
          ExpressionAttributeValues: { ':at': at },
        },
      },
      {
        Update: {
          TableName: tableName,
          Key: keys.apiKeyHashClaim(record.hash),
          UpdateExpression: 'SET revokedAt = :at',
          ConditionExpression: CONDITIONS.exists,
          ExpressionAttributeValues: { ':at': at },
        },
      },
      {
        Update: {
          TableName: tableName,
          Key: keys.account(accountId),
          UpdateExpression: 'SET activeKeys = activeKeys - :one',
          ConditionExpression: CONDITIONS.keyCountAbove,
          ExpressionAttributeValues: { ':one': 1, ':min': options.keepOneActive ? 1 : 0 },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
    ];
    for (let attempt = 0; ; attempt++) {
      try {
        await this.table.client.send(new TransactWriteCommand({ TransactItems: transaction() }));
        return 'revoked';
      } catch (error) {
        const failed = failedCondition(error);
        if (!failed) throw error;
        // Revoked meanwhile by a concurrent call: the same end state.
        if (failed.index === 0) return 'already_revoked';
        if (failed.index === 2 && failed.item && failed.item.activeKeys === undefined && attempt === 0) {
          await this.countLiveKeys(accountId);
          continue;
        }
        if (failed.index === 2 && failed.item) return 'last_active_key';
        throw error;
      }
    }
  }

  /** For an account opened before live keys were counted: counts them once (the first writer wins). */
  private async countLiveKeys(accountId: string): Promise<void> {
    const { pk, skPrefix } = keys.apiKeysOf(accountId);
    let live = 0;
    const pages = queryPages(this.table, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      FilterExpression: 'attribute_not_exists(revokedAt)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
      Select: 'COUNT',
    });
    for await (const page of pages) live += page.Count ?? 0;
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: keys.account(accountId),
          UpdateExpression: 'SET activeKeys = :live',
          ConditionExpression: CONDITIONS.keyUncounted,
          ExpressionAttributeValues: { ':live': live },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
}
