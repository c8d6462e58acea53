// test helper: a fresh single table on the shared DynamoDB Local, created from the CDK app's own declaration.
import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { inject } from 'vitest';
import { MyCompanies, SearchQueries, SearchService, ShareService, systemClock, WatchlistService, type ResearchEngine } from '@rivals/core';
import { createDocumentClient, createDynamoClient, DynamoCompanyStore, DynamoSavedCompanyStore, DynamoSearchStore, DynamoShareStore, type TableRef } from '@rivals/db';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../../packages/local/src/engines.js';
import { provision } from '../../packages/local/src/provision.js';
import { tableServices } from '../../packages/local/src/services.js';

export interface TestTable extends TableRef {
  dynamo: DynamoDBClient;
  endpoint: string;
}

/** Creates the table the CDK app declares under a unique name. S3 and SQS are not needed here: their endpoints are unused. */
export async function freshTable(): Promise<TestTable> {
  const endpoint = inject('dynamodbEndpoint');
  const dynamo = createDynamoClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  const { tableName } = await provision({ dynamodb: endpoint, s3: '', sqs: '' }, `t${randomUUID().slice(0, 8)}`, { region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS }, { tablesOnly: true });
  return { dynamo, client: createDocumentClient(dynamo), tableName, endpoint };
}

/** The services wired on a real table, as the Lambda container wires them. */
export function servicesOn(table: TableRef, engine: ResearchEngine, deadlineMs = 5_000) {
  const base = tableServices(table);
  const searches = new DynamoSearchStore(table);
  return {
    ...base,
    searches,
    search: new SearchService({ ledger: base.ledger, engine, clock: systemClock, ids: base.ids, deadlineMs }),
    queries: new SearchQueries(searches),
    companyStore: new DynamoCompanyStore(table),
    myCompanies: new MyCompanies(new DynamoCompanyStore(table)),
    shares: new ShareService({ searches, shares: new DynamoShareStore(table), clock: systemClock }),
    watchlist: (max?: number) => new WatchlistService({ saved: new DynamoSavedCompanyStore(table), searches, clock: systemClock, ...(max ? { max } : {}) }),
  };
}
