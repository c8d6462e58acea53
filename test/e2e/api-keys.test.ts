// End to end over HTTP: API key management and rate limits through the local runtime (same authorizer and handlers
// as Lambda). A new key works at once, a revoked one stops at once, one account never sees or touches another's keys,
// and the local runtime enforces the same token buckets as AWS (each limits test calls from its own loopback address).
import { Agent, fetch as fetchFrom } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiKeyList, CreatedApiKey } from '@rivals/contracts';
import { startLocal, type LocalService } from '../../packages/local/src/runtime.js';
import { engineReturning } from '../fakes.js';
import { servicesOn } from '../setup/table.js';

let service: LocalService;
const LIMIT_ENV = ['RATE_LIMIT_KEY_PER_SECOND', 'RATE_LIMIT_KEY_BURST', 'RATE_LIMIT_IP_PER_SECOND', 'RATE_LIMIT_IP_BURST'] as const;
/** The functions read their limits on every request, so a test may set them. The defaults, until a test does. */
const setLimits = (values: Partial<Record<(typeof LIMIT_ENV)[number], number>>) => {
  for (const name of LIMIT_ENV) delete process.env[name];
  for (const [name, value] of Object.entries(values)) process.env[name] = String(value);
};
beforeAll(async () => {
  service = await startLocal({ port: 0, devCredits: 5, keyFile: null });
}, 120_000);
afterAll(() => service?.stop());
afterEach(() => setLimits({}));

interface Call {
  method?: string;
  key?: string | null;
  body?: string;
  headers?: Record<string, string>;
}
const api = async (path: string, init: Call = {}) => {
  const headers: Record<string, string> = { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers };
  if (init.key !== null) headers['x-api-key'] = init.key ?? service.apiKey;
  const res = await fetch(`${service.url}${path}`, { method: init.method ?? 'GET', headers, body: init.body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as any) : undefined };
};

/** A fresh account with one operator-issued key, so that tests do not share a key count. */
const newAccount = async (name: string) => {
  const s = servicesOn(service.table, engineReturning(1));
  const account = await s.accounts.open(name, 1);
  const { key, record } = await s.apiKeys.issue(account.id, 'first');
  return { accountId: account.id, key, keyId: record.id };
};

