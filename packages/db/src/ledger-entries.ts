// db adapter (secondary): an account's ledger entries, one Query on its partition (oldest first: ids are ULIDs).
import type { LedgerEntries, LedgerEntry } from '@rivals/core';
import { queryPages, type TableRef } from './client.js';
import { keys } from './keys.js';

export class DynamoLedgerEntries implements LedgerEntries {
  constructor(private readonly table: TableRef) {}

  async list(accountId: string): Promise<LedgerEntry[]> {
    const { pk, skPrefix } = keys.ledgerOf(accountId);
    const entries: LedgerEntry[] = [];
    const pages = queryPages(this.table, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
      ProjectionExpression: 'id, amount, reason, #reference, createdAt',
      ExpressionAttributeNames: { '#reference': 'reference' },
      ConsistentRead: true,
    });
    for await (const page of pages) {
      for (const item of page.Items ?? []) entries.push({ id: item.id, amount: Number(item.amount), reason: item.reason, reference: item.reference ?? null, createdAt: item.createdAt });
    }
    return entries;
  }
}
