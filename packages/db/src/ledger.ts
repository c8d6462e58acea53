// db adapter (secondary): the credits ledger on DynamoDB. The balance lives on the account item; every change is a
// transaction that also writes a ledger entry, and the search's own state guards its refund (applied at most once).
// A settle also marks the search for counting in the account's company rows (companies.ts), in its own transaction;
// the counting itself happens later, off the search's path (the aggregate worker, or the next read's catch-up).
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { FailureReason } from '@rivals/contracts';
import { ApiError, insufficientCredits, type CreditsLedger, type IdGenerator, type Reservation, type SearchRecord, type SettledSearch } from '@rivals/core';
import { transact, type TableRef } from './client.js';
import { CONDITIONS, failedCondition } from './conditions.js';
import { keys } from './keys.js';

const SEARCH_COST = 1;

export class DynamoCreditsLedger implements CreditsLedger {
  constructor(private readonly table: TableRef, private readonly ids: IdGenerator) {}

  async reserveSearch(search: Omit<SearchRecord, 'status'> & { sweepAfter: string }): Promise<Reservation> {
    const { tableName } = this.table;
    try {
      await transact(this.table, {
        ClientRequestToken: search.id.slice(-36),
        TransactItems: [
          {
            Update: {
              TableName: tableName,
              Key: keys.account(search.accountId),
              UpdateExpression: 'SET credits = credits - :cost, updatedAt = :now',
              ConditionExpression: CONDITIONS.hasCredits,
              ExpressionAttributeValues: { ':cost': SEARCH_COST, ':now': search.createdAt },
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            },
          },
          {
            Put: {
              TableName: tableName,
              Item: { ...keys.search(search.accountId, search.id), ...keys.runningSearch(search.id, search.sweepAfter), ...search, status: 'running' },
              ConditionExpression: CONDITIONS.isNew,
            },
          },
          this.entry(search.accountId, -SEARCH_COST, 'search', search.id, search.createdAt),
        ],
      });
    } catch (error) {
      const failed = failedCondition(error);
      if (failed?.index === 0) throw insufficientCredits(Number(failed.item?.credits ?? 0), SEARCH_COST);
      throw error;
    }
    return { searchId: search.id };
  }

  /**
   * Marks the search succeeded and, in the same transaction, pending aggregation into the account's company rows
   * (companies.ts). A replayed settle is cancelled whole (the search is no longer running), so it can never count
   * twice. The counting is not done here: the caller (ResearchRun) enqueues it for the aggregate worker, and the
   * pending item lets the next GET /api/my-companies finish it if that message never arrives.
   */
  async settleSearch(accountId: string, searchId: string, result: SettledSearch): Promise<void> {
    const { tableName } = this.table;
    try {
      await transact(this.table, {
        TransactItems: [
          {
            Update: {
              TableName: tableName,
              Key: keys.search(accountId, searchId),
              UpdateExpression:
                'SET #status = :succeeded, completedAt = :completedAt, elapsedSeconds = :elapsed, competitors = :competitors, totalCompetitors = :total, likelyCompetitors = :likely REMOVE gsi1pk, gsi1sk',
              ConditionExpression: CONDITIONS.isRunning,
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: {
                ':running': 'running',
                ':succeeded': 'succeeded',
                ':completedAt': result.completedAt,
                ':elapsed': result.elapsedSeconds,
                ':competitors': result.competitors,
                ':total': result.totalCompetitors,
                ':likely': result.likelyCompetitors,
              },
            },
          },
          { Put: { TableName: tableName, Item: { ...keys.aggregationPending(accountId, searchId), nextChunk: 0, createdAt: result.completedAt }, ConditionExpression: CONDITIONS.isNew } },
        ],
      });
    } catch (error) {
      if (failedCondition(error)) throw new ApiError('conflict', `Search ${searchId} is not running.`);
      throw error;
    }
  }

  async refundSearch(accountId: string, searchId: string, failure: { error: string; reason?: FailureReason; completedAt: string; elapsedSeconds: number }): Promise<boolean> {
    const { tableName } = this.table;
    try {
      await transact(this.table, {
        ClientRequestToken: `r${searchId.slice(-35)}`,
        TransactItems: [
          {
            Update: {
              TableName: tableName,
              Key: keys.search(accountId, searchId),
              UpdateExpression: `SET #status = :failed, #error = :error,${failure.reason ? ' #reason = :reason,' : ''} completedAt = :completedAt, elapsedSeconds = :elapsed, refunded = :true REMOVE gsi1pk, gsi1sk`,
              ConditionExpression: CONDITIONS.isRunning,
              ExpressionAttributeNames: { '#status': 'status', '#error': 'error', ...(failure.reason ? { '#reason': 'reason' } : {}) },
              ExpressionAttributeValues: {
                ':running': 'running',
                ':failed': 'failed',
                ':error': failure.error,
                ':completedAt': failure.completedAt,
                ':elapsed': failure.elapsedSeconds,
                ':true': true,
                ...(failure.reason ? { ':reason': failure.reason } : {}),
              },
            },
          },
          {
            Update: {
              TableName: tableName,
              Key: keys.account(accountId),
              UpdateExpression: 'SET credits = credits + :cost, updatedAt = :now',
              ConditionExpression: CONDITIONS.exists,
              ExpressionAttributeValues: { ':cost': SEARCH_COST, ':now': failure.completedAt },
            },
          },
          this.entry(accountId, SEARCH_COST, 'refund', searchId, failure.completedAt),
        ],
      });
      return true;
    } catch (error) {
      // The search was no longer running, or this search's refund token was already spent: refunded before.
      if (failedCondition(error)?.index === 0 || (error as Error).name === 'IdempotentParameterMismatchException') return false;
      throw error;
    }
  }

  async balance(accountId: string): Promise<number> {
    const { Item } = await this.table.client.send(
      new GetCommand({ TableName: this.table.tableName, Key: keys.account(accountId), ConsistentRead: true, ProjectionExpression: 'credits' }),
    );
    if (!Item) throw new ApiError('not_found', 'No such account.');
    return Number(Item.credits);
  }

  /** A ledger entry to write in the same transaction as the balance change it records. */
  entry(accountId: string, amount: number, reason: string, reference: string | null, at: string) {
    const id = this.ids.next('led');
    return {
      Put: {
        TableName: this.table.tableName,
        Item: { ...keys.ledgerEntry(accountId, id), id, amount, reason, reference, createdAt: at },
        ConditionExpression: CONDITIONS.isNew,
      },
    };
  }
}