describe('API key management over HTTP', () => {
  // Many calls from one address in a few seconds: the per-IP limit is raised here (the limits have tests of their own).
  beforeEach(() => setLimits({ RATE_LIMIT_IP_PER_SECOND: 1000, RATE_LIMIT_IP_BURST: 1000 }));
  it('creates a key shown once, which works at once and is listed without the key', async () => {
    const acme = await newAccount('Acme');
    const created = await api('/api/auth/api-keys', { key: acme.key, method: 'POST', body: JSON.stringify({ name: 'ci' }) });
    expect(created.status).toBe(201);
    const fresh = CreatedApiKey.parse(created.body);
    expect(fresh).toMatchObject({ id: expect.stringMatching(/^key_/), name: 'ci', key: expect.stringMatching(/^sk-live-[0-9A-Za-z]{40}$/), prefix: fresh.key.slice(0, 12) });
    expect((await api('/api/v1/balance', { key: fresh.key })).status).toBe(200);

    const unnamed = await api('/api/auth/api-keys', { key: acme.key, method: 'POST' });
    expect(unnamed.status).toBe(201);
    expect(unnamed.body.name).toBeNull();

    const listed = await api('/api/auth/api-keys', { key: fresh.key });
    expect(listed.status).toBe(200);
    const list = ApiKeyList.parse(listed.body);
    expect(list.items.map((k) => k.id)).toEqual([unnamed.body.id, fresh.id, acme.keyId]);
    expect(list.items[1]).toMatchObject({ name: 'ci', prefix: fresh.prefix, last4: fresh.key.slice(-4), revokedAt: null, lastUsedAt: expect.any(String) });
    expect(JSON.stringify(listed.body)).not.toContain(fresh.key);
  });

  it('pages the list with limit and cursor, and refuses a bad limit or cursor with 400', async () => {
    const acme = await newAccount('Acme');
    for (let i = 0; i < 2; i++) await api('/api/auth/api-keys', { key: acme.key, method: 'POST', body: `{"name":"k${i}"}` });
    const first = await api('/api/auth/api-keys?limit=2', { key: acme.key });
    expect(first.body.items).toHaveLength(2);
    const second = await api(`/api/auth/api-keys?limit=2&cursor=${first.body.nextCursor}`, { key: acme.key });
    expect(second.body).toMatchObject({ items: [{ id: acme.keyId }], nextCursor: null });
    for (const query of ['limit=0', 'limit=201', 'limit=x', 'cursor=bogus']) {
      const res = await api(`/api/auth/api-keys?${query}`, { key: acme.key });
      expect([query, res.status, res.body.error.code]).toEqual([query, 400, 'invalid_request']);
    }
  });

  it('refuses a strict-body violation and a too-long name with 400, creating nothing', async () => {
    const acme = await newAccount('Acme');
    for (const body of ['{"nmae":"typo"}', JSON.stringify({ name: 'x'.repeat(101) }), '{"name":""}', '{bad']) {
      const res = await api('/api/auth/api-keys', { key: acme.key, method: 'POST', body });
      expect([body.slice(0, 12), res.status, res.body.error.code]).toEqual([body.slice(0, 12), 400, 'invalid_request']);
    }
    expect((await api('/api/auth/api-keys', { key: acme.key })).body.items).toHaveLength(1);
  });

  it('revokes by path and by body (204, idempotent); the revoked key stops at once; the last key is 409', async () => {
    const acme = await newAccount('Acme');
    const second = (await api('/api/auth/api-keys', { key: acme.key, method: 'POST' })).body as CreatedApiKey;
    const third = (await api('/api/auth/api-keys', { key: acme.key, method: 'POST' })).body as CreatedApiKey;

    expect((await api(`/api/auth/api-keys/${second.id}`, { key: acme.key, method: 'DELETE' })).status).toBe(204);
    expect((await api('/api/v1/balance', { key: second.key })).body.error.code).toBe('invalid_api_key');
    expect((await api(`/api/auth/api-keys/${second.id}`, { key: acme.key, method: 'DELETE' })).status).toBe(204);

    expect((await api('/api/auth/api-keys', { key: acme.key, method: 'DELETE', body: JSON.stringify({ id: third.id }) })).status).toBe(204);
    expect((await api('/api/v1/balance', { key: third.key })).status).toBe(401);

    const last = await api(`/api/auth/api-keys/${acme.keyId}`, { key: acme.key, method: 'DELETE' });
    expect(last.status).toBe(409);
    expect(last.body.error).toMatchObject({ code: 'conflict', requestId: expect.any(String) });
    expect((await api('/api/v1/balance', { key: acme.key })).status).toBe(200);

    const listed = (await api('/api/auth/api-keys', { key: acme.key })).body as ApiKeyList;
    expect(listed.items.filter((k) => k.revokedAt !== null).map((k) => k.id).sort()).toEqual([second.id, third.id].sort());
  });

  it('never lets one account revoke or see another account’s key (404)', async () => {
    const acme = await newAccount('Acme');
    const globex = await newAccount('Globex');
    await api('/api/auth/api-keys', { key: acme.key, method: 'POST' });
    const spare = (await api('/api/auth/api-keys', { key: acme.key, method: 'POST' })).body as CreatedApiKey;

    const byPath = await api(`/api/auth/api-keys/${spare.id}`, { key: globex.key, method: 'DELETE' });
    expect([byPath.status, byPath.body.error.code]).toEqual([404, 'not_found']);
    const byBody = await api('/api/auth/api-keys', { key: globex.key, method: 'DELETE', body: JSON.stringify({ id: acme.keyId }) });
    expect([byBody.status, byBody.body.error.code]).toEqual([404, 'not_found']);
    expect((await api('/api/auth/api-keys/key_01jzzzzzzzzzzzzzzzzzzzzzzz', { key: globex.key, method: 'DELETE' })).status).toBe(404);

    expect((await api('/api/v1/balance', { key: spare.key })).status).toBe(200);
    const theirs = (await api('/api/auth/api-keys', { key: globex.key })).body as ApiKeyList;
    expect(theirs.items.map((k) => k.id)).toEqual([globex.keyId]);
  });

  it('answers 401 before 400: a bad body without a key is missing_api_key', async () => {
    const res = await api('/api/auth/api-keys', { key: null, method: 'POST', body: '{bad' });
    expect([res.status, res.body.error.code]).toEqual([401, 'missing_api_key']);
  });
});

