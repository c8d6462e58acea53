// End to end over HTTP, with the front's authorizer cache on (60 s, as API Gateway's): a revoked key is refused on its
// next request. The issue's reproduction: a leaked key, cached by the front, is revoked by its owner; the attacker's
// next calls (a search, minting a key, revoking the owner's key) are 401. A revocation that bypasses the cache flush
// (a write straight to the table) still cannot change access: the key, webhook and job routes re-read the calling key
// with strong consistency. An operator's close-account (npm run admin) revokes every key and empties the cache.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedApiKey } from '@rivals/contracts';
import { freePort } from '../../packages/local/src/engines.js';
import { PROJECT_ROOT, startLocal, type LocalService } from '../../packages/local/src/runtime.js';
import { engineReturning } from '../fakes.js';
import { servicesOn } from '../setup/table.js';

let service: LocalService;
beforeAll(async () => {
  // Written where the operator command looks for the running instance; the front's cache as in AWS (60 s).
  service = await startLocal({ port: await freePort(), devCredits: 5, stateDir: join(PROJECT_ROOT, '.local'), scheduleEverySeconds: 3600 });
}, 120_000);
afterAll(() => service?.stop());

const api = async (path: string, key: string, init: { method?: string; body?: unknown } = {}) => {
  const res = await fetch(`${service.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'x-api-key': key, ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as any) : undefined };
};

const newAccount = async (name: string) => {
  const s = servicesOn(service.table, engineReturning(1));
  const account = await s.accounts.open(name, 1);
  const { key, record } = await s.apiKeys.issue(account.id, 'owner');
  return { accountId: account.id, key, keyId: record.id };
};

describe('a revoked key is refused on its next request', () => {
  it('the owner revokes a leaked key that the front has cached: its next calls are 401, the owner keeps control', async () => {
    const owner = await newAccount('Leaky');
    const leaked = (await api('/api/auth/api-keys', owner.key, { method: 'POST', body: { name: 'leaked' } })).body as CreatedApiKey;
    // The attacker's key is in the front's authorizer cache.
    expect((await api('/api/v1/balance', leaked.key)).status).toBe(200);

    expect((await api(`/api/auth/api-keys/${leaked.id}`, owner.key, { method: 'DELETE' })).status).toBe(204);

    expect((await api('/api/v1/balance', leaked.key)).status).toBe(401);
    expect((await api('/api/auth/api-keys', leaked.key, { method: 'POST' })).status).toBe(401);
    expect((await api(`/api/auth/api-keys/${owner.keyId}`, leaked.key, { method: 'DELETE' })).status).toBe(401);
    expect((await api('/api/v1/balance', owner.key)).status).toBe(200);
  });

  it('re-checks the calling key on every route that changes access, whatever the cache holds', async () => {
    const owner = await newAccount('Stale');
    const other = await servicesOn(service.table, engineReturning(1)).apiKeys.issue(owner.accountId, 'spare');
    expect((await api('/api/v1/balance', owner.key)).status).toBe(200); // cached Allow
    // Revoked behind the front's back: no flush, so the cached Allow stands for reads...
    await servicesOn(service.table, engineReturning(1)).apiKeys.revoke(owner.accountId, owner.keyId, { keepOneActive: false });
    expect((await api('/api/v1/balance', owner.key)).status).toBe(200);
    // ...but never for a change of access.
    const changes: [string, string, unknown][] = [
      ['POST', '/api/auth/api-keys', { name: 'x' }],
      ['DELETE', `/api/auth/api-keys/${other.record.id}`, undefined],
      ['DELETE', '/api/auth/api-keys', { id: other.record.id }],
      ['POST', '/api/webhook-secret', undefined],
      ['POST', '/api/bulk/upload-url', { webhookUrl: 'https://example.com/hook' }],
    ];
    for (const [method, path, body] of changes) {
      const answer = await api(path, owner.key, { method, body });
      expect([path, answer.status, answer.body?.error?.code]).toEqual([path, 401, 'invalid_api_key']);
    }
    const upload = await fetch(`${service.url}/api/bulk/upload?webhookUrl=${encodeURIComponent('https://example.com/hook')}`, {
      method: 'POST',
      headers: { 'x-api-key': owner.key, 'content-type': 'text/csv' },
      body: 'domain\nstripe.com\n',
    });
    expect(upload.status).toBe(401);
    // The spare key is untouched and still works.
    expect((await api('/api/v1/balance', other.key)).status).toBe(200);
  });

  it('an operator closes an account: every key is refused at once, cached or not', { timeout: 60_000 }, async () => {
    const acme = await newAccount('Closing');
    const second = (await api('/api/auth/api-keys', acme.key, { method: 'POST' })).body as CreatedApiKey;
    expect((await api('/api/v1/balance', acme.key)).status).toBe(200);
    expect((await api('/api/v1/balance', second.key)).status).toBe(200);

    const port = new URL(service.url).port;
    const env = { ...process.env };
    delete env.TABLE_NAME;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'packages/local/src/admin.ts'), '--port', port, 'close-account', '--account', acme.accountId], { cwd: PROJECT_ROOT, env });
    expect(JSON.parse(stdout)).toEqual({ accountId: acme.accountId, revokedKeys: expect.arrayContaining([acme.keyId, second.id]) });

    expect((await api('/api/v1/balance', acme.key)).status).toBe(401);
    expect((await api('/api/v1/balance', second.key)).status).toBe(401);
    expect((await api('/api/auth/api-keys', second.key, { method: 'POST' })).status).toBe(401);
  });
});
