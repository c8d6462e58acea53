// The rate limits in THE middy chain and in the authorizer, with DynamoDB mocked: headers on every response, 429 with
// Retry-After before any work, the order 401 -> 429 -> 400, and a limiter outage that lets requests through.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '@rivals/db';
import type { APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import authorizerEvent from '../../fixtures/authorizer-event.json' with { type: 'json' };
import baseEvent from '../../fixtures/search-event.json' with { type: 'json' };

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<{ statusCode: number; body: string; headers?: Record<string, string> }>;
const ddb = mockClient(DynamoDBDocumentClient);
let balance: Handler;
let createKey: Handler;
let authorize: typeof import('../../../functions/authorizer/api-key.js').handler;

beforeAll(async () => {
  Object.assign(process.env, { TABLE_NAME: 'rivals-test', RATE_LIMIT_KEY_PER_SECOND: '10', RATE_LIMIT_KEY_BURST: '20', RATE_LIMIT_IP_PER_SECOND: '20', RATE_LIMIT_IP_BURST: '40' });
  ({ handler: balance } = (await import('../../../functions/http/balance.js')) as never);
  ({ handler: createKey } = (await import('../../../functions/http/create-api-key.js')) as never);
  ({ handler: authorize } = await import('../../../functions/authorizer/api-key.js'));
});
beforeEach(() => ddb.reset());

const context = { getRemainingTimeInMillis: () => 10_000, functionName: 'f', awsRequestId: 'a' } as unknown as Context;
const event = (overrides: Partial<APIGatewayProxyEvent> = {}) => ({ ...(structuredClone(baseEvent) as unknown as APIGatewayProxyEvent), ...overrides });
const nowUs = () => Date.now() * 1000;
/** A bucket that refuses: its TAT is a minute ahead, far past the ceiling. */
const emptyBucket = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {}, Item: { tat: { N: String(nowUs() + 60_000_000) } } });

describe('rate limits in the HTTP chain', () => {
  it('takes a token per IP and per key, and reports the tighter bucket in RateLimit-* headers', async () => {
    ddb.on(UpdateCommand).resolves({ Attributes: { tat: nowUs() + 100_000 } });
    ddb.on(GetCommand).resolves({ Item: { credits: 7 } });
    const res = await balance(event({ httpMethod: 'GET', body: null }), context);
    expect(res.statusCode).toBe(200);
    expect(res.headers).toMatchObject({ 'ratelimit-limit': '20', 'ratelimit-remaining': '19', 'ratelimit-reset': '1' });
    expect(ddb).toHaveReceivedCommandWith(UpdateCommand, { Key: { pk: 'RATE#ip#203.0.113.9', sk: 'RATE' } });
    expect(ddb).toHaveReceivedCommandWith(UpdateCommand, { Key: { pk: 'RATE#key#key_test', sk: 'RATE' } });
  });

  it('answers 429 rate_limited with Retry-After and retryAfterSeconds before any work, giving the other token back', async () => {
    ddb.on(UpdateCommand, { Key: { pk: 'RATE#key#key_test', sk: 'RATE' } }).rejects(emptyBucket());
    ddb.on(UpdateCommand, { Key: { pk: 'RATE#ip#203.0.113.9', sk: 'RATE' } }).resolves({ Attributes: { tat: nowUs() + 50_000 } });
    const res = await balance(event({ httpMethod: 'GET', body: null }), context);
    expect(res.statusCode).toBe(429);
    const body = JSON.parse(res.body);
    expect(body.error).toMatchObject({ code: 'rate_limited', requestId: 'req-1', retryAfterSeconds: expect.any(Number) });
    expect(res.headers).toMatchObject({ 'retry-after': String(body.error.retryAfterSeconds), 'ratelimit-limit': '20', 'ratelimit-remaining': '0' });
    expect(body.error.retryAfterSeconds).toBeGreaterThanOrEqual(58);
    expect(ddb).not.toHaveReceivedCommand(GetCommand);
    expect(ddb).toHaveReceivedCommandWith(UpdateCommand, { Key: { pk: 'RATE#ip#203.0.113.9', sk: 'RATE' }, UpdateExpression: 'SET tat = tat - :interval' });
  });

  it('keeps the order of errors: 401 before 429, 429 before 400', async () => {
    ddb.on(UpdateCommand).rejects(emptyBucket());
    // Key creation re-reads the calling key first (a 401 check): it is live.
    const { accountId, keyId } = baseEvent.requestContext.authorizer as { accountId: string; keyId: string };
    ddb.on(BatchGetCommand).resolves({ Responses: { 'rivals-test': [{ ...keys.account(accountId) }, { ...keys.apiKey(accountId, keyId), id: keyId, accountId }] } });
    const unauthenticated = await createKey(event({ requestContext: { ...baseEvent.requestContext, authorizer: null } as never, body: '{bad' }), context);
    expect(unauthenticated.statusCode).toBe(401);
    expect(ddb).not.toHaveReceivedCommand(UpdateCommand);
    const limited = await createKey(event({ body: '{bad' }), context);
    expect(JSON.parse(limited.body).error.code).toBe('rate_limited');
  });

  it('limits keyless routes per IP only', async () => {
    // Imported first: under load the import alone can outlast the bucket's 50 ms window computed below.
    const { handler: health } = (await import('../../../functions/http/health.js')) as unknown as { handler: Handler };
    ddb.on(UpdateCommand).resolves({ Attributes: { tat: nowUs() + 50_000 } });
    const res = await health(event({ httpMethod: 'GET', body: null, requestContext: { ...baseEvent.requestContext, authorizer: null } as never }), context);
    expect(res.statusCode).toBe(200);
    expect(res.headers).toMatchObject({ 'ratelimit-limit': '40', 'ratelimit-remaining': '39' });
    expect(ddb).toHaveReceivedCommandTimes(UpdateCommand, 1);
  });

  it('lets the request through, without headers, when the limiter cannot be reached', async () => {
    ddb.on(UpdateCommand).rejects(new Error('connect ECONNREFUSED'));
    ddb.on(GetCommand).resolves({ Item: { credits: 7 } });
    const res = await balance(event({ httpMethod: 'GET', body: null }), context);
    expect(res.statusCode).toBe(200);
    expect(res.headers?.['ratelimit-limit']).toBeUndefined();
  });
});

describe('rate limits in the authorizer', () => {
  const withIp = () => ({ ...structuredClone(authorizerEvent), requestContext: { requestId: 'req-1', identity: { sourceIp: '198.51.100.7' } } }) as unknown as APIGatewayRequestAuthorizerEvent;

  it('refuses key lookups from an IP over its limit before reading any key, with an error API Gateway never caches', async () => {
    ddb.on(UpdateCommand).rejects(emptyBucket());
    await expect(authorize(withIp())).rejects.toThrow('rate_limited');
    expect(ddb).toHaveReceivedCommandWith(UpdateCommand, { Key: { pk: 'RATE#auth#198.51.100.7', sk: 'RATE' } });
    expect(ddb).not.toHaveReceivedCommand(GetCommand);
  });

  it('looks the key up when the IP is within its limit', async () => {
    ddb.on(UpdateCommand).resolves({ Attributes: { tat: nowUs() + 50_000 } });
    ddb.on(GetCommand).resolves({});
    const result = await authorize(withIp());
    expect(result.policyDocument.Statement[0]).toMatchObject({ Effect: 'Deny' });
    expect(ddb).toHaveReceivedCommand(GetCommand);
  });
});
