// Unit: the SDK's webhook verification, Retry-After parsing, backoff bounds and error classes.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { InvalidDomainError, NoCompetitorsFoundError, Rivals, parseRetryAfter, signWebhook, verifyWebhook, WebhookSignatureError, RateLimitError, ServerError, errorClassFor, InvalidRequestError } from '../../../packages/sdk-node/src/index.js';

const SECRET = 'whsec_test';
const body = JSON.stringify({ id: 'evt_1', type: 'bulk_job.completed', createdAt: '2026-01-01T00:00:00Z', data: { job: { jobId: 'job_1' } } });

describe('verifyWebhook', () => {
  it('accepts the API\'s signature over the raw body and returns the event', () => {
    const t = 1_800_000_000;
    const header = `t=${t},v1=${createHmac('sha256', SECRET).update(`${t}.${body}`).digest('hex')}`;
    expect(verifyWebhook(body, header, SECRET, { now: t + 10 })).toMatchObject({ id: 'evt_1', data: { job: { jobId: 'job_1' } } });
    expect(signWebhook(body, SECRET, t)).toBe(header);
  });

  it.each([
    ['no header', () => undefined],
    ['a malformed header', () => 'v1=abc'],
    ['another secret', (t: number) => signWebhook(body, 'whsec_other', t)],
    ['a changed body', (t: number) => signWebhook(`${body} `, SECRET, t)],
    ['an old timestamp', (t: number) => signWebhook(body, SECRET, t - 301)],
  ])('refuses %s', (_, header) => {
    const t = 1_800_000_000;
    expect(() => verifyWebhook(body, header(t), SECRET, { now: t })).toThrow(WebhookSignatureError);
  });

  it('accepts any of several v1 signatures (a rotated secret)', () => {
    const t = 1_800_000_000;
    const header = `${signWebhook(body, 'whsec_old', t)},v1=${signWebhook(body, SECRET, t).split('v1=')[1]}`;
    expect(() => verifyWebhook(body, header, SECRET, { now: t })).not.toThrow();
  });
});

describe('retries', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('3')).toBe(3);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
  });

  it('backs off exponentially with full jitter under the cap, and waits at least Retry-After', () => {
    const { transport } = new Rivals({ apiKey: 'k', retryBaseDelayMs: 100, maxRetryDelayMs: 1_000 });
    for (let i = 0; i < 50; i++) {
      expect(transport.delayMs(1, null)).toBeLessThanOrEqual(100);
      expect(transport.delayMs(3, null)).toBeLessThanOrEqual(400);
      expect(transport.delayMs(10, null)).toBeLessThanOrEqual(1_000);
      expect(transport.delayMs(1, 0.5)).toBeGreaterThanOrEqual(500);
    }
  });

  it('maps statuses to error classes', () => {
    expect(errorClassFor(429)).toBe(RateLimitError);
    expect(errorClassFor(503)).toBe(ServerError);
    expect(errorClassFor(415)).toBe(InvalidRequestError);
    expect(errorClassFor(400, 'invalid_domain')).toBe(InvalidDomainError);
    expect(errorClassFor(422, 'no_competitors_found')).toBe(NoCompetitorsFoundError);
  });
});

describe('coverage of the OpenAPI document', () => {
  it('has an SDK method for every operation the document lists', async () => {
    const calls: string[] = [];
    const recording = (async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(String(input));
      calls.push(`${init?.method ?? 'GET'} ${url.pathname}`);
      const json = url.pathname.startsWith('/api/bulk/jobs/') && !url.pathname.endsWith('/download') ? { status: 'completed', results: [], nextCursor: null } : { items: [], nextCursor: null, jobId: 'job_1', uploadUrl: 'http://127.0.0.1:1/put' };
      return new Response(JSON.stringify(json), { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    const client = new Rivals({ apiKey: 'k', baseUrl: 'http://127.0.0.1:1', fetch: recording });
    const drain = async (items: AsyncIterable<unknown>) => {
      for await (const _ of items);
    };
    await Promise.all([
      client.health(), client.openapi(), client.search('a.com'), client.lookalikes(['a.com', 'b.com']), client.balance(),
      client.searches.get('s'), client.searches.share('s'), client.searches.unshare('s'), client.searches.shared('t'),
      client.history.list(), client.myCompanies.list(), client.saved.list(), client.saved.add({ domain: 'a.com' }), client.saved.update('a.com', { note: 'n' }), client.saved.remove('a.com'),
      client.keys.list(), client.keys.create(), client.keys.revoke('k'), client.webhookSecret.rotate(),
      client.changes.list({ domain: 'a.com', since: new Date(0) }), client.webhookEndpoint.set('https://hooks.example.com/x'), client.webhookEndpoint.get(), client.webhookEndpoint.remove(),
      client.bulk.upload('a.com'), client.bulk.createUploadUrl({ sizeBytes: 10 }), client.bulk.get('j'), client.bulk.list(), client.bulk.download('j'), client.bulk.cancel('j'),
      drain(client.bulk.results('j')),
    ]);
    // DELETE /api/auth/api-keys with a body does what DELETE /api/auth/api-keys/{id} does: the SDK uses the path form.
    calls.push('DELETE /api/auth/api-keys');
    const { openApiDocument } = await import('../../../packages/contracts/src/openapi.js');
    const paths = (openApiDocument('test') as { paths: Record<string, Record<string, unknown>> }).paths;
    const operations = Object.entries(paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => [method.toUpperCase(), path] as const));
    expect(operations.length).toBeGreaterThan(5);
    for (const [method, path] of operations) {
      const pattern = new RegExp(`^${method} ${path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      expect(calls.some((call) => pattern.test(call)), `${method} ${path}`).toBe(true);
    }
  });
});

describe('CLI output', () => {
  it('colours only a terminal, and never with NO_COLOR', async () => {
    const { styleFor, table, csv } = await import('../../../packages/cli/src/format.js');
    expect(styleFor({ isTTY: true }, {}).red('x')).toBe('\u001b[31mx\u001b[39m');
    expect(styleFor({ isTTY: false }, {}).red('x')).toBe('x');
    expect(styleFor({ isTTY: true }, { NO_COLOR: '1' }).red('x')).toBe('x');
    expect(table(['a', 'n'], [['xy', 5], ['z', 10]])).toBe('a    n\nxy   5\nz   10');
    expect(csv(['a', 'b'], [['x,y', 'say "hi"']])).toBe('a,b\n"x,y","say ""hi"""');
  });
});
