// db adapter (secondary): the index of running searches (sparse GSI1 entries written by the ledger), read by the sweeper.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { OverdueSearch, RunningSearches } from '@rivals/core';
import type { TableRef } from './client.js';
import { GSI1, keys } from './keys.js';

export class DynamoRunningSearches implements RunningSearches {
  constructor(private readonly table: TableRef) {}

  async overdue(now: string, limit: number): Promise<OverdueSearch[]> {
    const found: OverdueSearch[] = [];
    for (const shard of keys.runningShards()) {
      let ExclusiveStartKey: Record<string, unknown> | undefined;
      do {
        const page = await this.table.client.send(
          new QueryCommand({
            TableName: this.table.tableName,
            IndexName: GSI1,
            // sweepAfter is the sort key's prefix: ISO times compare as strings.
            KeyConditionExpression: 'gsi1pk = :shard AND gsi1sk < :now',
            ExpressionAttributeValues: { ':shard': shard, ':now': now },
            ProjectionExpression: 'accountId, id, jobId, createdAt, sweepAfter',
            Limit: limit - found.length,
            ExclusiveStartKey,
          }),
        );
        for (const item of page.Items ?? []) {
          found.push({ accountId: item.accountId, searchId: item.id, createdAt: item.createdAt, sweepAfter: item.sweepAfter, ...(item.jobId ? { jobId: item.jobId } : {}) });
        }
        ExclusiveStartKey = page.LastEvaluatedKey;
      } while (ExclusiveStartKey && found.length < limit);
      if (found.length >= limit) break;
    }
    return found;
  }
}
