// Reliability: credits under fault and load, on DynamoDB Local. Exactly M of N concurrent searches charged on M
// credits and never a negative balance; a failing or late engine refunded before the answer; throttling and
// transaction conflicts retried and charged once; every bulk message delivered twice and out of order charged once.
// The ledger audit (balance = grants - charges + refunds over the account's entries) runs after each fault. Figures
// are printed (docs/reliability.md keeps the last ones).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, SearchService, systemClock } from '@rivals/core';
import { startLocal, type LocalService } from '../../packages/local/src/runtime.js';
import { raiseRateLimits, tableServices } from '../../packages/local/src/services.js';
import { competitor, engineReturning, ScriptedEngine } from '../fakes.js';
import { bulkOn } from '../setup/bulk.js';
import { freshTable, servicesOn } from '../setup/table.js';
import { faultyTable, type Fault } from './faults.js';

const figure = (name: string, value: unknown) => console.log(`[reliability] ${name}: ${JSON.stringify(value)}`);

describe('N concurrent searches on M credits, over the local runtime\'s HTTP path', () => {
  const N = 40;
  const M = 7;
  let service: LocalService;
  beforeAll(async () => {
    raiseRateLimits();
    service = await startLocal({ port: 0, devCredits: M, keyFile: null, scheduleEverySeconds: 3600 });
  }, 120_000);
  afterAll(() => service?.stop());

  it(`charges exactly ${M} of ${N}, answers the rest 402, and the balance is never negative`, async () => {
    // Prepare: knowledge-base domains, so that every search that gets a credit succeeds.
    const domains = ['stripe.com', 'adyen.com', 'hubspot.com', 'salesforce.com', 'shopify.com'];
    const headers = { 'x-api-key': service.apiKey, 'content-type': 'application/json' };
    const balances: number[] = [];
    let burst = true;
    const watcher = (async () => {
      while (burst) {
        const res = await fetch(`${service.url}/api/v1/balance`, { headers });
        balances.push(((await res.json()) as { creditsRemaining: number }).creditsRemaining);
      }
    })();
    // Act
    const answers = await Promise.all(
      Array.from({ length: N }, async (_, i) => {
        const res = await fetch(`${service.url}/api/v1/search`, { method: 'POST', headers, body: JSON.stringify({ domain: domains[i % domains.length], limit: 5 }) });
        return { status: res.status, body: (await res.json()) as { creditsRemaining?: number; error?: { code: string; creditsRemaining?: number; refunded?: boolean } } };
      }),
    );
    burst = false;
    await watcher;
    // Assess
    const charged = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 402);
    // On a machine loaded far past its cores, DynamoDB Local can pass a call's time bound: that search fails before it
    // was charged, or is refunded before it answers, and says so. Anything else is a failure of this test.
    const overloaded = answers.filter((a) => a.status !== 200 && a.status !== 402);
    const statuses = JSON.stringify(answers.reduce<Record<number, number>>((n, a) => ({ ...n, [a.status]: (n[a.status] ?? 0) + 1 }), {}));
    expect(charged, statuses).toHaveLength(M);
    for (const a of overloaded) expect([a.status, a.body.error?.refunded], JSON.stringify(a.body)).toEqual([500, true]);
    expect(refused.length + overloaded.length).toBe(N - M);
    expect(overloaded.length, statuses).toBeLessThanOrEqual(N / 4);
    expect(refused.every((a) => a.body.error?.code === 'insufficient_credits' && a.body.error.creditsRemaining === 0)).toBe(true);
    expect(charged.every((a) => a.body.creditsRemaining! >= 0)).toBe(true);
    expect(balances.length).toBeGreaterThan(0);
    expect(Math.min(...balances)).toBeGreaterThanOrEqual(0);
    const audit = await tableServices(service.table).audit.audit(service.accountId);
    expect(audit).toMatchObject({ consistent: true, balance: 0, byReason: { search: -M } });
    figure('concurrent searches', { N, M, charged: charged.length, refused402: refused.length, failedUnderOverload: overloaded.length, lowestBalanceSeen: Math.min(...balances), balanceReads: balances.length, audit });
  }, 120_000);
});

