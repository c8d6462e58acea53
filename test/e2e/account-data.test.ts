// End to end over HTTP: history, my-companies (JSON and CSV), share links, the watchlist; every id-taking route
// walked with a second account's key (404, the first account's object unchanged); and none of it costs a credit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HistoryPage, MyCompanies, SavedCompaniesPage, SharedSearch } from '@rivals/contracts';
import { ROUTES } from '../../infra/routes.js';
import { startLocal, type LocalService } from '../../packages/local/src/runtime.js';
import { engineReturning } from '../fakes.js';
import { raiseRateLimits } from '../../packages/local/src/services.js';
import { servicesOn } from '../setup/table.js';

let service: LocalService;
/** A second account, the stranger of the ownership walk. */
let strangerKey: string;
/** Objects of the development account (A). */
const a = { searchIds: [] as string[], shareToken: '', savedDomain: 'watched-rival.com', keyId: '', jobId: '' };

type Init = { method?: string; key?: string | null; body?: unknown; headers?: Record<string, string> };
const call = async (path: string, init: Init = {}) => {
  const headers: Record<string, string> = { ...init.headers };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.key !== null) headers['x-api-key'] = init.key ?? service.apiKey;
  const res = await fetch(`${service.url}${path}`, { method: init.method ?? 'GET', headers, ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}) });
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : undefined;
  return { status: res.status, headers: res.headers, text, body: json as any };
};
const balance = async (key?: string) => (await call('/api/v1/balance', key ? { key } : {})).body.creditsRemaining as number;

beforeAll(async () => {
  // This file makes many calls in a few seconds; the limiter has its own tests (api-keys, rate-limits).
  raiseRateLimits();
  service = await startLocal({ port: 0, devCredits: 50, devApiKey: `sk-live-${'acct'.repeat(9)}`, keyFile: null });
  for (const domain of ['stripe.com', 'adyen.com', 'hubspot.com']) {
    const res = await call('/api/v1/search', { method: 'POST', body: { domain, limit: 10 } });
    expect(res.status).toBe(200);
    a.searchIds.push(res.headers.get('x-search-id')!);
  }
  a.shareToken = (await call(`/api/searches/${a.searchIds[0]}/share`, { method: 'POST' })).body.token;
  expect((await call('/api/saved-companies', { method: 'POST', body: { domain: a.savedDomain, searchId: a.searchIds[0] } })).status).toBe(201);
  a.keyId = (await call('/api/auth/api-keys')).body.items[0].id;
  const other = servicesOn(service.table, engineReturning(1));
  const stranger = await other.accounts.open('Stranger', 3);
  strangerKey = (await other.apiKeys.issue(stranger.id)).key;
}, 120_000);
afterAll(() => service?.stop());

