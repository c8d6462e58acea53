// The REQUEST authorizer with DynamoDB mocked: allow with the principal in the context, deny otherwise. Every read is
// strongly consistent: the hash claim by GetItem, then the account and the key record by BatchGetItem.
import { BatchGetCommand, DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
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
const claim = (extra: object = {}) => ({ pk: `APIKEYHASH#${hashApiKey(KEY)}`, sk: 'APIKEYHASH', accountId: 'acct_1', keyId: 'key_1', ...extra });
const keyRecord = (extra: object = {}) => ({ pk: 'ACCOUNT#acct_1', sk: 'APIKEY#key_1', id: 'key_1', accountId: 'acct_1', hash: hashApiKey(KEY), name: 'x', prefix: 'sk-live-0000', last4: '0000', createdAt: 'now', ...extra });
const account = { pk: 'ACCOUNT#acct_1', sk: 'ACCOUNT', credits: 1 };
const stored = (items: object[]) => ddb.on(BatchGetCommand).resolves({ Responses: { 'rivals-test': items as never } });

describe('API key authorizer', () => {
  it('allows a live key for every route of the stage, with accountId and keyId in the context', async () => {
    ddb.on(GetCommand).resolves({ Item: claim() });
    stored([account, keyRecord()]);
    const result = await handler(event({ 'x-api-key': KEY }));
    expect(result.principalId).toBe('acct_1');
    expect(result.context).toEqual({ accountId: 'acct_1', keyId: 'key_1' });
    expect(result.policyDocument.Statement[0]).toMatchObject({ Effect: 'Allow', Resource: 'arn:aws:execute-api:us-east-1:123456789012:api/dev/*/*' });
    expect(ddb).toHaveReceivedCommandWith(GetCommand, { Key: { pk: `APIKEYHASH#${hashApiKey(KEY)}`, sk: 'APIKEYHASH' }, ConsistentRead: true });
    expect(ddb).toHaveReceivedCommandWith(BatchGetCommand, { RequestItems: { 'rivals-test': expect.objectContaining({ ConsistentRead: true }) } });
    expect(ddb).not.toHaveReceivedCommand(QueryCommand);
  });

  it('records lastUsedAt with a conditional write that never fails the answer', async () => {
    ddb.on(GetCommand).resolves({ Item: claim() });
    stored([account, keyRecord()]);
    ddb.on(UpdateCommand).rejects(new Error('throttled'));
    const result = await handler(event({ 'x-api-key': KEY }));
    expect(result.policyDocument.Statement[0]).toMatchObject({ Effect: 'Allow' });
    expect(ddb).toHaveReceivedCommandWith(UpdateCommand, { Key: { pk: 'ACCOUNT#acct_1', sk: 'APIKEY#key_1' }, ConditionExpression: expect.stringContaining('lastUsedAt < :notBefore') });
  });

  it.each([
    ['an unknown key', undefined, [account]],
    ['a key revoked on its claim', claim({ revokedAt: '2026-01-01T00:00:00Z' }), [account, keyRecord()]],
    ['a key revoked on its record', claim(), [account, keyRecord({ revokedAt: '2026-01-01T00:00:00Z' })]],
    ['a live key whose account no longer exists', claim(), [keyRecord()]],
  ])('denies %s', async (_, item, items) => {
    ddb.on(GetCommand).resolves({ Item: item });
    stored(items);
    const result = await handler(event({ 'X-API-Key': KEY }));
    expect(result.policyDocument.Statement[0]).toMatchObject({ Effect: 'Deny' });
    expect(result.context).toEqual({ errorCode: 'invalid_api_key' });
  });

  it('denies a malformed key without reading the table', async () => {
    const result = await handler(event({ 'X-API-Key': 'sk-test-123' }));
    expect(result.policyDocument.Statement[0]).toMatchObject({ Effect: 'Deny' });
    expect(ddb).not.toHaveReceivedCommand(GetCommand);
  });

  it('answers a missing key as API Gateway does (Unauthorized)', async () => {
    await expect(handler(event({}))).rejects.toThrow('Unauthorized');
  });
});