describe('a failing engine is refunded before the answer', () => {
  it('engine throws: research_failed, refunded, the balance back when the call returns; audit consistent', async () => {
    // Prepare
    const table = await freshTable();
    const s = servicesOn(table, new ScriptedEngine(() => Promise.reject(new Error('engine exploded'))));
    const account = await s.accounts.open('Faults', 3);
    // Act
    const errors = await Promise.all(Array.from({ length: 3 }, () => s.search.search(account.id, { domain: 'example.com', limit: 5 }).catch((e: unknown) => e as ApiError)));
    const balanceAtAnswer = await s.ledger.balance(account.id);
    // Assess
    for (const error of errors) expect(error).toMatchObject({ code: 'research_failed', extra: { refunded: true } });
    expect(balanceAtAnswer).toBe(3);
    expect(await s.audit.audit(account.id)).toMatchObject({ consistent: true, balance: 3, byReason: { search: -3, refund: 3 } });
  });

  it('engine passes the deadline: research_timeout, refunded before the answer, a late result charges nothing', async () => {
    // Prepare: the engine answers 1.5 s after a 300 ms deadline.
    const table = await freshTable();
    let finishedLate = 0;
    const slow = new ScriptedEngine(async () => {
      await new Promise((r) => setTimeout(r, 1_500));
      finishedLate++;
      return { targetSource: 'knowledge-base', competitors: [competitor(1)] };
    });
    const s = servicesOn(table, slow, 300);
    const account = await s.accounts.open('Faults', 2);
    // Act
    const started = Date.now();
    const error = (await s.search.search(account.id, { domain: 'example.com', limit: 5 }).catch((e: unknown) => e)) as ApiError;
    const answeredMs = Date.now() - started;
    const balanceAtAnswer = await s.ledger.balance(account.id);
    await new Promise((r) => setTimeout(r, 1_600)); // the engine's late result arrives
    // Assess
    expect(error).toMatchObject({ code: 'research_timeout', extra: { refunded: true, creditsRemaining: 2 } });
    expect(answeredMs).toBeLessThan(1_500);
    expect(balanceAtAnswer).toBe(2);
    expect(finishedLate).toBe(1);
    expect(await s.ledger.balance(account.id)).toBe(2);
    expect(await s.audit.audit(account.id)).toMatchObject({ consistent: true, balance: 2, byReason: { search: -1, refund: 1 } });
  });
});