describe('rate limits on the local runtime', () => {
  let address = 10;
  /** Requests from a loopback address of their own (127.0.0.x), so that each test starts with full IP buckets. */
  const client = () => {
    const dispatcher = new Agent({ connect: { localAddress: `127.0.0.${address++}` } });
    return async (path: string, key: string | null, init: { method?: string; body?: string } = {}) => {
      const res = await fetchFrom(`${service.url}${path}`, {
        dispatcher,
        method: init.method ?? 'GET',
        headers: { ...(key ? { 'x-api-key': key } : {}), ...(init.body ? { 'content-type': 'application/json' } : {}) },
        body: init.body,
      });
      return { status: res.status, headers: res.headers, body: (await res.json()) as any };
    };
  };
  const within = async <T>(run: () => Promise<T>) => {
    const started = Date.now();
    const result = await run();
    return { result, seconds: (Date.now() - started) / 1000 };
  };

  it('lets a burst on one key through up to the key bucket, then answers 429 with Retry-After and RateLimit-*', async () => {
    setLimits({ RATE_LIMIT_KEY_PER_SECOND: 1, RATE_LIMIT_KEY_BURST: 5, RATE_LIMIT_IP_PER_SECOND: 100, RATE_LIMIT_IP_BURST: 100 });
    const acme = await newAccount('Acme');
    const call = client();
    const { result, seconds } = await within(() => Promise.all(Array.from({ length: 9 }, () => call('/api/v1/balance', acme.key))));
    const ok = result.filter((r) => r.status === 200);
    const limited = result.filter((r) => r.status === 429);
    expect(ok.length).toBeGreaterThanOrEqual(5);
    expect(ok.length).toBeLessThanOrEqual(5 + Math.ceil(seconds));
    expect(ok.length + limited.length).toBe(9);
    for (const r of ok) expect(r.headers.get('ratelimit-limit')).toBe('5');
    const [first] = limited;
    expect(first?.body.error).toMatchObject({ code: 'rate_limited', requestId: expect.any(String) });
    // One token a second: the wait is a second, or two when concurrent requests read the clock a moment apart (each
    // takes "now" before its round trip to the table, so a later one may land first and move the bucket on).
    expect([1, 2]).toContain(first?.body.error.retryAfterSeconds);
    expect(first?.headers.get('retry-after')).toBe(String(first?.body.error.retryAfterSeconds));
    expect(first?.headers.get('ratelimit-remaining')).toBe('0');
    // Another key of the same account has a bucket of its own.
    const { key: second } = await servicesOn(service.table, engineReturning(1)).apiKeys.issue(acme.accountId, 'second');
    expect((await call('/api/v1/balance', second)).status).toBe(200);
  });

  it('limits every route per IP, keyless ones included', async () => {
    setLimits({ RATE_LIMIT_IP_PER_SECOND: 1, RATE_LIMIT_IP_BURST: 4 });
    const call = client();
    const { result, seconds } = await within(() => Promise.all(Array.from({ length: 8 }, () => call('/api/health', null))));
    const ok = result.filter((r) => r.status === 200).length;
    expect(ok).toBeGreaterThanOrEqual(4);
    expect(ok).toBeLessThanOrEqual(4 + Math.ceil(seconds));
    const limited = result.find((r) => r.status === 429);
    expect(limited?.body.error.code).toBe('rate_limited');
    expect(limited?.headers.get('ratelimit-limit')).toBe('4');
  });

  it('refuses a burst of guessed keys from one IP in the authorizer, before any key is read', async () => {
    setLimits({ RATE_LIMIT_IP_PER_SECOND: 1, RATE_LIMIT_IP_BURST: 4 });
    const call = client();
    const guesses = Array.from({ length: 10 }, (_, i) => `sk-live-${String(i).padStart(40, 'Q')}`);
    const { result, seconds } = await within(() => Promise.all(guesses.map((key) => call('/api/v1/balance', key))));
    const looked = result.filter((r) => r.status === 401);
    const refused = result.filter((r) => r.status === 429);
    expect(looked.length).toBeGreaterThanOrEqual(4);
    expect(looked.length).toBeLessThanOrEqual(4 + Math.ceil(seconds));
    expect(looked.length + refused.length).toBe(10);
    expect(refused[0]?.body.error).toMatchObject({ code: 'rate_limited', retryAfterSeconds: 1 });
    expect(refused[0]?.headers.get('retry-after')).toBe('1');
  });
});
