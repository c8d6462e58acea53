// db adapter (secondary): accounts. Opening credits and grants are ledger entries written with the balance change.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ApiError, type Account, type AccountStore } from '@rivals/core';
import { transact, type TableRef } from './client.js';
import { CONDITIONS, failedCondition } from './conditions.js';
import { keys, withoutKeys } from './keys.js';
import type { DynamoCreditsLedger } from './ledger.js';

export class DynamoAccountStore implements AccountStore {
  constructor(private readonly table: TableRef, private readonly ledger: DynamoCreditsLedger) {}

  async create(account: Account): Promise<void> {
    const { tableName } = this.table;
    try {
      await transact(this.table, {
        TransactItems: [
          { Put: { TableName: tableName, Item: { ...keys.account(account.id), ...account, activeKeys: 0, updatedAt: account.createdAt }, ConditionExpression: CONDITIONS.isNew } },
          this.ledger.entry(account.id, account.credits, 'opening credits', null, account.createdAt),
        ],
      });
    } catch (error) {
      if (failedCondition(error)?.index === 0) throw new ApiError('conflict', `Account ${account.id} exists.`);
      throw error;
    }
  }

  async get(accountId: string): Promise<Account | null> {
    const { Item } = await this.table.client.send(new GetCommand({ TableName: this.table.tableName, Key: keys.account(accountId), ConsistentRead: true }));
    if (!Item) return null;
    const { id, name, credits, createdAt } = withoutKeys<Account>(Item);
    return { id, name, credits, createdAt };
  }

  async grant(accountId: string, credits: number, reason: string): Promise<number> {
    const now = new Date().toISOString();
    try {
      await transact(this.table, {
        TransactItems: [
          {
            Update: {
              TableName: this.table.tableName,
              Key: keys.account(accountId),
              UpdateExpression: 'SET credits = credits + :n, updatedAt = :now',
              ConditionExpression: CONDITIONS.exists,
              ExpressionAttributeValues: { ':n': credits, ':now': now },
            },
          },
          this.ledger.entry(accountId, credits, reason, null, now),
        ],
      });
    } catch (error) {
      if (failedCondition(error)?.index === 0) throw new ApiError('not_found', 'No such account.');
      throw error;
    }
    return this.ledger.balance(accountId);
  }
}
