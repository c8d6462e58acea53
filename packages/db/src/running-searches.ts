// db adapter (secondary): the index of running searches (sparse GSI1 entries written by the ledger), read by the sweeper.
import type { OverdueSearch, RunningSearches } from '@rivals/core';
import type { TableRef } from './client.js';
import { keys } from './keys.js';
import { shardItemsBefore } from './shards.js';

export class DynamoRunningSearches implements RunningSearches {
  constructor(private readonly table: TableRef) {}

  async overdue(now: string, limit: number): Promise<OverdueSearch[]> {
    const found: OverdueSearch[] = [];
    // sweepAfter is the sort key's prefix.
    const items = shardItemsBefore(this.table, keys.runningShards(), now, { projection: 'accountId, id, jobId, createdAt, sweepAfter', pageLimit: () => limit - found.length });
    for await (const item of items) {
      found.push({ accountId: item.accountId as string, searchId: item.id as string, createdAt: item.createdAt as string, sweepAfter: item.sweepAfter as string, ...(item.jobId ? { jobId: item.jobId as string } : {}) });
      if (found.length >= limit) break;
    }
    return found;
  }
}