describe('account data over HTTP', () => {
  it('GET /api/history pages newest first, filters, and refuses bad cursors and unknown parameters', async () => {
    const first = await call('/api/history?limit=2');
    expect(first.status).toBe(200);
    expect(HistoryPage.parse(first.body).items.map((i) => i.id)).toEqual([a.searchIds[2], a.searchIds[1]]);
    const second = await call(`/api/history?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.items.map((i: { id: string }) => i.id)).toEqual([a.searchIds[0]]);
    expect(second.body.nextCursor).toBeNull();
    expect((await call('/api/history?source=bulk')).body).toEqual({ items: [], nextCursor: null });
    expect((await call('/api/history?status=succeeded&source=api')).body.items).toHaveLength(3);
    for (const query of ['cursor=garbage', 'limit=0', 'limit=201', 'status=done', 'sauce=api']) {
      const res = await call(`/api/history?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
    }
  });

  it('GET /api/my-companies aggregates the searches, and exports them as CSV', async () => {
    const res = await call('/api/my-companies');
    expect(res.status).toBe(200);
    const { items, total } = MyCompanies.parse(res.body);
    expect(total).toBe(items.length);
    expect(items.length).toBeGreaterThan(10);
    const counts = items.map((i) => i.timesFound);
    expect(counts).toEqual([...counts].sort((x, y) => y - x));
    expect(items.find((i) => i.domain === 'stripe.com')?.foundFor).toEqual(['adyen.com']);
    const csv = await call('/api/my-companies?format=csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toContain('my-companies.csv');
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('company,product,domain,timesFound,bestMatchScore,types,firstSeenAt,lastSeenAt,foundFor,founded,size,hq,ownership,exchange,ticker');
    expect(lines).toHaveLength(items.length + 1);
    expect((await call('/api/my-companies?format=xml')).status).toBe(400);
  });

  it('shares a search: 201 then 200 with the same link, readable without a key, revoked at once', async () => {
    const id = a.searchIds[1]!;
    const created = await call(`/api/searches/${id}/share`, { method: 'POST' });
    expect(created.status).toBe(201);
    // Absolute, on the address the service was called at: a link a user can paste anywhere.
    expect(created.body).toEqual({ token: expect.any(String), url: `${service.url}/share/${created.body.token}`, createdAt: expect.any(String) });
    const again = await call(`/api/searches/${id}/share`, { method: 'POST' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(created.body);
    const shared = await call(`/api/shared/${created.body.token}`, { key: null });
    expect(shared.status).toBe(200);
    expect(SharedSearch.parse(shared.body).domain).toBe('adyen.com');
    for (const secret of [service.accountId, id]) expect(shared.text).not.toContain(secret);
    expect((await call(`/api/searches/${id}/share`, { method: 'DELETE' })).status).toBe(204);
    expect((await call(`/api/searches/${id}/share`, { method: 'DELETE' })).status).toBe(204);
    expect((await call(`/api/shared/${created.body.token}`, { key: null })).status).toBe(404);
    expect((await call(`/api/shared/${'x'.repeat(43)}`, { key: null })).body.error.code).toBe('not_found');
  });

  it('keeps a watchlist: 201, then 200 with the note updated, PATCH edits it, newest first, 204 on removal', async () => {
    const saved = await call('/api/saved-companies', { method: 'POST', body: { domain: 'https://www.Adyen.com/', company: 'Adyen', note: 'rival' } });
    expect(saved.status).toBe(201);
    expect(saved.body).toEqual({ domain: 'adyen.com', company: 'Adyen', note: 'rival', searchId: null, savedAt: expect.any(String), lastCheckedAt: expect.any(String), unseenChanges: 0 });
    const again = await call('/api/saved-companies', { method: 'POST', body: { domain: 'adyen.com', note: 'changed' } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...saved.body, note: 'changed' });
    const patched = await call('/api/saved-companies/adyen.com', { method: 'PATCH', body: { note: 'pricing' } });
    expect(patched).toMatchObject({ status: 200, body: { ...saved.body, note: 'pricing' } });
    expect((await call('/api/saved-companies/adyen.com', { method: 'PATCH', body: {} })).body.error.code).toBe('invalid_request');
    expect((await call('/api/saved-companies/never-saved.com', { method: 'PATCH', body: { note: 'x' } })).status).toBe(404);
    // Saved with no name: the knowledge base names it.
    expect((await call('/api/saved-companies', { method: 'POST', body: { domain: 'linear.app' } })).body.company).toBe('Linear');
    expect((await call('/api/saved-companies/linear.app', { method: 'DELETE' })).status).toBe(204);
    const list = await call('/api/saved-companies?limit=1');
    expect(SavedCompaniesPage.parse(list.body).items.map((i) => i.domain)).toEqual(['adyen.com']);
    expect(list.body.nextCursor).toEqual(expect.any(String));
    for (const body of [{ domain: 'x.com', colour: 'red' }, { domain: 'x.com', note: 'n'.repeat(501) }, {}]) {
      expect((await call('/api/saved-companies', { method: 'POST', body })).body.error.code).toBe('invalid_request');
    }
    expect((await call('/api/saved-companies', { method: 'POST', body: { domain: '10.0.0.1' } })).body.error.code).toBe('invalid_domain');
    expect((await call('/api/saved-companies/adyen.com', { method: 'DELETE' })).status).toBe(204);
    expect((await call('/api/saved-companies/adyen.com', { method: 'DELETE' })).status).toBe(204);
    expect((await call('/api/saved-companies')).body.items.map((i: { domain: string }) => i.domain)).toEqual([a.savedDomain]);
  });
});

/**
 * The ownership walk. One row per route that takes an id (in its path, or in its body): the stranger's call and what
 * it must answer; `intact` proves account A's object did not change. Routes added later (bulk jobs, API keys) add
 * their rows here; the last test fails until every id-taking route of infra/routes.ts has one.
 */
interface OwnershipCase {
  route: string;
  call: () => { path: string; init?: Init };
  status: number;
  intact?: () => Promise<void>;
}
const OWNERSHIP: OwnershipCase[] = [
  { route: 'GET /api/searches/{id}', call: () => ({ path: `/api/searches/${a.searchIds[0]}` }), status: 404 },
  {
    route: 'POST /api/searches/{id}/share',
    call: () => ({ path: `/api/searches/${a.searchIds[2]}/share`, init: { method: 'POST' } }),
    status: 404,
    intact: async () => expect((await call(`/api/searches/${a.searchIds[2]}/share`, { method: 'POST' })).status).toBe(201), // A's first share
  },
  {
    route: 'DELETE /api/searches/{id}/share',
    call: () => ({ path: `/api/searches/${a.searchIds[0]}/share`, init: { method: 'DELETE' } }),
    status: 404,
    intact: async () => expect((await call(`/api/shared/${a.shareToken}`, { key: null })).status).toBe(200),
  },
  {
    route: 'POST /api/saved-companies',
    call: () => ({ path: '/api/saved-companies', init: { method: 'POST', body: { domain: 'rival.com', searchId: a.searchIds[0] } } }),
    status: 404,
  },
  {
    // The stranger has not saved it: 404, and the first account's note is as it was.
    route: 'PATCH /api/saved-companies/{domain}',
    call: () => ({ path: `/api/saved-companies/${a.savedDomain}`, init: { method: 'PATCH', body: { note: 'taken over' } } }),
    status: 404,
    intact: async () => expect((await call('/api/saved-companies')).body.items.find((i: { domain: string }) => i.domain === a.savedDomain)?.note ?? null).not.toBe('taken over'),
  },
  {
    // Removing is scoped to the caller's own watchlist: the stranger has nothing to remove (204); A's row stays.
    route: 'DELETE /api/saved-companies/{domain}',
    call: () => ({ path: `/api/saved-companies/${a.savedDomain}`, init: { method: 'DELETE' } }),
    status: 204,
    intact: async () => expect((await call('/api/saved-companies')).body.items.map((i: { domain: string }) => i.domain)).toContain(a.savedDomain),
  },
  {
    route: 'DELETE /api/auth/api-keys/{id}',
    call: () => ({ path: `/api/auth/api-keys/${a.keyId}`, init: { method: 'DELETE' } }),
    status: 404,
    intact: async () => expect((await call('/api/v1/balance')).status).toBe(200),
  },
  {
    route: 'DELETE /api/auth/api-keys',
    call: () => ({ path: '/api/auth/api-keys', init: { method: 'DELETE', body: { id: a.keyId } } }),
    status: 404,
    intact: async () => expect((await call('/api/v1/balance')).status).toBe(200),
  },
  ...(['GET /api/bulk/jobs/{id}', 'GET /api/bulk/jobs/{id}/download', 'DELETE /api/bulk/jobs/{id}'] as const).map(
    (route): OwnershipCase => ({
      route,
      call: () => ({ path: route.split(' ')[1]!.replace('{id}', a.jobId), init: { method: route.split(' ')[0]! } }),
      status: 404,
      intact: async () => expect((await call(`/api/bulk/jobs/${a.jobId}`)).body.status).not.toBe('cancelled'),
    }),
  ),
];

/** Keyed routes that take an id in their body rather than their path. */
const ID_IN_BODY = ['POST /api/saved-companies', 'DELETE /api/auth/api-keys'];

describe('ownership: a second account never reaches the first one\'s objects', () => {
  // A's bulk job, made here so that the history tests above see A's api searches only.
  beforeAll(async () => {
    const upload = await fetch(`${service.url}/api/bulk/upload?limit=3`, { method: 'POST', headers: { 'x-api-key': service.apiKey, 'content-type': 'text/csv' }, body: 'domain\nstripe.com\n' });
    expect(upload.status).toBe(202);
    a.jobId = ((await upload.json()) as { jobId: string }).jobId;
  });

  it.each(OWNERSHIP.map((c) => [c.route, c] as const))('%s', async (_, c) => {
    const { path, init } = c.call();
    const res = await call(path, { ...init, key: strangerKey });
    expect(res.status).toBe(c.status);
    if (c.status === 404) expect(res.body.error.code).toBe('not_found');
    await c.intact?.();
  });

  it('lists nothing of the first account in the second one\'s lists', async () => {
    for (const path of ['/api/history', '/api/saved-companies']) expect((await call(path, { key: strangerKey })).body.items).toEqual([]);
    expect((await call('/api/my-companies', { key: strangerKey })).body).toEqual({ items: [], total: 0 });
  });

  it('walks every keyed route of the route table that takes an id', () => {
    const takesId = ROUTES.filter((r) => r.auth && (/\{\w+\}/.test(r.path) || ID_IN_BODY.includes(`${r.method} ${r.path}`))).map((r) => `${r.method} ${r.path}`);
    expect(OWNERSHIP.map((c) => c.route).sort()).toEqual(takesId.sort());
  });
});

describe('free: reading and writing account data never changes the balance', () => {
  it('leaves the balance as it was after every account-data call', async () => {
    const before = await balance();
    const id = a.searchIds[2]!;
    const calls: [string, Init?][] = [
      ['/api/history'],
      ['/api/history?status=failed'],
      ['/api/my-companies'],
      ['/api/my-companies?format=csv'],
      [`/api/searches/${id}`],
      [`/api/searches/${id}/share`, { method: 'POST' }],
      [`/api/searches/${id}/share`, { method: 'POST' }],
      [`/api/searches/${id}/share`, { method: 'DELETE' }],
      [`/api/shared/${a.shareToken}`, { key: null }],
      ['/api/saved-companies', { method: 'POST', body: { domain: 'free.com' } }],
      ['/api/saved-companies', { method: 'POST', body: { domain: 'free.com' } }],
      ['/api/saved-companies'],
      ['/api/saved-companies/free.com', { method: 'DELETE' }],
    ];
    for (const [path, init] of calls) expect((await call(path, init)).status, path).toBeLessThan(300);
    expect(await balance()).toBe(before);
  });
});
