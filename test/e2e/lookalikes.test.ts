// End to end over HTTP on the real knowledge base: POST /api/v1/lookalikes (paid, refunded, idempotent, stored like a
// search), the screening filters on search, look-alikes and bulk, and firmographics on every stored row and CSV export.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BULK_CSV_COLUMNS, HistoryPage, LookalikesResult, MY_COMPANIES_CSV_COLUMNS, MyCompanies, SearchResult, SharedSearch, StoredSearch } from '@rivals/contracts';
import { startLocal, type LocalService } from '../../packages/local/src/runtime.js';
import { raiseRateLimits } from '../../packages/local/src/services.js';

let service: LocalService;
beforeAll(async () => {
  raiseRateLimits();
  service = await startLocal({ port: 0, devCredits: 30, devApiKey: `sk-live-${'look'.repeat(9)}`, keyFile: null });
}, 120_000);
afterAll(() => service?.stop());

const call = async (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) => {
  const headers: Record<string, string> = { 'x-api-key': service.apiKey, ...init.headers };
  if (init.body !== undefined) headers['content-type'] ??= 'application/json';
  const body = init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
  const res = await fetch(`${service.url}${path}`, { method: init.method ?? 'GET', headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : undefined } as const;
};
const balance = async () => (await call('/api/v1/balance')).body.creditsRemaining as number;
const post = (path: string, body: unknown, headers: Record<string, string> = {}) => call(path, { method: 'POST', body, headers });
const SEEDS = ['https://www.delta.com/', 'united.com', 'aa.com'];

describe('look-alikes over HTTP', () => {
  let searchId = '';

  it('answers three known seeds in milliseconds with typed, ranked companies close to them, for one credit', async () => {
    const before = await balance();
    const res = await post('/api/v1/lookalikes', { domains: SEEDS, limit: 25 });
    expect(res.status).toBe(200);
    const body = LookalikesResult.parse(res.body);
    expect(body.domains).toEqual(['delta.com', 'united.com', 'aa.com']);
    expect(body.totalCompanies).toBe(25);
    expect(body.creditsRemaining).toBe(before - 1);
    expect(await balance()).toBe(before - 1);
    expect(body.elapsedSeconds).toBeLessThan(1);
    expect(body.companies.map((c) => c.rank)).toEqual(body.companies.map((_, i) => i + 1));
    for (const c of body.companies) {
      expect(['Direct', 'Indirect', 'Adjacent', 'Emerging']).toContain(c.type);
      expect(c.similarTo.length).toBeGreaterThan(0);
      for (const seed of c.similarTo) expect(body.domains).toContain(seed);
    }
    const domains = body.companies.map((c) => c.domain);
    // Airlines, close to every seed; never a seed itself.
    expect(domains).toEqual(expect.arrayContaining(['southwest.com', 'jetblue.com', 'alaskaair.com']));
    expect(body.companies.find((c) => c.domain === 'southwest.com')!.similarTo).toHaveLength(3);
    for (const seed of body.domains) expect(domains).not.toContain(seed);
    expect(new Set(domains).size).toBe(domains.length);
    searchId = res.headers.get('x-search-id')!;
    expect(searchId).toMatch(/^srch_/);
  });

  it('never returns a seed\'s parent or subsidiaries', async () => {
    // Hulu belongs to Disney; YouTube to Alphabet.
    const res = await post('/api/v1/lookalikes', { domains: ['netflix.com', 'hulu.com', 'youtube.com'], limit: 100 });
    expect(res.status).toBe(200);
    const domains = (res.body as LookalikesResult).companies.map((c) => c.domain);
    for (const never of ['disney.com', 'google.com', 'hulu.com', 'youtube.com', 'netflix.com']) expect(domains).not.toContain(never);
  });

  it('stores the search like any other: by id with evidence, firmographics and similarTo; in history; shared; in my-companies', async () => {
    const stored = await call(`/api/searches/${searchId}`);
    expect(stored.status).toBe(200);
    const search = StoredSearch.parse(stored.body);
    expect(search).toMatchObject({ domain: 'delta.com', seeds: ['delta.com', 'united.com', 'aa.com'], status: 'succeeded', totalCompetitors: 25 });
    for (const row of search.competitors) {
      expect(row.evidence.signals.length).toBeGreaterThan(0);
      expect(row.similarTo?.length).toBeGreaterThan(0);
      expect(row.firmographics.founded).toEqual(expect.any(Number));
    }
    expect(search.competitors.find((c) => c.domain === 'southwest.com')!.evidence.signals).toContain('close to 3 of 3 seeds');

    const history = HistoryPage.parse((await call('/api/history?limit=50')).body);
    expect(history.items.find((i) => i.id === searchId)).toMatchObject({ domain: 'delta.com', seeds: ['delta.com', 'united.com', 'aa.com'] });

    const share = await post(`/api/searches/${searchId}/share`, undefined);
    expect(share.status).toBe(201);
    const shared = SharedSearch.parse((await call(`/api/shared/${share.body.token}`)).body);
    expect(shared.seeds).toEqual(['delta.com', 'united.com', 'aa.com']);

    const companies = MyCompanies.parse((await call('/api/my-companies')).body);
    const southwest = companies.items.find((c) => c.domain === 'southwest.com')!;
    expect(southwest.foundFor).toContain('delta.com');
    expect(southwest.firmographics).toMatchObject({ founded: 1967, hq: 'US', ownership: 'public' });
    const csv = parse((await call('/api/my-companies?format=csv')).text, { columns: true, bom: true }) as Record<string, string>[];
    expect(Object.keys(csv[0]!)).toEqual([...MY_COMPANIES_CSV_COLUMNS]);
    expect(csv.find((r) => r.domain === 'southwest.com')).toMatchObject({ founded: '1967', hq: 'US', ownership: 'public' });
  });

  it('replays an Idempotency-Key retry without a second charge', async () => {
    const headers = { 'idempotency-key': 'lookalikes-retry-1' };
    const first = await post('/api/v1/lookalikes', { domains: ['stripe.com', 'adyen.com'], limit: 5 }, headers);
    const after = await balance();
    const again = await post('/api/v1/lookalikes', { domains: ['stripe.com', 'adyen.com'], limit: 5 }, headers);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await balance()).toBe(after);
  });

  it('refunds a look-alike search whose seeds it neither knows nor can reach (422 no_competitors_found)', async () => {
    const before = await balance();
    const res = await post('/api/v1/lookalikes', { domains: ['no-such-company-rivals-test.com', 'nor-this-one-rivals-test.com'] });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'no_competitors_found', refunded: true, creditsRemaining: before });
    expect(await balance()).toBe(before);
  });

  it.each([
    ['no seeds', { domains: [] }, 'invalid_request'],
    ['21 seeds', { domains: Array.from({ length: 21 }, (_, i) => `seed${i}.com`) }, 'invalid_request'],
    ['a bad seed', { domains: ['stripe.com', 'localhost'] }, 'invalid_domain'],
    ['foundedFrom after foundedTo', { domains: ['stripe.com'], foundedFrom: 2020, foundedTo: 2010 }, 'invalid_request'],
    ['an unknown ownership', { domains: ['stripe.com'], ownership: ['listed'] }, 'invalid_request'],
  ])('refuses %s with 400, free', async (_, body, code) => {
    const before = await balance();
    const res = await post('/api/v1/lookalikes', body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(code);
    expect(await balance()).toBe(before);
  });
});

