// The client's address behind CloudFront (functions/shared/client-address.ts): CloudFront-Viewer-Address is trusted
// only on a request carrying the distribution's secret header (current or previous value, so a rotation refuses no
// one); without it the request is refused, by the HTTP chain (403) and by the authorizer (Deny); with no secret
// configured (the local runtime) the TCP peer is the client. Through the real balance handler and authorizer, with
// Secrets Manager and DynamoDB mocked.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ORIGIN_SECRET_ENV as INFRA_SECRET_ENV, ORIGIN_VERIFY_HEADER as INFRA_VERIFY_HEADER } from '../../../infra/stacks/api-stack.js';
import { clientAddressOf, ORIGIN_SECRET_ENV, ORIGIN_VERIFY_HEADER, originSecrets, resetOriginSecrets, viewerAddress } from '../../../functions/shared/client-address.js';
import authorizerEvent from '../../fixtures/authorizer-event.json' with { type: 'json' };
import baseEvent from '../../fixtures/search-event.json' with { type: 'json' };

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<{ statusCode: number; body: string }>;
const ddb = mockClient(DynamoDBDocumentClient);
const secrets = mockClient(SecretsManagerClient);
const CURRENT = 'c'.repeat(48);
const PREVIOUS = 'p'.repeat(48);
let balance: Handler;
let authorize: typeof import('../../../functions/authorizer/api-key.js').handler;