describe('throttling and transaction conflicts are retried, and charged once', () => {
  const cases: [Fault, number][] = [
    ['ProvisionedThroughputExceededException', 2],
    ['ThrottlingException', 2],
    ['TransactionConflict', 3],
  ];
  it.each(cases)('%s on the first %i transactions of a search: it succeeds, charged once', async (fault, times) => {
    // Prepare
    const table = await freshTable();
    const faulty = faultyTable(table, 'TransactWriteItems');
    const s = servicesOn(faulty.table, engineReturning(3));
    const account = await s.accounts.open('Faults', 2);
    // Act
    faulty.failNext(fault, times);
    const answer = await s.search.search(account.id, { domain: 'example.com', limit: 5 });
    // Assess
    expect(faulty.state.failed).toBe(times);
    expect(answer.result.creditsRemaining).toBe(1);
    expect(await s.ledger.balance(account.id)).toBe(1);
    expect(await s.audit.audit(account.id)).toMatchObject({ consistent: true, balance: 1, entries: 2, byReason: { search: -1 } });
    figure(`retried ${fault}`, { failedOnPurpose: times, transactionCalls: faulty.state.calls, charged: 1 });
  }, 30_000);

  it('a conflict on the refund of a failed search is retried: refunded once, before the answer', async () => {
    // Prepare: the reservation goes through; the refund's first 3 attempts meet a conflict.
    const table = await freshTable();
    const faulty = faultyTable(table, 'TransactWriteItems');
    let failRefund = () => undefined as void;
    const s = servicesOn(faulty.table, new ScriptedEngine(() => (failRefund(), Promise.reject(new Error('boom')))));
    failRefund = () => faulty.failNext('TransactionConflict', 3);
    const account = await s.accounts.open('Faults', 1);
    // Act
    const error = await s.search.search(account.id, { domain: 'example.com', limit: 5 }).catch((e: unknown) => e);
    // Assess
    expect(faulty.state.failed).toBe(3);
    expect(error).toMatchObject({ code: 'research_failed', extra: { refunded: true, creditsRemaining: 1 } });
    expect(await s.audit.audit(account.id)).toMatchObject({ consistent: true, balance: 1, byReason: { search: -1, refund: 1 } });
  }, 30_000);

  it('a bulk job\'s reservation and outcomes under conflicts: charged once per domain', async () => {
    // Prepare
    const table = await freshTable();
    const faulty = faultyTable(table, 'TransactWriteItems');
    const s = bulkOn(faulty.table, engineReturning(2));
    const { id: accountId } = await s.accounts.open('Faults', 5);
    // Act
    faulty.failNext('TransactionConflict', 2);
    const { jobId } = await s.bulk.upload(accountId, ['a.com\nb.com\nc.com'], { limit: 5 });
    faulty.failNext('TransactionConflict', 4);
    for (const m of s.queue.take()) await s.worker.process(m);
    // Assess
    expect(await s.bulk.get(accountId, jobId, { limit: 5 })).toMatchObject({ status: 'completed', creditsCharged: 3, creditsRefunded: 0 });
    expect(await s.audit.audit(accountId)).toMatchObject({ consistent: true, balance: 2 });
  }, 30_000);
});

describe('SQS redelivery', () => {
  it('every bulk message delivered twice, out of order and concurrently: each domain charged once', async () => {
    // Prepare: 30 domains, every fifth one finds nothing (refunded), every seventh fails (refunded).
    const table = await freshTable();
    const engine = new ScriptedEngine((domain) => {
      const n = Number(/\d+/.exec(domain)?.[0]);
      if (n % 7 === 0) throw new Error('unreachable');
      return { targetSource: 'knowledge-base', competitors: n % 5 === 0 ? [] : [competitor(1)] };
    });
    const s = bulkOn(table, engine);
    const { id: accountId } = await s.accounts.open('Redelivery', 40);
    const domains = Array.from({ length: 30 }, (_, i) => `company${i + 1}.com`);
    const { jobId } = await s.bulk.upload(accountId, [domains.join('\n')], { limit: 5 });
    const messages = s.queue.take();
    // Act: each message twice, the second copies in reverse order, the two waves interleaved.
    const copies = [...messages, ...[...messages].reverse()].sort(() => Math.random() - 0.5);
    const outcomes = await Promise.all(copies.map((m) => s.worker.process(m)));
    // Assess
    const failed = domains.filter((_, i) => (i + 1) % 7 === 0 || (i + 1) % 5 === 0).length;
    const job = await s.bulk.get(accountId, jobId, { limit: 50 });
    expect(job).toMatchObject({ status: 'completed', totalDomains: 30, completedDomains: 30 - failed, failedDomains: failed, creditsCharged: 30 - failed, creditsRefunded: failed });
    expect(engine.calls).toBe(30);
    expect(await s.ledger.balance(accountId)).toBe(40 - (30 - failed));
    expect(await s.audit.audit(accountId)).toMatchObject({ consistent: true, balance: 40 - (30 - failed) });
    figure('bulk redelivery', { messages: messages.length, deliveries: copies.length, researched: engine.calls, charged: job.creditsCharged, refunded: job.creditsRefunded, skipped: outcomes.filter((o) => o === 'skipped').length });
  }, 60_000);
});