describe('screening filters', () => {
  it('a search with foundedFrom 2015 and ownership private stores only rows whose firmographics match; the body stays the Search result', async () => {
    const res = await post('/api/v1/search', { domain: 'hubspot.com', foundedFrom: 2015, ownership: ['private'] });
    expect(res.status).toBe(200);
    const body = SearchResult.parse(res.body);
    expect(Object.keys(body.competitors[0]!).sort()).toEqual(['company', 'confidence', 'domain', 'likelyCompetitor', 'matchScore', 'rank', 'type']);
    expect(body.totalCompetitors).toBeGreaterThan(5);
    const stored = StoredSearch.parse((await call(`/api/searches/${res.headers.get('x-search-id')}`)).body);
    expect(stored.filters).toEqual({ foundedFrom: 2015, ownership: ['private'] });
    for (const row of stored.competitors) {
      expect(row.firmographics.founded).toBeGreaterThanOrEqual(2015);
      expect(row.firmographics.ownership).toBe('private');
    }
  });

  it('sizes, foundedTo and ownership screen look-alikes too', async () => {
    const res = await post('/api/v1/lookalikes', { domains: ['nike.com', 'adidas.com', 'puma.com'], sizes: ['10001+'], foundedTo: 2000, ownership: ['public'] });
    expect(res.status).toBe(200);
    const stored = StoredSearch.parse((await call(`/api/searches/${res.headers.get('x-search-id')}`)).body);
    expect(stored.competitors.length).toBeGreaterThan(0);
    for (const { firmographics: f } of stored.competitors) expect(f).toMatchObject({ size: '10001+', ownership: 'public' });
    for (const { firmographics: f } of stored.competitors) expect(f.founded).toBeLessThanOrEqual(2000);
  });

  it('a bulk job screens every domain and its download carries the firmographics columns', async () => {
    const upload = await call('/api/bulk/upload?limit=10&foundedFrom=2010&ownership=private,subsidiary&sizes=51-200,201-500,501-1000', {
      method: 'POST',
      body: 'domain\nstripe.com\nnotion.so\n',
      headers: { 'content-type': 'text/csv' },
    });
    expect(upload.status).toBe(202);
    const jobId = upload.body.jobId as string;
    let job;
    for (let i = 0; i < 100; i++) {
      job = (await call(`/api/bulk/jobs/${jobId}`)).body;
      if (job.status === 'completed') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(job.status).toBe('completed');
    expect(job.filters).toEqual({ sizes: ['51-200', '201-500', '501-1000'], foundedFrom: 2010, ownership: ['private', 'subsidiary'] });
    const rows = parse((await call(`/api/bulk/jobs/${jobId}/download`)).text, { columns: true, bom: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual([...BULK_CSV_COLUMNS]);
    expect(rows.length).toBeGreaterThan(5);
    for (const row of rows) {
      expect(Number(row.founded)).toBeGreaterThanOrEqual(2010);
      expect(['private', 'subsidiary']).toContain(row.ownership);
      expect(['51-200', '201-500', '501-1000']).toContain(row.size);
    }
  }, 60_000);
});
