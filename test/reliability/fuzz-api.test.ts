// Reliability: property-based fuzzing (fast-check) of every route of infra/routes.ts, generated from the route table so
// that a new route is fuzzed too, over the local runtime's HTTP front (the authorizer and the same handler chain as in
// Lambda): bodies (objects of wrong types, any JSON, malformed, huge, deeply nested, control characters, IDN, punycode,
// long labels, IP literals), query strings, path parameters and headers (content types, missing or odd X-API-Key).
// Properties, for every input: no 5xx; every 4xx carries a documented error code whose status it is; the balance does
// not change, except by a search answered 200 (-1), a bulk upload accepted (-credits reserved) or a cancelled job
// (+ what it still held). Size: FUZZ_RUNS inputs in all (default 400 here, with 600 more in fuzz-csv.test.ts; `npm run fuzz` runs 10,000); the seed is
// printed, and FUZZ_SEED=<seed> replays a run (docs/reliability.md, "Reproducing a fuzz failure").
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '@rivals/contracts';
import { ROUTES, type RouteSpec } from '../../infra/routes.js';
import { startLocal, type LocalService } from '../../packages/local/src/runtime.js';
import { raiseRateLimits, tableServices } from '../../packages/local/src/services.js';
import { body, csvFile, FUZZ_SEED, headers, pathParam, query } from './arbitraries.js';

const TOTAL = Number(process.env.FUZZ_RUNS ?? 400);
const RUNS = Math.max(1, Math.ceil(TOTAL / ROUTES.length));
const SEED = FUZZ_SEED; // fixed in npm test, fresh in npm run fuzz (arbitraries.ts)

let service: LocalService;
let balance: () => Promise<number>;
/** The account's own objects, so that path parameters sometimes name real ones. */
const own = { searchIds: [] as string[], jobIds: [] as string[], tokens: [] as string[], keyIds: [] as string[], domains: ['stripe.com'] };
let revokedKey = '';
/** Credits held by bulk jobs not yet finished (the workers are stopped, so only a cancel gives them back). */
let heldByJobs = 0;
const counts: Record<string, { inputs: number; statuses: Record<number, number> }> = {};

const call = async (method: string, path: string, init: { headers?: Record<string, string | undefined>; body?: string | Buffer } = {}) => {
  const sent = Object.fromEntries(Object.entries(init.headers ?? {}).filter(([, v]) => v !== undefined)) as Record<string, string>;
  const res = await fetch(`${service.url}${path}`, { method, headers: sent, ...(init.body !== undefined && method !== 'GET' ? { body: init.body } : {}) });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
};

beforeAll(async () => {
  raiseRateLimits();
  service = await startLocal({ port: 0, devCredits: 100_000, keyFile: null, scheduleEverySeconds: 3_600 });
  // No bulk job runs while fuzzing, so that the only balance changes are the ones a response announces.
  await service.workers.stop();
  const { ledger, apiKeys } = tableServices(service.table);
  balance = () => ledger.balance(service.accountId);
  const key = { 'x-api-key': service.apiKey, 'content-type': 'application/json' };
  for (const domain of ['stripe.com', 'adyen.com']) {
    const res = await call('POST', '/api/v1/search', { headers: key, body: JSON.stringify({ domain, limit: 5 }) });
    own.searchIds.push(res.headers.get('x-search-id')!);
  }
  own.tokens.push((await call('POST', `/api/searches/${own.searchIds[0]}/share`, { headers: key })).json.token);
  const job = await call('POST', '/api/bulk/upload?limit=3', { headers: { ...key, 'content-type': 'text/csv' }, body: 'domain\nstripe.com\nadyen.com\n' });
  own.jobIds.push(job.json.jobId);
  heldByJobs += job.json.creditsReserved;
  await call('POST', '/api/saved-companies', { headers: key, body: JSON.stringify({ domain: 'stripe.com' }) });
  // A spare key (its id may be revoked by the fuzz) and a revoked one; the account's own key is never in the pool.
  own.keyIds.push((await apiKeys.issue(service.accountId)).record.id);
  const revoked = await apiKeys.issue(service.accountId);
  await apiKeys.revoke(service.accountId, revoked.record.id);
  revokedKey = revoked.key;
}, 120_000);
afterAll(async () => {
  const total = Object.values(counts).reduce((n, c) => n + c.inputs, 0);
  console.log(`[reliability] API fuzz: ${total} inputs over ${Object.keys(counts).length} routes, seed ${SEED} (FUZZ_RUNS=${TOTAL})`);
  for (const [route, c] of Object.entries(counts)) console.log(`[reliability]   ${route}: ${c.inputs} inputs, statuses ${JSON.stringify(c.statuses)}`);
  await service?.stop();
});