beforeAll(async () => {
  Object.assign(process.env, { TABLE_NAME: 'rivals-test', [ORIGIN_SECRET_ENV]: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:origin-AbCdEf' });
  ({ handler: balance } = (await import('../../../functions/http/balance.js')) as never);
  ({ handler: authorize } = await import('../../../functions/authorizer/api-key.js'));
});
afterAll(() => {
  delete process.env[ORIGIN_SECRET_ENV];
  resetOriginSecrets();
});
beforeEach(() => {
  ddb.reset();
  secrets.reset();
  resetOriginSecrets();
  secrets.on(GetSecretValueCommand, { VersionStage: 'AWSCURRENT' }).resolves({ SecretString: CURRENT });
  secrets.on(GetSecretValueCommand, { VersionStage: 'AWSPREVIOUS' }).resolves({ SecretString: PREVIOUS });
  ddb.on(UpdateCommand).resolves({ Attributes: { tat: Date.now() * 1000 + 100_000 } });
  ddb.on(GetCommand).resolves({ Item: { credits: 7 } });
});

const context = { getRemainingTimeInMillis: () => 10_000, functionName: 'f', awsRequestId: 'a' } as unknown as Context;
const request = (headers: Record<string, string>) =>
  ({ ...(structuredClone(baseEvent) as unknown as APIGatewayProxyEvent), httpMethod: 'GET', body: null, headers: { ...baseEvent.headers, ...headers } }) as APIGatewayProxyEvent;
const PEER = baseEvent.requestContext.identity.sourceIp;

describe('viewerAddress', () => {
  it('takes the address of CloudFront-Viewer-Address without its port, IPv4 and IPv6', () => {
    expect(viewerAddress('198.51.100.7:46532')).toBe('198.51.100.7');
    expect(viewerAddress('2001:DB8::7:46532')).toBe('2001:db8::7');
    expect(viewerAddress('[2001:db8::7]:443')).toBe('2001:db8::7');
    for (const bad of [undefined, '', '198.51.100.7', 'evil.example:80', '999.1.1.1:80', '1.2.3.4:80, 5.6.7.8:80']) expect(viewerAddress(bad)).toBeUndefined();
  });
});

describe('clientAddressOf', () => {
  const event = (headers: Record<string, string>) => ({ headers, requestContext: { identity: { sourceIp: '130.176.0.1' } } });

  it('trusts CloudFront-Viewer-Address only with the distribution\'s secret, current or previous', () => {
    expect(clientAddressOf(event({ 'X-Origin-Verify': CURRENT, 'CloudFront-Viewer-Address': '198.51.100.7:1234' }), [CURRENT, PREVIOUS])).toEqual({ ip: '198.51.100.7', fromDistribution: true, refused: false });
    expect(clientAddressOf(event({ 'x-origin-verify': PREVIOUS, 'cloudfront-viewer-address': '2001:db8::7:1234' }), [CURRENT, PREVIOUS]).ip).toBe('2001:db8::7');
  });

  it('refuses a request without the secret (straight to execute-api), keeping the peer\'s address and ignoring its forged header', () => {
    for (const headers of [{ 'cloudfront-viewer-address': '198.51.100.7:1234' }, { 'x-origin-verify': 'guess', 'cloudfront-viewer-address': '198.51.100.7:1234' }, { 'x-origin-verify': '' }] as Record<string, string>[])
      expect(clientAddressOf(event(headers), [CURRENT])).toEqual({ ip: '130.176.0.1', fromDistribution: false, refused: true });
  });

  it('takes the TCP peer where no secret is configured (the local runtime), whatever the headers say', () => {
    expect(clientAddressOf(event({ 'cloudfront-viewer-address': '198.51.100.7:1234' }), null)).toEqual({ ip: '130.176.0.1', fromDistribution: false, refused: false });
  });

  it('uses the names the CDK sets', () => {
    expect([ORIGIN_SECRET_ENV, ORIGIN_VERIFY_HEADER]).toEqual([INFRA_SECRET_ENV, INFRA_VERIFY_HEADER]);
  });
});

describe('originSecrets', () => {
  it('reads the current and previous values once per five minutes, and copes with a secret never rotated', async () => {
    const client = new SecretsManagerClient({});
    expect(await originSecrets(process.env, client, 0)).toEqual([CURRENT, PREVIOUS]);
    expect(await originSecrets(process.env, client, 60_000)).toEqual([CURRENT, PREVIOUS]);
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(2);
    resetOriginSecrets();
    secrets.on(GetSecretValueCommand, { VersionStage: 'AWSPREVIOUS' }).rejects(Object.assign(new Error('no previous'), { name: 'ResourceNotFoundException' }));
    expect(await originSecrets(process.env, client, 0)).toEqual([CURRENT]);
    expect(await originSecrets({}, client)).toBeNull();
  });
});

describe('through the handlers', () => {
  it('limits the viewer, not CloudFront\'s server, on a request from the distribution', async () => {
    const res = await balance(request({ 'x-origin-verify': CURRENT, 'cloudfront-viewer-address': '198.51.100.7:46532' }), context);
    expect(res.statusCode).toBe(200);
    expect(ddb).toHaveReceivedCommandWith(UpdateCommand, { Key: { pk: 'RATE#ip#198.51.100.7', sk: 'RATE' } });
    expect(ddb).not.toHaveReceivedCommandWith(UpdateCommand, { Key: { pk: `RATE#ip#${PEER}`, sk: 'RATE' } });
  });

  it('answers 403 forbidden to a request that skipped the distribution, before any work', async () => {
    const res = await balance(request({ 'cloudfront-viewer-address': '198.51.100.7:46532' }), context);
    expect(res.statusCode).toBe(403);
    expect(JSON.parse(res.body).error.code).toBe('forbidden');
    expect(ddb).not.toHaveReceivedCommand(UpdateCommand);
  });

  it('denies in the authorizer a key presented without the secret, and counts key lookups per viewer with it', async () => {
    const base = structuredClone(authorizerEvent) as unknown as APIGatewayRequestAuthorizerEvent;
    const denied = await authorize({ ...base, headers: { ...base.headers, 'x-origin-verify': 'guess' } });
    expect(denied.policyDocument.Statement[0]).toMatchObject({ Effect: 'Deny' });
    expect(ddb).not.toHaveReceivedCommand(UpdateCommand);
    await authorize({ ...base, headers: { ...base.headers, 'x-origin-verify': CURRENT, 'cloudfront-viewer-address': '203.0.113.50:9' } }).catch(() => undefined);
    expect(JSON.stringify(ddb.commandCalls(UpdateCommand).map((c) => c.args[0].input.Key))).toContain('203.0.113.50');
  });
});
