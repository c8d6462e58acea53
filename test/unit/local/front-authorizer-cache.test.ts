// The local front keeps the authorizer's answer per key for the stage's authorizer cache TTL, as API Gateway does: a
// key is looked up once a TTL, on any route; a revoked key keeps working until its cached answer expires, then is
// refused; a denial is kept too; an authorizer that throws is asked again.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTHORIZER, type RouteSpec } from '../../../infra/routes.js';
import { createFront } from '../../../packages/local/src/front.js';
import type { FakeAuthorizer } from './front-fixture/functions/authorizer/api-key.js';

const projectRoot = fileURLToPath(new URL('./front-fixture', import.meta.url));
const routes: RouteSpec[] = [
  { id: 'Echo', method: 'GET', path: '/echo', entry: 'functions/http/echo.ts', auth: true },
  { id: 'Other', method: 'POST', path: '/other/{id}', entry: 'functions/http/echo.ts', auth: true },
];
const fake: FakeAuthorizer = { live: new Set(), calls: 0 };
(globalThis as unknown as { fakeAuthorizer: FakeAuthorizer }).fakeAuthorizer = fake;

let server: Server | undefined;
const start = async (authorizerCacheTtlSeconds?: number) => {
  server = createFront({ projectRoot, routes, ...(authorizerCacheTtlSeconds === undefined ? {} : { authorizerCacheTtlSeconds }) });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return async (key: string, path = '/echo', method = 'GET') => {
    const res = await fetch(`${base}${path}`, { method, headers: { 'x-api-key': key } });
    const body = (await res.json()) as { keyId?: string; error?: { code: string } };
    return { status: res.status, keyId: body.keyId, code: body.error?.code };
  };
};

beforeEach(() => {
  fake.live = new Set(['alpha', 'beta']);
  fake.calls = 0;
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-24T10:00:00Z') });
});
afterEach(async () => {
  vi.useRealTimers();
  await new Promise((resolve) => (server?.listening ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

describe('the local front’s authorizer cache', () => {
  it('asks the authorizer once per key within the TTL, whatever the route', async () => {
    const call = await start();
    // Act
    const answers = [await call('alpha'), await call('alpha', '/other/1', 'POST'), await call('alpha'), await call('beta')];
    // Assess
    expect(answers.map((a) => [a.status, a.keyId])).toEqual([
      [200, 'key_alpha'],
      [200, 'key_alpha'],
      [200, 'key_alpha'],
      [200, 'key_beta'],
    ]);
    expect(fake.calls).toBe(2);
  });

  it(`keeps a revoked key working until the stage's TTL (${AUTHORIZER.cacheTtlSeconds} s) ends, then refuses it`, async () => {
    const call = await start();
    expect((await call('alpha')).status).toBe(200);
    // Act: the key is revoked
    fake.live.delete('alpha');
    vi.setSystemTime(Date.now() + AUTHORIZER.cacheTtlSeconds * 1000 - 1);
    const within = await call('alpha');
    vi.setSystemTime(Date.now() + 2);
    const after = await call('alpha');
    // Assess
    expect(within.status).toBe(200);
    expect([after.status, after.code]).toEqual([401, 'invalid_api_key']);
    expect(fake.calls).toBe(2);
  });

  it('keeps a denial for the TTL too, but asks again after an authorizer error', async () => {
    const call = await start();
    // Act
    const denied = [await call('gamma'), await call('gamma', '/other/2', 'POST')];
    const thrown = [await call('boom'), await call('boom')];
    // Assess
    expect(denied.map((a) => [a.status, a.code])).toEqual([
      [401, 'invalid_api_key'],
      [401, 'invalid_api_key'],
    ]);
    expect(thrown.map((a) => [a.status, a.code])).toEqual([
      [401, 'missing_api_key'],
      [401, 'missing_api_key'],
    ]);
    expect(fake.calls).toBe(3);
  });

  it('asks the authorizer on every request with a TTL of 0, so a revoked key stops at once', async () => {
    const call = await start(0);
    expect((await call('alpha')).status).toBe(200);
    fake.live.delete('alpha');
    // Act
    const after = await call('alpha');
    // Assess
    expect(after.status).toBe(401);
    expect(fake.calls).toBe(2);
  });
});
