// db adapter: the one reader of sharded sparse GSI1 indexes (running searches, pending aggregations), whose sort keys
// start with an ISO time: every item of every shard sorted before `before` (all of them without it), a page at a time.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { TableRef } from './client.js';
import { GSI1 } from './keys.js';

export async function* shardItemsBefore(
  table: TableRef,
  shards: string[],
  before: string | null,
  options: { projection?: string; pageLimit?: () => number } = {},
): AsyncGenerator<Record<string, unknown>> {
  for (const shard of shards) {
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await table.client.send(
        new QueryCommand({
          TableName: table.tableName,
          IndexName: GSI1,
          // ISO times compare as strings.
          KeyConditionExpression: before ? 'gsi1pk = :shard AND gsi1sk < :before' : 'gsi1pk = :shard',
          ExpressionAttributeValues: { ':shard': shard, ...(before ? { ':before': before } : {}) },
          ...(options.projection ? { ProjectionExpression: options.projection } : {}),
          ...(options.pageLimit ? { Limit: options.pageLimit() } : {}),
          ExclusiveStartKey,
        }),
      );
      yield* page.Items ?? [];
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
  }
}
