// End to end: @rivals/sdk against the local runtime over HTTP, plus fake servers on 127.0.0.1 for what the runtime
// cannot be made to do on demand (a 429 then a 200, a lost response, no answer at all).
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../infra/routes.js';
import { startLocal, type LocalService } from '../../packages/local/src/runtime.js';
import { AuthenticationError, InvalidDomainError, InvalidRequestError, NotFoundError, RateLimitError, Rivals, RivalsConnectionError, RivalsTimeoutError, ServerError } from '../../packages/sdk-node/src/index.js';

let service: LocalService;
const DEV_KEY = `sk-live-${'sdk'.repeat(11)}`;
const LIMIT_ENV = ['RATE_LIMIT_KEY_PER_SECOND', 'RATE_LIMIT_KEY_BURST'] as const;
beforeAll(async () => {
  service = await startLocal({ port: 0, devCredits: 20, devApiKey: DEV_KEY, keyFile: null });
}, 120_000);
afterAll(() => service?.stop());
afterEach(() => {
  for (const name of LIMIT_ENV) delete process.env[name];
});

const rivals = (options: ConstructorParameters<typeof Rivals>[0] = {}) => new Rivals({ baseUrl: service.url, apiKey: DEV_KEY, retryBaseDelayMs: 50, ...options });

/** A server on 127.0.0.1 that answers with `handle`; closed after the test. */
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((s) => {
      s.closeAllConnections();
      return new Promise((resolve) => s.close(resolve));
    }),
  );
});
const fakeServer = async (handle: (req: IncomingMessage, res: ServerResponse, body: string) => void) => {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => handle(req, res, body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

describe('@rivals/sdk against the local runtime', () => {
  it('searches a domain: the result, the stored search id, and exactly one credit', async () => {
    const client = rivals();
    const before = (await client.balance()).creditsRemaining;
    const result = await client.search({ domain: 'https://www.stripe.com', limit: 5 });
    expect(result.domain).toBe('stripe.com');
    expect(result.competitors).toHaveLength(result.totalCompetitors);
    expect(result.totalCompetitors).toBeGreaterThan(0);
    expect(result.totalCompetitors).toBeLessThanOrEqual(5);
    expect(result.searchId).toMatch(/^srch_/);
    expect(result.requestId).toBeTruthy();
    expect(result.creditsRemaining).toBe(before - 1);
    const stored = await client.searches.get(result.searchId!);
    expect(stored).toMatchObject({ id: result.searchId, domain: 'stripe.com', status: 'succeeded' });
    expect(stored.competitors.map((c) => c.domain)).toEqual(result.competitors.map((c) => c.domain));
  });

  it('iterates a paged list across pages with an async iterator', async () => {
    const client = rivals();
    const created = [];
    for (const name of ['a', 'b', 'c']) created.push(await client.keys.create({ name: `sdk-${name}` }));
    const firstPage = await client.keys.list({ limit: 1 });
    expect(firstPage.items).toHaveLength(1);
    expect(firstPage.nextCursor).toEqual(expect.any(String));
    const ids: string[] = [];
    for await (const key of client.keys.iterate({ limit: 1 })) ids.push(key.id);
    expect(ids).toEqual(expect.arrayContaining(created.map((k) => k.id)));
    expect(new Set(ids).size).toBe(ids.length);
    for (const key of created) await client.keys.revoke(key.id);
  });

  it('throws typed errors carrying the code, the status and the request id', async () => {
    const invalid = await rivals().search('not a domain').catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(InvalidDomainError);
    expect(invalid).toBeInstanceOf(InvalidRequestError);
    expect(invalid).toMatchObject({ code: 'invalid_domain', status: 400, requestId: expect.any(String) });
    const unknownKey = await rivals({ apiKey: `sk-live-${'Z'.repeat(40)}` }).balance().catch((e: unknown) => e);
    expect(unknownKey).toBeInstanceOf(AuthenticationError);
    expect(unknownKey).toMatchObject({ code: 'invalid_api_key', status: 401 });
    const missing = await rivals().searches.get('srch_00000000000000000000000000').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ code: 'not_found', status: 404 });
  });

  it('retries the runtime\'s 429s after Retry-After until every call gets through', async () => {
    Object.assign(process.env, { RATE_LIMIT_KEY_PER_SECOND: '1', RATE_LIMIT_KEY_BURST: '2' });
    const client = rivals({ maxRetries: 6 });
    const results = await Promise.all(Array.from({ length: 4 }, () => client.balance()));
    expect(results.every((r) => typeof r.creditsRemaining === 'number')).toBe(true);
    // Without retries the same burst is refused with a typed 429.
    const refused = await Promise.allSettled(Array.from({ length: 4 }, () => rivals({ maxRetries: 0 }).balance()));
    const reasons = refused.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    expect(reasons.length).toBeGreaterThan(0);
    expect(reasons[0]).toBeInstanceOf(RateLimitError);
    expect(reasons[0]).toMatchObject({ code: 'rate_limited', status: 429 });
    // A second at one token a second; two when concurrent calls read the clock a moment apart (test/e2e/api-keys.test.ts).
    expect([1, 2]).toContain((reasons[0] as RateLimitError).retryAfterSeconds);
  }, 30_000);

  it('never charges twice when a search\'s answer is lost and the SDK retries with the same Idempotency-Key', async () => {
    // A proxy that forwards every request to the runtime, but cuts the connection instead of answering the first search.
    const target = new URL(service.url);
    const keys: string[] = [];
    let dropped = 0;
    const proxy = await fakeServer((req, res, body) => {
      const upstream = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        let text = '';
        answer.on('data', (chunk) => (text += chunk));
        answer.on('end', () => {
          if (req.url === '/api/v1/search') {
            keys.push(String(req.headers['idempotency-key']));
            // Only a search that ran is lost: a 429 left by the rate-limit test above is an answer the SDK retries anyway.
            if (answer.statusCode === 200 && dropped++ === 0) return res.socket?.destroy();
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers).end(text);
        });
      });
      upstream.end(body);
    });
    const client = rivals({ baseUrl: proxy });
    const before = (await client.balance()).creditsRemaining;
    const result = await client.search({ domain: 'hubspot.com', limit: 3 });
    expect(dropped).toBe(2);
    expect(keys.length).toBeGreaterThanOrEqual(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys)).toEqual(new Set([keys[0]]));
    expect(result.replayed).toBe(true);
    expect(result.creditsRemaining).toBe(before - 1);
    expect((await client.balance()).creditsRemaining).toBe(before - 1);
  });
});

