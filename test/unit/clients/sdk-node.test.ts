// Unit: the SDK's webhook verification, Retry-After parsing, backoff bounds and error classes.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Rivals, parseRetryAfter, signWebhook, verifyWebhook, WebhookSignatureError, RateLimitError, ServerError, errorClassFor, InvalidRequestError } from '../../../packages/sdk-node/src/index.js';

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
  });
});
