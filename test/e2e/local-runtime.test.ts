// End to end: `startLocal` brings up DynamoDB Local, s3rver, local-aws-sqs and the HTTP front; calls go over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoredSearch } from '@rivals/contracts';
import { startLocal, type LocalService } from '../../packages/local/src/runtime.js';
import { raiseRateLimits } from '../../packages/local/src/services.js';
import { engineReturning } from '../fakes.js';
import { servicesOn } from '../setup/table.js';

let service: LocalService;
const DEV_KEY = `sk-live-${'e2e'.repeat(11)}`;
beforeAll(async () => {
  // Many calls in a row from one key: the per-key limits are tested in test/integration/rate-limits.test.ts.
  raiseRateLimits();
  service = await startLocal({ port: 0, devCredits: 20, devApiKey: DEV_KEY, keyFile: null });
}, 120_000);
afterAll(() => service?.stop());

const api = async (path: string, init: { method?: string; key?: string | null; body?: string; headers?: Record<string, string> } = {}) => {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...init.headers };
  if (init.key !== null) headers['x-api-key'] = init.key ?? service.apiKey;
  const res = await fetch(`${service.url}${path}`, { method: init.method ?? 'GET', headers, body: init.body });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
};
const balance = async () => (await api('/api/v1/balance')).body.creditsRemaining as number;