describe('@rivals/sdk transport', () => {
  it('waits the Retry-After of a 429, then returns the 200', async () => {
    const seen: number[] = [];
    const url = await fakeServer((_req, res) => {
      seen.push(Date.now());
      if (seen.length === 1) return res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json', 'x-request-id': 'r1' }).end(JSON.stringify({ error: { code: 'rate_limited', message: 'slow down', requestId: 'r1', retryAfterSeconds: 1 } }));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"creditsRemaining":7}');
    });
    expect(await rivals({ baseUrl: url }).balance()).toEqual({ creditsRemaining: 7 });
    expect(seen).toHaveLength(2);
    expect(seen[1]! - seen[0]!).toBeGreaterThanOrEqual(950);
  });

  it('retries 5xx on reads with backoff, and gives up with a ServerError after maxRetries', async () => {
    let calls = 0;
    const url = await fakeServer((_req, res) => {
      calls++;
      res.writeHead(500, { 'content-type': 'application/json', 'x-request-id': `r${calls}` }).end(JSON.stringify({ error: { code: 'internal_error', message: 'boom', requestId: `r${calls}` } }));
    });
    const error = await rivals({ baseUrl: url, maxRetries: 2 }).balance().catch((e: unknown) => e);
    expect(calls).toBe(3);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ code: 'internal_error', status: 500, requestId: 'r3' });
  });

  it('does not repeat a POST without an Idempotency-Key after a 5xx', async () => {
    let calls = 0;
    const url = await fakeServer((_req, res) => {
      calls++;
      res.writeHead(502).end();
    });
    await expect(rivals({ baseUrl: url }).keys.create({ name: 'x' })).rejects.toMatchObject({ code: 'research_failed', status: 502 });
    expect(calls).toBe(1);
  });

  it('times out a call with RivalsTimeoutError, and a caller\'s abort stays an AbortError', async () => {
    const url = await fakeServer(() => {
      // never answers
    });
    const timedOut = await rivals({ baseUrl: url, maxRetries: 0 }).balance({ timeoutMs: 200 }).catch((e: unknown) => e);
    expect(timedOut).toBeInstanceOf(RivalsTimeoutError);
    expect(timedOut).toMatchObject({ code: 'timeout', status: null });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const aborted = await rivals({ baseUrl: url }).balance({ signal: controller.signal }).catch((e: unknown) => e);
    expect((aborted as Error).name).toBe('AbortError');
  });

  it('reports an unreachable API as a connection error', async () => {
    const error = await rivals({ baseUrl: 'http://127.0.0.1:9', maxRetries: 1 }).balance().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RivalsConnectionError);
    expect(error).toMatchObject({ code: 'connection_error' });
  });
});

