// The REQUEST authorizer with DynamoDB mocked: allow with the principal in the context, deny otherwise.
import { DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashApiKey } from '@rivals/core';
import baseEvent from '../../fixtures/authorizer-event.json' with { type: 'json' };

const ddb = mockClient(DynamoDBDocumentClient);
const KEY = baseEvent.headers['X-API-Key'];
let handler: typeof import('../../../functions/authorizer/api-key.js').handler;

beforeAll(async () => {
  process.env.TABLE_NAME = 'rivals-test';
  ({ handler } = await import('../../../functions/authorizer/api-key.js'));
});
beforeEach(() => ddb.reset());

const event = (headers: Record<string, string>) => ({ ...structuredClone(baseEvent), headers }) as unknown as APIGatewayRequestAuthorizerEvent;
const keyItem = (extra: object = {}) => ({ id: 'key_1', accountId: 'acct_1', hash: hashApiKey(KEY), name: 'x', prefix: 'sk-live-0000', last4: '0000', createdAt: 'now', ...extra });

describe('API key authorizer', () => {
  it('allows a live key for every route of the stage, with accountId and keyId in the context', async () => {
    ddb.on(QueryCommand).resolves({ Items: [keyItem()] });
    ddb.on(GetCommand).resolves({ Item: { pk: 'ACCOUNT#acct_1' } });
    const result = await handler(event({ 'x-api-key': KEY }));
    expect(result.principalId).toBe('acct_1');
    expect(result.context).toEqual({ accountId: 'acct_1', keyId: 'key_1' });
    expect(result.policyDocument.Statement[0]).toMatchObject({ Effect: 'Allow', Resource: 'arn:aws:execute-api:us-east-1:123456789012:api/dev/*/*' });
    expect(ddb).toHaveReceivedCommandWith(QueryCommand, { IndexName: 'gsi1', ExpressionAttributeValues: { ':pk': `APIKEYHASH#${hashApiKey(KEY)}`, ':sk': 'APIKEY' } });
  });

  it.each([
    ['an unknown key', [] as object[]],
    ['a revoked key', [keyItem({ revokedAt: '2026-01-01T00:00:00Z' })]],
  ])('denies %s', async (_, items) => {
    ddb.on(QueryCommand).resolves({ Items: items as never });
    const result = await handler(event({ 'X-API-Key': KEY }));
    expect(result.policyDocument.Statement[0]).toMatchObject({ Effect: 'Deny' });
    expect(result.context).toEqual({ errorCode: 'invalid_api_key' });
  });

  it('denies a live key whose account no longer exists', async () => {
    ddb.on(QueryCommand).resolves({ Items: [keyItem()] });
    ddb.on(GetCommand).resolves({});
    const result = await handler(event({ 'X-API-Key': KEY }));
    expect(result.policyDocument.Statement[0]).toMatchObject({ Effect: 'Deny' });
    expect(ddb).toHaveReceivedCommandWith(GetCommand, { Key: { pk: 'ACCOUNT#acct_1', sk: 'ACCOUNT' }, ConsistentRead: true });
  });

  it('denies a malformed key without reading the table', async () => {
    const result = await handler(event({ 'X-API-Key': 'sk-test-123' }));
    expect(result.policyDocument.Statement[0]).toMatchObject({ Effect: 'Deny' });
    expect(ddb).not.toHaveReceivedAnyCommand();
  });

  it('answers a missing key as API Gateway does (Unauthorized)', async () => {
    await expect(handler(event({}))).rejects.toThrow('Unauthorized');
  });
});
