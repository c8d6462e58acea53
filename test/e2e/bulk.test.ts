// End to end: bulk jobs through the local runtime. Uploads over HTTP (body, multipart, presigned PUT to s3rver), the
// local SQS poller runs the same worker handler, the job completes and downloads as CSV.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocal, type LocalService } from '../../packages/local/src/runtime.js';
import { raiseRateLimits } from '../../packages/local/src/services.js';

let service: LocalService;
beforeAll(async () => {
  // Many calls in a row from one key: the per-key limits are tested in test/integration/rate-limits.test.ts.
  raiseRateLimits();
  service = await startLocal({ port: 0, devCredits: 100, devApiKey: `sk-live-${'bulk'.repeat(9)}`, keyFile: null });
}, 120_000);
afterAll(() => service?.stop());

const call = async (path: string, init: RequestInit & { key?: string | null } = {}) => {
  const headers = new Headers(init.headers);
  if (init.key !== null) headers.set('x-api-key', init.key ?? service.apiKey);
  const res = await fetch(`${service.url}${path}`, { ...init, headers });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // CSV
  }
  return { status: res.status, headers: res.headers, body };
};
const balance = async () => (await call('/api/v1/balance')).body.creditsRemaining as number;

async function settled(jobId: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { body } = await call(`/api/bulk/jobs/${jobId}`);
    if (['completed', 'failed', 'cancelled'].includes(body.status) && body.finishedAt) return body;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${body.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('bulk research over HTTP on the local runtime', () => {
  it('runs a text/csv upload to completion: good domains charged, invalid rows rejected, CSV download', async () => {
    const before = await balance();
    const csv = '\uFEFFname;website\r\nStripe;https://www.stripe.com\r\nBad;not a domain\r\n"Adyen";adyen.com\r\n=evil;stripe.com\r\n';
    const res = await call('/api/bulk/upload?limit=3', { method: 'POST', body: csv, headers: { 'content-type': 'text/csv' } });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'queued', totalDomains: 2, creditsReserved: 2, creditsRemaining: before - 2 });
    expect(res.body.rejectedRows).toEqual([{ row: 3, value: 'not a domain', reason: 'not a public company domain' }]);

    const job = await settled(res.body.jobId);
    expect(job).toMatchObject({ status: 'completed', completedDomains: 2, failedDomains: 0, creditsCharged: 2, creditsRefunded: 0 });
    expect(await balance()).toBe(before - 2);
    const search = await call(`/api/searches/${job.results[0].searchId}`);
    expect(search.body).toMatchObject({ domain: 'stripe.com', source: 'bulk', jobId: res.body.jobId, status: 'succeeded' });

    const download = await call(`/api/bulk/jobs/${res.body.jobId}/download`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (download.body as string).trim().split('\r\n');
    expect(lines[0]).toBe('sourceDomain,rank,company,product,domain,matchScore,type,confidence,likelyCompetitor,error,reason,founded,size,hq,ownership,exchange,ticker');
    expect(lines).toHaveLength(1 + 6);
    expect(lines[1]).toMatch(/^stripe\.com,1,/);
  });

  it('accepts the CSV as the multipart field "file"', async () => {
    const form = new FormData();
    form.append('file', new Blob(['domain\npaypal.com\n'], { type: 'text/csv' }), 'domains.csv');
    const res = await call('/api/bulk/upload?limit=2', { method: 'POST', body: form });
    expect(res.status).toBe(202);
    // The form's own file name is kept with the job, so that the job list can tell jobs apart.
    expect(await settled(res.body.jobId)).toMatchObject({ status: 'completed', filename: 'domains.csv' });
  });

  it('keeps the name given in ?filename= with a text/csv upload', async () => {
    const res = await call('/api/bulk/upload?limit=1&filename=q3-accounts.csv', { method: 'POST', body: 'domain\nstripe.com\n', headers: { 'content-type': 'text/csv' } });
    expect(res.status).toBe(202);
    const listed = await call('/api/bulk/jobs?limit=5');
    expect(listed.body.items.find((j: { jobId: string }) => j.jobId === res.body.jobId)).toMatchObject({ filename: 'q3-accounts.csv' });
  });

  it('starts a presigned job when the PUT lands in s3rver', async () => {
    const before = await balance();
    const file = 'shopify.com\nsquareup.com\n';
    const created = await call('/api/bulk/upload-url', { method: 'POST', body: JSON.stringify({ filename: 'big.csv', limit: 2, sizeBytes: file.length }), headers: { 'content-type': 'application/json' } });
    expect(created.status).toBe(201);
    expect((await call(`/api/bulk/jobs/${created.body.jobId}`)).body.status).toBe('awaiting_upload');
    // The URL takes exactly the size asked for: a larger or smaller body is refused, and nothing lands.
    for (const other of [`${file}x`, file.slice(1)])
      expect((await fetch(created.body.uploadUrl, { method: 'PUT', body: other, headers: { 'content-type': 'text/csv' } })).status).toBe(403);
    expect((await call(`/api/bulk/jobs/${created.body.jobId}`)).body.status).toBe('awaiting_upload');
    const put = await fetch(created.body.uploadUrl, { method: 'PUT', body: file, headers: { 'content-type': 'text/csv' } });
    expect(put.status).toBe(200);
    const job = await settled(created.body.jobId);
    expect(job).toMatchObject({ status: 'completed', totalDomains: 2, creditsCharged: 2, filename: 'big.csv' });
    expect(await balance()).toBe(before - 2);
  });

  it('asks the size of a presigned upload, and refuses one over 50 MB before any URL is made', async () => {
    const missing = await call('/api/bulk/upload-url', { method: 'POST', body: JSON.stringify({ limit: 2 }), headers: { 'content-type': 'application/json' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details).toEqual([expect.objectContaining({ field: 'sizeBytes' })]);
    const huge = await call('/api/bulk/upload-url', { method: 'POST', body: JSON.stringify({ limit: 2, sizeBytes: 60 * 1024 * 1024 }), headers: { 'content-type': 'application/json' } });
    expect(huge.status).toBe(400);
    expect(huge.body.error.details).toEqual([expect.objectContaining({ field: 'sizeBytes' })]);
  });

  it.each([
    ['an empty file', '', 'text/csv', 400, 'invalid_request'],
    ['no valid domain', 'name\nfoo\n', 'text/csv', 400, 'invalid_request'],
    ['JSON', '{"domain":"stripe.com"}', 'application/json', 415, 'unsupported_media_type'],
  ])('answers %s with %i %s and charges nothing', async (_, body, type, status, code) => {
    const before = await balance();
    const res = await call('/api/bulk/upload', { method: 'POST', body, headers: { 'content-type': type } });
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
    expect(await balance()).toBe(before);
  });

  it('lists the caller\'s jobs and hides unknown ones', async () => {
    const list = await call('/api/bulk/jobs?limit=2');
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(2);
    expect(list.body.nextCursor).toEqual(expect.any(String));
    const next = await call(`/api/bulk/jobs?limit=2&cursor=${list.body.nextCursor}`);
    expect(next.body.items[0].jobId).not.toBe(list.body.items[0].jobId);
    expect((await call('/api/bulk/jobs?cursor=nonsense')).status).toBe(400);
    expect((await call(`/api/bulk/jobs/job_${'0'.repeat(26)}`)).status).toBe(404);
    expect((await call(`/api/bulk/jobs/job_${'0'.repeat(26)}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('creates a webhook secret shown once', async () => {
    const res = await call('/api/webhook-secret', { method: 'POST' });
    expect(res.status).toBe(201);
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  });

  it.each(['https://127.0.0.1/', 'https://169.254.169.254/latest/meta-data/', 'https://[::1]/', 'https://10.0.0.7/hook', 'https://localhost/hook', 'https://metadata.google.internal/'])(
    'refuses the webhook URL %s when a job is created (400 naming webhookUrl), charging nothing',
    async (webhookUrl) => {
      await call('/api/webhook-secret', { method: 'POST' });
      const before = await balance();
      const direct = await call(`/api/bulk/upload?limit=1&webhookUrl=${encodeURIComponent(webhookUrl)}`, { method: 'POST', body: 'stripe.com\n', headers: { 'content-type': 'text/csv' } });
      expect(direct.status).toBe(400);
      expect(direct.body.error).toMatchObject({ code: 'invalid_request', details: [{ field: 'webhookUrl', problem: expect.any(String) }] });
      const presigned = await call('/api/bulk/upload-url', { method: 'POST', body: JSON.stringify({ limit: 1, sizeBytes: 11, webhookUrl }), headers: { 'content-type': 'application/json' } });
      expect(presigned.status).toBe(400);
      expect(presigned.body.error.details).toEqual([expect.objectContaining({ field: 'webhookUrl' })]);
      expect(await balance()).toBe(before);
    },
  );
});
