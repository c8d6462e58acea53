// Webhooks of bulk jobs on DynamoDB Local, delivered over HTTP to a receiver on 127.0.0.1 (allowed only through the
// transport's test-only injection): a receiver that fails twice then succeeds, every attempt recorded, signatures that verify.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '@rivals/core';
import { createWebhookTransport } from '@rivals/crawler';
import { engineReturning } from '../fakes.js';
import { bulkOn, ManualClock } from '../setup/bulk.js';
import { freshTable } from '../setup/table.js';

const received: { headers: IncomingMessage['headers']; body: string }[] = [];
let failuresLeft = 2;
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    received.push({ headers: req.headers, body });
    res.writeHead(failuresLeft-- > 0 ? 500 : 204).end();
  });
});
let url: string;
beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

const loopbackTransport = () => createWebhookTransport({ unsafeForTests: { allow: () => true, allowHttp: true } });

describe('bulk job webhooks', () => {
  it('retries a receiver that fails twice, records every attempt, and signs each body', async () => {
    const clock = new ManualClock();
    const s = bulkOn(await freshTable(), engineReturning(2), { clock, transport: loopbackTransport() });
    const { id: accountId } = await s.accounts.open('Hooks', 5);
    // The URL check (https) belongs to the request contract; the service takes what the contract let through.
    await expect(s.bulk.upload(accountId, ['a.com'], { limit: 2, webhookUrl: url })).rejects.toMatchObject({ code: 'invalid_request' });
    const { secret } = await s.webhooks.rotateSecret(accountId);
    const { jobId } = await s.bulk.upload(accountId, ['a.com\nb.com'], { limit: 2, webhookUrl: url });
    for (const m of s.queue.take()) await s.worker.process(m);

    for (let attempt = 0; attempt < 3; attempt++) {
      const [message] = s.webhookQueue.take();
      expect(message).toBeDefined();
      clock.advance(60 * 60_000);
      await s.webhooks.deliver(message!);
    }
    expect(s.webhookQueue.messages).toEqual([]);
    expect(received).toHaveLength(3);

    const job = await s.bulk.get(accountId, jobId, { limit: 5 });
    expect(job.webhookAttempts.map((a) => a.status)).toEqual([500, 500, 204]);
    const last = received[2]!;
    const event = JSON.parse(last.body);
    expect(event).toMatchObject({ id: expect.stringMatching(/^evt_/), type: 'bulk_job.completed', data: { job: { jobId, status: 'completed', creditsCharged: 2 } } });
    expect(received.map((r) => JSON.parse(r.body).id)).toEqual([event.id, event.id, event.id]);
    const header = String(last.headers['rivals-signature']);
    expect(verifySignature(header, last.body, secret, { now: Math.floor(clock.at / 1000) })).toBe(true);
    expect(verifySignature(header, last.body.replace('completed', 'cancelled'), secret, { now: Math.floor(clock.at / 1000) })).toBe(false);
    expect(verifySignature(header, last.body, 'whsec_other', { now: Math.floor(clock.at / 1000) })).toBe(false);
  });

  it('gives up 24 hours after the first attempt', async () => {
    const clock = new ManualClock();
    const dead = { post: async () => ({ status: 503 }) };
    const s = bulkOn(await freshTable(), engineReturning(2), { clock, transport: dead });
    const { id: accountId } = await s.accounts.open('Hooks', 5);
    await s.webhooks.rotateSecret(accountId);
    const { jobId } = await s.bulk.upload(accountId, ['a.com'], { limit: 2, webhookUrl: 'https://hooks.example.com/x' });
    for (const m of s.queue.take()) await s.worker.process(m);
    let sends = 0;
    for (let m = s.webhookQueue.take()[0]; m; m = s.webhookQueue.take()[0]) {
      clock.advance(15 * 60_000);
      await s.webhooks.deliver(m);
      sends++;
    }
    const job = await s.bulk.get(accountId, jobId, { limit: 5 });
    expect(job.webhookAttempts.length).toBeGreaterThan(5);
    expect(Date.parse(job.webhookAttempts.at(-1)!.at) - Date.parse(job.webhookAttempts[0]!.at)).toBeLessThanOrEqual(24 * 60 * 60_000);
    expect(sends).toBeGreaterThanOrEqual(job.webhookAttempts.length);
  });

  it('refuses plain http and private addresses without the test injection', async () => {
    const transport = createWebhookTransport();
    await expect(transport.post(url, '{}', {})).rejects.toThrow(/https/);
    await expect(transport.post(url.replace('http:', 'https:'), '{}', {})).rejects.toThrow(/not a public address/);
  });
});
