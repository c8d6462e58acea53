// db adapter (secondary): settled searches not yet counted in their account's company rows, found through the sparse
// GSI1 keys their pending item carries (written by the ledger's settle, gone with the item), for the re-drive of
// aggregate messages that were lost. One Query per shard, never a Scan.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { PendingAggregation, PendingAggregations } from '@rivals/core';
import type { TableRef } from './client.js';
import { isConditionFailure } from './conditions.js';
import { keys } from './keys.js';
import { shardItemsBefore } from './shards.js';

export class DynamoPendingAggregations implements PendingAggregations {
  constructor(private readonly table: TableRef) {}

  async *stale(sentBefore: string | null): AsyncIterable<PendingAggregation> {
    // The sort key starts with when the message was last sent.
    for await (const item of shardItemsBefore(this.table, keys.pendingAggregationShards(), sentBefore)) {
      const [sentAt = '', accountId = '', searchId = ''] = String(item.gsi1sk).split('#');
      yield { accountId, searchId, sentAt, redrives: Number(item.redrives ?? 0) };
    }
  }

  async noteRedrive(pending: PendingAggregation, at: string): Promise<boolean> {
    const index = keys.pendingAggregation(pending.accountId, pending.searchId, at);
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: keys.aggregationPending(pending.accountId, pending.searchId),
          UpdateExpression: 'SET gsi1sk = :sk, redrives = :next',
          ConditionExpression: 'attribute_exists(pk) AND (redrives = :redrives OR (attribute_not_exists(redrives) AND :redrives = :zero))',
          ExpressionAttributeValues: { ':sk': index.gsi1sk, ':redrives': pending.redrives, ':next': pending.redrives + 1, ':zero': 0 },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }
}
