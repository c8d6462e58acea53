// End to end over HTTP: API key management through the local runtime (same authorizer and handlers as Lambda).
// A new key works at once, a revoked one stops at once, and one account never sees or touches another's keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyList, CreatedApiKey } from '@rivals/contracts';
import { startLocal, type LocalService } from '../../packages/local/src/runtime.js';
import { engineReturning } from '../fakes.js';
import { servicesOn } from '../setup/table.js';

let service: LocalService;
beforeAll(async () => {
  service = await startLocal({ port: 0, devCredits: 5, keyFile: null });
}, 120_000);
afterAll(() => service?.stop());

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
