// No key, share token or webhook secret ever reaches the logs: everything the service writes while it issues and uses
// them is captured (at DEBUG, with Powertools asked to log every event) and searched for them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocal, type LocalService } from '../../packages/local/src/runtime.js';
import { raiseRateLimits } from '../../packages/local/src/services.js';

const captured: string[] = [];
const writes = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
const consoles: [keyof Console, (...args: unknown[]) => void][] = [];
let service: LocalService;

beforeAll(async () => {
  process.env.LOG_LEVEL = 'DEBUG';
  process.env.POWERTOOLS_LOGGER_LOG_EVENT = 'true';
  raiseRateLimits();
  const capture = (write: typeof writes.out) => ((chunk: unknown, ...rest: unknown[]) => {
    captured.push(String(chunk));
    return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stdout.write;
  process.stdout.write = capture(writes.out);
  process.stderr.write = capture(writes.err);
  // Powertools in dev mode (as locally) writes through the global console, which the test runner keeps for itself.
  for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
    const original = console[method].bind(console);
    consoles.push([method, original]);
    console[method] = (...args: unknown[]) => {
      captured.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
      original(...args);
    };
  }
  service = await startLocal({ port: 0, devCredits: 20, keyFile: null, log: (line) => void captured.push(line) });
}, 120_000);
afterAll(async () => {
  process.stdout.write = writes.out;
  process.stderr.write = writes.err;
  for (const [method, original] of consoles) (console as unknown as Record<string, unknown>)[method] = original;
  await service?.stop();
});

const call = async (path: string, init: { method?: string; key?: string; body?: unknown } = {}) => {
  const res = await fetch(`${service.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'x-api-key': init.key ?? service.apiKey, ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  return { status: res.status, headers: res.headers, body: (await res.json().catch(() => null)) as any };
};

describe('logs', () => {
  it('never hold a key, a share token or a webhook secret', async () => {
    const created = await call('/api/auth/api-keys', { method: 'POST', body: { name: 'ci' } });
    expect(created.status).toBe(201);
    const search = await call('/api/v1/search', { method: 'POST', key: created.body.key, body: { domain: 'stripe.com', limit: 3 } });
    expect(search.status).toBe(200);
    const share = await call(`/api/searches/${search.headers.get('x-search-id')}/share`, { method: 'POST' });
    expect(share.status).toBe(201);
    const secret = await call('/api/webhook-secret', { method: 'POST' });
    expect(secret.status).toBe(201);
    const guessed = `sk-live-${'x'.repeat(40)}`;
    expect((await call('/api/v1/balance', { key: guessed })).status).toBe(401);
    await call(`/api/auth/api-keys/${created.body.id}`, { method: 'DELETE' });

    const logs = captured.join('');
    expect(logs.length).toBeGreaterThan(0); // the service did write logs: the search below is not vacuous
    for (const value of [service.apiKey, created.body.key, share.body.token, secret.body.secret, guessed]) {
      expect(typeof value).toBe('string');
      expect(logs.includes(value), `a secret of ${value.slice(0, 8)}... is in the logs`).toBe(false);
    }
  }, 60_000);
});
