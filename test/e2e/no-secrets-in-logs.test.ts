// No key, share token, webhook secret, webhook signature or presigned URL ever reaches the logs: everything the service
// writes while it issues and uses them (the authorizer, every handler, the bulk workers, the webhook sender) is captured
// (at DEBUG, with Powertools asked to log every event) and searched for them.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '@rivals/db';
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
  // No authorizer cache: every call runs the authorizer (its logs are captured too), and the revoked key is refused at
  // once rather than after the cache's minute.
  service = await startLocal({ port: 0, devCredits: 20, keyFile: null, authorizerCacheTtlSeconds: 0, log: (line) => void captured.push(line) });
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

const webhookAttempts = async (jobId: string) =>
  ((await service.table.client.send(new GetCommand({ TableName: service.table.tableName, Key: keys.bulkJob(service.accountId, jobId) }))).Item?.webhookAttempts ?? []).length as number;

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

    // Bulk: a presigned upload URL used to upload, and a job with a webhook, run by the workers to the end (the webhook
    // sender signs its event with the secret, whatever becomes of the delivery).
    const presigned = await call('/api/bulk/upload-url', { method: 'POST', body: { filename: 'domains.csv', limit: 3, sizeBytes: 18 } });
    expect(presigned.status).toBe(201);
    const signature = new URL(presigned.body.uploadUrl).searchParams.get('X-Amz-Signature');
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect((await fetch(presigned.body.uploadUrl, { method: 'PUT', body: 'domain\nstripe.com\n', headers: { 'content-type': 'text/csv' } })).status).toBe(200);
    const upload = await fetch(`${service.url}/api/bulk/upload?limit=3&webhookUrl=${encodeURIComponent('https://hooks.example.com/rivals')}`, {
      method: 'POST',
      headers: { 'x-api-key': created.body.key, 'content-type': 'text/csv' },
      body: 'domain\nadyen.com\nhubspot.com\n',
    });
    expect(upload.status).toBe(202);
    const { jobId } = (await upload.json()) as { jobId: string };
    for (let i = 0; i < 100 && (await call(`/api/bulk/jobs/${jobId}`)).body.status !== 'completed'; i++) await new Promise((r) => setTimeout(r, 200));
    expect((await call(`/api/bulk/jobs/${jobId}`)).body.status).toBe('completed');
    await service.workers.idle();
    // The webhook sender did sign and try to deliver the job's event (so its signing is in what was captured).
    for (let i = 0; i < 50 && !(await webhookAttempts(jobId)); i++) await new Promise((r) => setTimeout(r, 200));
    expect(await webhookAttempts(jobId)).toBeGreaterThan(0);
    expect((await call(`/api/bulk/jobs/${presigned.body.jobId}`)).body.status).not.toBe('awaiting_upload');
    await call(`/api/auth/api-keys/${created.body.id}`, { method: 'DELETE' });
    expect((await call('/api/v1/balance', { key: created.body.key })).status).toBe(401); // a revoked key, through the authorizer

    const logs = captured.join('');
    expect(logs.length).toBeGreaterThan(0); // the service did write logs: the search below is not vacuous
    expect(logs).not.toMatch(/v1=[0-9a-f]{64}/); // no webhook signature
    expect(logs).not.toMatch(/X-Amz-Signature=/i); // no presigned URL
    for (const value of [service.apiKey, created.body.key, share.body.token, secret.body.secret, guessed, signature!, presigned.body.uploadUrl]) {
      expect(typeof value).toBe('string');
      expect(logs.includes(value), `a secret of ${value.slice(0, 8)}... is in the logs`).toBe(false);
    }
  }, 90_000);
});
