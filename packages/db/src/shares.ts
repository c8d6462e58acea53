// db adapter (secondary): share links. The public lookup SHARE#<sha256 of the token> points at the search; the token
// itself sits only on the owner's search item (share), so that sharing again answers the same live link. Creating and
// revoking change both items in one transaction.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { hashShareToken, type SearchRecord, type ShareRecord, type ShareStore } from '@rivals/core';
import { transact, type TableRef } from './client.js';
import { CONDITIONS, failedCondition } from './conditions.js';
import { keys, withoutKeys } from './keys.js';

export class DynamoShareStore implements ShareStore {
  constructor(private readonly table: TableRef) {}

  async create(accountId: string, searchId: string, share: ShareRecord & { hash: string }): Promise<boolean> {
    const { tableName } = this.table;
    try {
      await transact(this.table, {
        TransactItems: [
          {
            Update: {
              TableName: tableName,
              Key: keys.search(accountId, searchId),
              UpdateExpression: 'SET #share = :share',
              ConditionExpression: `${CONDITIONS.exists} AND attribute_not_exists(#share) AND #status = :succeeded`,
              ExpressionAttributeNames: { '#share': 'share', '#status': 'status' },
              ExpressionAttributeValues: { ':share': { token: share.token, createdAt: share.createdAt }, ':succeeded': 'succeeded' },
            },
          },
          {
            Put: {
              TableName: tableName,
              Item: { ...keys.share(share.hash), accountId, searchId, createdAt: share.createdAt },
              ConditionExpression: CONDITIONS.isNew,
            },
          },
        ],
      });
      return true;
    } catch (error) {
      if (failedCondition(error)?.index === 0) return false;
      throw error;
    }
  }

  async revoke(accountId: string, searchId: string): Promise<void> {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.tableName, Key: keys.search(accountId, searchId), ConsistentRead: true, ProjectionExpression: '#share', ExpressionAttributeNames: { '#share': 'share' } }),
    );
    const share = Item?.share as ShareRecord | undefined;
    if (!share) return;
    try {
      await transact(this.table, {
        TransactItems: [
          {
            Update: {
              TableName: this.table.tableName,
              Key: keys.search(accountId, searchId),
              UpdateExpression: 'REMOVE #share',
              ConditionExpression: '#share.#token = :token',
              ExpressionAttributeNames: { '#share': 'share', '#token': 'token' },
              ExpressionAttributeValues: { ':token': share.token },
            },
          },
          { Delete: { TableName: this.table.tableName, Key: keys.share(hashShareToken(share.token)) } },
        ],
      });
    } catch (error) {
      // Revoked (and perhaps shared anew) by a concurrent request: that link is not the one this call saw.
      if (failedCondition(error)?.index !== 0) throw error;
    }
  }

  async findByHash(hash: string): Promise<SearchRecord | null> {
    const { Item: lookup } = await this.table.client.send(new GetCommand({ TableName: this.table.tableName, Key: keys.share(hash), ConsistentRead: true }));
    if (!lookup) return null;
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.tableName, Key: keys.search(lookup.accountId as string, lookup.searchId as string), ConsistentRead: true }),
    );
    return Item ? withoutKeys<SearchRecord>(Item) : null;
  }
}