describe('local runtime over HTTP', () => {
  it('uses the DEV_API_KEY it was given for the development account', () => {
    expect(service.apiKey).toBe(DEV_KEY);
  });

  it('serves health without a key', async () => {
    const res = await api('/api/health', { key: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', version: expect.any(String) });
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('serves its OpenAPI document without a key', async () => {
    const res = await api('/api/openapi.json', { key: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ openapi: '3.1.0', paths: { '/api/v1/search': { post: { operationId: 'search' } } } });
  });

  it('searches https://www.stripe.com/x as stripe.com and charges exactly one credit', async () => {
    const before = await balance();
    const res = await api('/api/v1/search', { method: 'POST', body: JSON.stringify({ domain: 'https://www.stripe.com/x' }) });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['competitors', 'creditsRemaining', 'domain', 'elapsedSeconds', 'likelyCompetitors', 'totalCompetitors']);
    expect(res.body.domain).toBe('stripe.com');
    expect(res.body.totalCompetitors).toBe(res.body.competitors.length);
    expect(res.body.totalCompetitors).toBeGreaterThan(0);
    expect(res.body.competitors.map((c: { rank: number }) => c.rank)).toEqual(res.body.competitors.map((_: unknown, i: number) => i + 1));
    expect(res.body.creditsRemaining).toBe(before - 1);
    expect(await balance()).toBe(before - 1);
  });

  it.each([
    ['not a domain', { body: '{"domain":"not a domain"}' }, 400, 'invalid_domain'],
    ['limit 101', { body: '{"domain":"stripe.com","limit":101}' }, 400, 'invalid_request'],
    ['malformed JSON', { body: '{"domain":' }, 400, 'invalid_request'],
    ['no key', { body: '{"domain":"stripe.com"}', key: null }, 401, 'missing_api_key'],
    ['an unknown key', { body: '{"domain":"stripe.com"}', key: `sk-live-${'Z'.repeat(40)}` }, 401, 'invalid_api_key'],
  ])('answers %s with %i %s and costs nothing', async (_, init, status, code) => {
    const before = await balance();
    const res = await api('/api/v1/search', { method: 'POST', ...init });
    expect(res.status).toBe(status);
    expect(res.body.error).toMatchObject({ code, requestId: res.headers.get('x-request-id') });
    expect(await balance()).toBe(before);
  });

  it('replays a retried search with the same Idempotency-Key and charges once', async () => {
    const before = await balance();
    const init = { method: 'POST', body: JSON.stringify({ domain: 'hubspot.com', limit: 5 }), headers: { 'idempotency-key': 'retry-1' } };
    const first = await api('/api/v1/search', init);
    const second = await api('/api/v1/search', init);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await balance()).toBe(before - 1);
    const reused = await api('/api/v1/search', { ...init, body: JSON.stringify({ domain: 'hubspot.com', limit: 6 }) });
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('idempotency_key_reused');
  });

  it('refunds a search of a domain it neither knows nor can reach (422 no_competitors_found)', async () => {
    const before = await balance();
    const res = await api('/api/v1/search', { method: 'POST', body: JSON.stringify({ domain: 'no-such-company-rivals-test.com' }) });
    expect(res.status).toBe(422);
    // It says why: the name does not resolve, so the homepage could not be read; the stored search keeps the reason.
    expect(res.body.error).toMatchObject({ code: 'no_competitors_found', reason: 'homepage_unreachable', refunded: true, creditsRemaining: before });
    expect(await balance()).toBe(before);
    const [failed] = (await api('/api/history?status=failed&limit=1')).body.items;
    const stored = await api(`/api/searches/${failed.id}`);
    expect(stored.body).toMatchObject({ status: 'failed', error: 'no_competitors_found', reason: 'homepage_unreachable' });
  });

  it('keeps every search with the evidence of each row, readable for free by its id, and only by its account', async () => {
    const search = await api('/api/v1/search', { method: 'POST', body: JSON.stringify({ domain: 'slack.com', limit: 5 }) });
    const id = search.headers.get('x-search-id');
    expect(id).toMatch(/^srch_[0-9a-z]{26}$/);
    const before = await balance();
    const stored = await api(`/api/searches/${id}`);
    expect(stored.status).toBe(200);
    expect(StoredSearch.parse(stored.body)).toMatchObject({ id, domain: 'slack.com', status: 'succeeded', source: 'api', totalCompetitors: 5 });
    expect(stored.body.competitors.map((c: { domain: string }) => c.domain)).toEqual(search.body.competitors.map((c: { domain: string }) => c.domain));
    expect(stored.body.competitors[0].evidence).toMatchObject({ signals: expect.any(Array), sharedCategories: expect.any(Array), source: 'knowledge-base' });
    expect(await balance()).toBe(before);

    const other = servicesOn(service.table, engineReturning(1));
    const stranger = await other.accounts.open('Stranger', 1);
    const { key } = await other.apiKeys.issue(stranger.id);
    expect((await api(`/api/searches/${id}`, { key })).body.error.code).toBe('not_found');
    expect((await api('/api/searches/srch_nope')).status).toBe(404);
  });

  it('answers an unknown route with 404 not_found', async () => {
    const res = await api('/api/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  it('sends nosniff and no-store on handler answers and on its own', async () => {
    for (const path of ['/api/health', '/api/v1/balance', '/api/nothing-here']) {
      const res = await api(path, { key: path === '/api/v1/balance' ? undefined : null });
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    expect((await api('/api/v1/balance', { key: null })).headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('takes //host/api/... as a path, not as another host', async () => {
    const res = await api('//elsewhere.example/api/v1/balance');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
    expect((await api('//elsewhere.example/api/health', { key: null })).status).toBe(404);
  });

  it('answers a malformed percent-escape in the path with 400 invalid_request, before asking for a key', async () => {
    const res = await api('/api/searches/%E0%A4%A', { key: null });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', requestId: res.headers.get('x-request-id') });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it.each([
    ['OPTIONS', '/api/health', 'GET'],
    ['POST', '/api/health', 'GET'],
    ['GET', '/api/v1/search', 'POST'],
    ['DELETE', '/api/v1/search', 'POST'],
  ])('answers %s %s with 405 method_not_allowed and Allow: %s', async (method, path, allow) => {
    const res = await api(path, { method, key: null });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe(allow);
    expect(res.body.error).toMatchObject({ code: 'method_not_allowed', requestId: res.headers.get('x-request-id') });
  });

  it('answers HEAD with 405 and Allow, and no body', async () => {
    const res = await fetch(`${service.url}/api/health`, { method: 'HEAD' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect(await res.text()).toBe('');
  });
});
