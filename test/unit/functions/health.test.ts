// GET /api/health: ok with no probes configured (AWS: no dependency touched), 503 degraded naming the parts that do
// not answer when the environment names parts to probe (the local runtime's engines).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Health } from '@rivals/contracts';
import { freePort } from '../../../packages/local/src/engines.js';

let handler: (event: APIGatewayProxyEvent, context: Context) => Promise<{ statusCode: number; body: string; headers?: Record<string, unknown> }>;
let up: Server;
let upUrl: string;
beforeAll(async () => {
  ({ handler } = (await import('../../../functions/http/health.js')) as never);
  // Any HTTP answer means the part is up, whatever its status (DynamoDB Local answers a bare GET with 400).
  up = createServer((_, res) => res.writeHead(400).end('no'));
  await new Promise<void>((r) => up.listen(0, '127.0.0.1', () => r()));
  upUrl = `http://127.0.0.1:${(up.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => up.close(r)));
afterEach(() => {
  delete process.env.HEALTH_PROBE_URLS;
});

const call = async () => {
  const event = { httpMethod: 'GET', path: '/api/health', headers: {}, requestContext: { requestId: 'req-h' } } as unknown as APIGatewayProxyEvent;
  const res = await handler(event, { functionName: 'health', awsRequestId: 'a', getRemainingTimeInMillis: () => 3000 } as unknown as Context);
  return { ...res, json: Health.parse(JSON.parse(res.body)) };
};

describe('health handler', () => {
  it('says ok when its environment names nothing to probe, with the API headers', async () => {
    const res = await call();
    expect(res.statusCode).toBe(200);
    expect(res.json).toEqual({ status: 'ok', version: expect.any(String) });
    expect(res.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'cache-control': 'no-store', 'x-request-id': 'req-h' });
  });

  it('says ok when every probed part answers', async () => {
    process.env.HEALTH_PROBE_URLS = `dynamodb=${upUrl},s3=${upUrl}/x?y=1`;
    const res = await call();
    expect(res.statusCode).toBe(200);
    expect(res.json.status).toBe('ok');
  });

  it('answers 503 degraded with the parts that do not answer', async () => {
    process.env.HEALTH_PROBE_URLS = `dynamodb=http://127.0.0.1:${await freePort()},s3=${upUrl},sqs=http://127.0.0.1:${await freePort()}`;
    const res = await call();
    expect(res.statusCode).toBe(503);
    expect(res.json).toEqual({ status: 'degraded', version: expect.any(String), failing: ['dynamodb', 'sqs'] });
  });
});
