// POST /api/v1/search handler with DynamoDB mocked: the commands it sends and its answers on failure paths.
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, UpdateCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import baseEvent from '../../fixtures/search-event.json' with { type: 'json' };
import { fixtureIndex } from '../../kb-fixture.js';

const ddb = mockClient(DynamoDBDocumentClient);
let handler: (event: APIGatewayProxyEvent, context: Context) => Promise<{ statusCode: number; body: string; headers?: Record<string, unknown> }>;

const fixturePath = join(tmpdir(), `rivals-fixture-kb-${process.pid}.json`);
afterAll(() => rmSync(fixturePath, { force: true }));
beforeAll(async () => {
  writeFileSync(fixturePath, JSON.stringify(fixtureIndex()));
  // Rate limits off: this file is about search (test/unit/functions/rate-limit.test.ts is about the limits).
  Object.assign(process.env, { KB_INDEX_PATH: fixturePath, TABLE_NAME: 'rivals-test', RATE_LIMIT_KEY_PER_SECOND: '0', RATE_LIMIT_IP_PER_SECOND: '0' });
  ({ handler } = (await import('../../../functions/http/search.js')) as never);
});
beforeEach(() => ddb.reset());

const context = { getRemainingTimeInMillis: () => 25_000, functionName: 'search', awsRequestId: 'a' } as unknown as Context;
const call = async (overrides: Partial<APIGatewayProxyEvent> = {}) => {
  const response = await handler({ ...(structuredClone(baseEvent) as unknown as APIGatewayProxyEvent), ...overrides }, context);
  return { ...response, json: JSON.parse(response.body) };
};

describe('search handler', () => {
  it('reserves in one transaction, settles, and answers the documented shape', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    ddb.on(UpdateCommand).resolves({});
    ddb.on(GetCommand).resolves({ Item: { credits: 41 } });
    const res = await call();
    expect(res.statusCode).toBe(200);
    expect(res.headers).toMatchObject({ 'x-request-id': 'req-1', 'content-type': 'application/json' });
    expect(res.json).toMatchObject({ domain: 'hubspot.com', creditsRemaining: 41, totalCompetitors: res.json.competitors.length });
    expect(res.json.competitors[0]).toMatchObject({ rank: 1, domain: 'salesforce.com' });
    expect(ddb).toHaveReceivedCommandWith(TransactWriteCommand, {
      TransactItems: expect.arrayContaining([
        expect.objectContaining({ Update: expect.objectContaining({ Key: { pk: 'ACCOUNT#acct_test', sk: 'ACCOUNT' }, ConditionExpression: 'attribute_exists(pk) AND credits >= :cost' }) }),
      ]),
    });
    // The settle: one transaction that marks the search succeeded and pending aggregation into the company rows.
    expect(ddb).toHaveReceivedCommandWith(TransactWriteCommand, {
      TransactItems: expect.arrayContaining([
        expect.objectContaining({ Update: expect.objectContaining({ ExpressionAttributeValues: expect.objectContaining({ ':succeeded': 'succeeded' }) }) }),
        expect.objectContaining({ Put: expect.objectContaining({ Item: expect.objectContaining({ sk: expect.stringMatching(/^AGGPENDING#srch_/) }) }) }),
      ]),
    });
  });

  it('answers 402 with the balance when the credit condition fails, and never researches', async () => {
    ddb.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({
        message: 'cancelled',
        $metadata: {},
        CancellationReasons: [{ Code: 'ConditionalCheckFailed', Item: marshall({ credits: 0 }) }, { Code: 'None' }, { Code: 'None' }],
      }),
    );
    const res = await call();
    expect(res.statusCode).toBe(402);
    expect(res.json.error).toMatchObject({ code: 'insufficient_credits', creditsRemaining: 0, creditsRequired: 1, requestId: 'req-1' });
    expect(ddb).not.toHaveReceivedCommand(UpdateCommand);
  });

  it('answers 500 internal_error without internals when DynamoDB fails', async () => {
    ddb.on(TransactWriteCommand).rejects(new Error('socket hang up at 10.0.0.7'));
    const res = await call();
    expect(res.statusCode).toBe(500);
    expect(res.json.error.code).toBe('internal_error');
    expect(res.body).not.toContain('10.0.0.7');
  });

  it.each([
    ['malformed JSON', { body: '{bad' }, 400, 'invalid_request'],
    ['limit 101', { body: '{"domain":"stripe.com","limit":101}' }, 400, 'invalid_request'],
    ['limit 0', { body: '{"domain":"stripe.com","limit":0}' }, 400, 'invalid_request'],
    ['a string limit', { body: '{"domain":"stripe.com","limit":"5"}' }, 400, 'invalid_request'],
    ['an unknown field', { body: '{"domain":"stripe.com","lmit":5}' }, 400, 'invalid_request'],
    ['no domain', { body: '{}' }, 400, 'invalid_request'],
    ['not a domain', { body: '{"domain":"not a domain"}' }, 400, 'invalid_domain'],
    ['an IP address', { body: '{"domain":"http://169.254.169.254/"}' }, 400, 'invalid_domain'],
    ['no body', { body: null }, 400, 'invalid_request'],
    ['a non-JSON content type', { headers: { 'Content-Type': 'text/plain' } }, 415, 'unsupported_media_type'],
    ['no authorizer context', { requestContext: { ...baseEvent.requestContext, authorizer: null } as never }, 401, 'invalid_api_key'],
  ])('refuses %s with %i %s and touches no credit', async (_, overrides, status, code) => {
    const res = await call(overrides as Partial<APIGatewayProxyEvent>);
    expect(res.statusCode).toBe(status);
    expect(res.json.error.code).toBe(code);
    expect(ddb).not.toHaveReceivedCommand(TransactWriteCommand);
  });

  it('answers 401 before 400 when both apply', async () => {
    const res = await call({ body: '{bad', requestContext: { ...baseEvent.requestContext, authorizer: null } as never });
    expect(res.statusCode).toBe(401);
  });

  it('names the offending field of a schema violation', async () => {
    const res = await call({ body: '{"domain":"stripe.com","limit":101}' });
    expect(res.json.error.details).toEqual([{ field: 'limit', problem: expect.stringContaining('100') }]);
  });
});
