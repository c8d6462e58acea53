// The reads of account data are Queries on a key or an index, never a Scan, and history never reads competitors.
import { DynamoDBDocumentClient, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { createDocumentClient, DynamoCompanyStore, DynamoSavedCompanyStore, DynamoSearchStore } from '@rivals/db';

const ddb = mockClient(DynamoDBDocumentClient);
const table = { client: createDocumentClient(), tableName: 't' };
beforeEach(() => {
  ddb.reset();
  ddb.on(QueryCommand).resolves({ Items: [] });
});

describe('account-data reads', () => {
  it('history is one Query on the account partition, newest first, projected without competitors', async () => {
    await new DynamoSearchStore(table).history('acct_1', { limit: 10, status: 'failed' });
    expect(ddb).toHaveReceivedCommandWith(QueryCommand, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: expect.objectContaining({ ':pk': 'ACCOUNT#acct_1', ':prefix': 'SEARCH#', ':status': 'failed' }),
      ScanIndexForward: false,
      FilterExpression: '#status = :status',
    });
    const input = ddb.commandCalls(QueryCommand)[0]!.args[0].input;
    expect(Object.values(input.ExpressionAttributeNames ?? {})).not.toContain('competitors');
    expect(input.ProjectionExpression).toBeTruthy();
  });

  it('my-companies and the watchlist read GSI1 with one Query per page; nothing scans', async () => {
    await new DynamoCompanyStore(table).top('acct_1', 5000);
    await new DynamoCompanyStore(table).catchUp('acct_1');
    await new DynamoSavedCompanyStore(table).list('acct_1', { limit: 50 });
    expect(ddb).toHaveReceivedCommandWith(QueryCommand, { IndexName: 'gsi1', ExpressionAttributeValues: { ':pk': 'COMPANIES#acct_1' }, Limit: 5000 });
    expect(ddb).toHaveReceivedCommandWith(QueryCommand, { IndexName: 'gsi1', ExpressionAttributeValues: { ':pk': 'SAVED#acct_1' }, ScanIndexForward: false });
    expect(ddb).toHaveReceivedCommandWith(QueryCommand, { ExpressionAttributeValues: { ':pk': 'ACCOUNT#acct_1', ':prefix': 'AGGPENDING#' } });
    expect(ddb).not.toHaveReceivedCommand(ScanCommand);
  });
});
