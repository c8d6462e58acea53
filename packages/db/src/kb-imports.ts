// db adapter (secondary): a deployment's imported knowledge-base companies (core KbImportStore). A team's own list is
// small (hundreds), so it lives in one partition and is read with one Query; the version item is one GetItem, which
// each process reads at most twice a minute.
import { BatchWriteCommand, type BatchWriteCommandOutput, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { KbImportStore } from '@rivals/core';
import { queryPages, type TableRef } from './client.js';
import { keys } from './keys.js';

export class DynamoKbImportStore implements KbImportStore {
  constructor(private readonly table: TableRef) {}

  async version(): Promise<string | null> {
    const { Item } = await this.table.client.send(new GetCommand({ TableName: this.table.tableName, Key: keys.kbImportVersion() }));
    return typeof Item?.version === 'string' ? Item.version : null;
  }

  async companies(): Promise<unknown[]> {
    const { pk, skPrefix } = keys.kbImportsOf();
    const out: unknown[] = [];
    for await (const page of queryPages(this.table, { KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)', ExpressionAttributeValues: { ':pk': pk, ':sk': skPrefix } })) {
      for (const item of page.Items ?? []) out.push(item.company);
    }
    return out;
  }

  async add(companies: { domain: string }[], version: string): Promise<void> {
    for (let at = 0; at < companies.length; at += 25) {
      let items: Record<string, { PutRequest: { Item: Record<string, unknown> } }[]> | undefined = {
        [this.table.tableName]: companies.slice(at, at + 25).map((company) => ({ PutRequest: { Item: { ...keys.kbImport(company.domain), company } } })),
      };
      for (let attempt = 0; items && attempt < 8; attempt++) {
        const answer: BatchWriteCommandOutput = await this.table.client.send(new BatchWriteCommand({ RequestItems: items }));
        const rest = answer.UnprocessedItems;
        items = rest && Object.keys(rest).length ? (rest as typeof items) : undefined;
      }
      if (items) throw new Error('kb import: DynamoDB kept some writes unprocessed; run the import again');
    }
    // Last, so that a process never sees the new version before every company is there.
    await this.table.client.send(new PutCommand({ TableName: this.table.tableName, Item: { ...keys.kbImportVersion(), version } }));
  }
}