const idsFor = (route: RouteSpec, name: string): string[] => {
  if (name === 'token') return own.tokens;
  if (name === 'domain') return own.domains;
  if (route.path.startsWith('/api/bulk')) return own.jobIds;
  if (route.path.startsWith('/api/auth')) return own.keyIds;
  return own.searchIds;
};

/** The route a request actually reaches (a fuzzed method may reach another route on the same path), by id. */
const compiled = ROUTES.map((r) => ({ id: r.id, method: r.method, pattern: new RegExp(`^${r.path.replace(/\{\w+\}/g, '[^/]+')}/?$`) }));
const reached = (method: string, path: string) => compiled.find((r) => r.method === method && r.pattern.test(path.split('?')[0]!))?.id;

const isDocumentedError = (status: number, json: any) => {
  const code = json?.error?.code as keyof typeof ERROR_STATUS | undefined;
  return typeof code === 'string' && ERROR_STATUS[code] === status && typeof json.error.message === 'string' && typeof json.error.requestId === 'string';
};

describe('API fuzz: every route of the route table', () => {
  it.each(ROUTES.map((r, i) => [`${r.method} ${r.path}`, r, i] as const))('%s: no 5xx, documented 4xx codes, no unannounced credit change', async (name, route, index) => {
    const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const isCsvRoute = route.id === 'BulkUpload';
    const input = fc.record({
      params: fc.tuple(...params.map((p) => pathParam(() => idsFor(route, p)))),
      query,
      headers: headers(service.apiKey, revokedKey, isCsvRoute ? 'text/csv' : 'application/json'),
      body: isCsvRoute ? fc.oneof({ weight: 1, arbitrary: body }, { weight: 3, arbitrary: csvFile }) : body,
      otherMethod: fc.oneof({ weight: 15, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH') }),
    });
    counts[name] = { inputs: 0, statuses: {} };
    await fc.assert(
      fc.asyncProperty(input, async (i) => {
        let path = route.path;
        params.forEach((p, n) => (path = path.replace(`{${p}}`, i.params[n] as string)));
        if (i.query) path += `?${i.query}`;
        const method = i.otherMethod ?? route.method;
        const before = await balance();
        const res = await call(method, path, { headers: i.headers, ...(i.body !== undefined ? { body: i.body } : {}) });
        const after = await balance();
        counts[name]!.inputs++;
        counts[name]!.statuses[res.status] = (counts[name]!.statuses[res.status] ?? 0) + 1;
        // No 5xx, and every error says what it is.
        expect(res.status, res.text.slice(0, 500)).toBeLessThan(500);
        if (res.status >= 400) expect(isDocumentedError(res.status, res.json), `${res.status} ${res.text.slice(0, 300)}`).toBe(true);
        // Credits move only as announced.
        const replayed = res.headers.get('idempotent-replayed') === 'true';
        const delta = after - before;
        const target = res.status < 300 ? reached(method, path) : undefined;
        if ((target === 'Search' || target === 'Lookalikes') && !replayed) expect(delta).toBe(-1);
        else if (target === 'BulkUpload' && !replayed) {
          expect(delta).toBe(-res.json.creditsReserved);
          heldByJobs += res.json.creditsReserved;
          own.jobIds.push(res.json.jobId);
        } else if (target === 'BulkCancelJob') {
          expect(delta).toBeGreaterThanOrEqual(0);
          expect(delta).toBeLessThanOrEqual(heldByJobs);
          heldByJobs -= delta;
        } else expect(delta, `${method} ${path} -> ${res.status}`).toBe(0);
        if (target === 'Search' || target === 'Lookalikes') own.searchIds.push(res.headers.get('x-search-id')!);
      }),
      { numRuns: RUNS, seed: SEED + index, endOnFailure: true },
    );
  }, 600_000);

  it('leaves a ledger that the audit balances', async () => {
    const audit = await tableServices(service.table).audit.audit(service.accountId);
    console.log(`[reliability] API fuzz audit: ${JSON.stringify(audit)}`);
    expect(audit.consistent).toBe(true);
  });
});