// The account-data and bulk routes: run once the runtime serves them (the route table says so).
const served = (method: string, path: string) => ROUTES.some((route) => route.method === method && route.path === path);

describe.runIf(served('GET', '/api/history'))('@rivals/sdk account data', () => {
  it('pages through the history, newest first, with the SDK\'s iterator', async () => {
    const client = rivals();
    for (const domain of ['asana.com', 'trello.com']) await client.search({ domain, limit: 2 });
    const first = await client.history.list({ limit: 1 });
    expect(first.items[0]?.domain).toBe('trello.com');
    expect(first.nextCursor).toEqual(expect.any(String));
    const domains: string[] = [];
    for await (const item of client.history.iterate({ limit: 1 })) domains.push(item.domain);
    expect(domains.slice(0, 2)).toEqual(['trello.com', 'asana.com']);
    const bad = await client.history.list({ cursor: 'not-a-cursor' }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(InvalidRequestError);
    expect(bad).toMatchObject({ code: 'invalid_request', status: 400 });
  });

  it('saves, lists and removes a company; shares a search and reads it without a key', async () => {
    const client = rivals();
    const { searchId } = await client.search({ domain: 'figma.com', limit: 2 });
    const saved = await client.saved.add({ domain: 'canva.com', note: 'watch', searchId: searchId! });
    expect(saved).toMatchObject({ domain: 'canva.com', note: 'watch', searchId });
    expect((await client.saved.add({ domain: 'canva.com' })).domain).toBe('canva.com');
    const all = [];
    for await (const row of client.saved.iterate()) all.push(row.domain);
    expect(all).toContain('canva.com');
    await client.saved.remove('canva.com');
    await client.saved.remove('canva.com');
    expect((await client.saved.list()).items.map((r) => r.domain)).not.toContain('canva.com');

    const share = await client.searches.share(searchId!);
    expect((await client.searches.share(searchId!)).token).toBe(share.token);
    const shared = await rivals({ apiKey: undefined }).searches.shared(share.token);
    expect(shared.domain).toBe('figma.com');
    await client.searches.unshare(searchId!);
    await expect(client.searches.shared(share.token)).rejects.toBeInstanceOf(NotFoundError);

    const companies = await client.myCompanies.list();
    expect(companies.total).toBeGreaterThan(0);
    expect(companies.items[0]).toMatchObject({ domain: expect.any(String), timesFound: expect.any(Number) });
    expect((await client.myCompanies.csv()).split('\n')[0]).toContain('company');
  });
});

describe.runIf(served('POST', '/api/bulk/upload'))('@rivals/sdk bulk', () => {
  it('uploads a CSV, waits with progress and downloads the results; presigned when large', async () => {
    const client = rivals();
    const before = (await client.balance()).creditsRemaining;
    const progress: string[] = [];
    const direct = await client.bulk.run(Buffer.from('domain\nstripe.com\nnot a domain\nshopify.com\n'), { limit: 2, types: ['Direct', 'Indirect'], pollIntervalMs: 300, onProgress: (p) => progress.push(p.status) });
    expect(direct.job).toMatchObject({ status: 'completed', totalDomains: 2, filters: { types: ['Direct', 'Indirect'] } });
    expect(progress.at(-1)).toBe('completed');
    expect(direct.csv?.split('\n')[0]).toMatch(/^sourceDomain,rank,company,product,domain/);
    expect((await client.balance()).creditsRemaining).toBe(before - direct.job.creditsCharged);
    const rows = [];
    for await (const row of client.bulk.results(direct.jobId, { limit: 1 })) rows.push(row.domain);
    expect(rows.sort()).toEqual(['shopify.com', 'stripe.com']);

    const presigned = await client.bulk.run(Buffer.from('domain\nnotion.so\n'), { limit: 2, minMatchScore: 1, pollIntervalMs: 300, directMaxBytes: 1 });
    expect(presigned.job).toMatchObject({ status: 'completed', filters: { minMatchScore: 1 } });
    expect(presigned.csv).toContain('notion.so');
    const jobs = [];
    for await (const job of client.bulk.iterate({ limit: 1 })) jobs.push(job.jobId);
    expect(jobs).toEqual(expect.arrayContaining([direct.jobId, presigned.jobId]));
  }, 120_000);
});
