// The re-drive of lost work on DynamoDB Local (packages/core/src/bulk/redrive.ts): a bulk domain, a completion webhook
// or an aggregation whose message was lost is sent again once it shows no sign of life for the window, with backoff, a
// bounded number of times, and only then given up (a domain refunded once); dead letters are drained and their work
// re-driven from the table; a restart resumes every unfinished piece at once.
import { Redriver, type DeadLetter, type DeadLetterQueue } from '@rivals/core';
import { DynamoPendingAggregations } from '@rivals/db';
import { describe, expect, it } from 'vitest';
import { competitor, ScriptedEngine } from '../fakes.js';
import { bulkOn, ManualClock, MemoryQueue } from '../setup/bulk.js';
import { freshTable } from '../setup/table.js';

const MINUTE = 60_000;
const engine = () =>
  new ScriptedEngine((domain) => {
    if (domain.startsWith('broken')) throw new Error('unreachable');
    return { targetSource: 'knowledge-base', competitors: [competitor(1), competitor(2)] };
  });

async function setup(credits: number) {
  const clock = new ManualClock();
  const table = await freshTable();
  const s = bulkOn(table, engine(), { clock });
  const { id: accountId } = await s.accounts.open('Redrive', credits);
  return { ...s, clock, table, accountId };
}

const csv = (...rows: string[]) => [rows.join('\n')];

/** A dead-letter queue in memory: what the tests put in, what the re-drive removed. */
class MemoryDeadLetters implements DeadLetterQueue {
  name = 'dlq';
  /** Received and not removed: invisible for the rest of the pass, as SQS's visibility timeout makes them. */
  private received = new Set<string>();
  constructor(public bodies: string[]) {}
  async receive(max: number): Promise<DeadLetter[]> {
    const visible = this.bodies.filter((b) => !this.received.has(b)).slice(0, max);
    for (const body of visible) this.received.add(body);
    return visible.map((body) => ({ body, remove: async () => void (this.bodies = this.bodies.filter((b) => b !== body)) }));
  }
}

describe('re-drive of lost work', () => {
  it('re-sends a pending domain whose message was lost once the job stalls for the window; the re-sent one completes it', async () => {
    const s = await setup(10);
    const { jobId } = await s.bulk.upload(s.accountId, csv('a.com', 'b.com', 'c.com'), { limit: 5 });
    const [a, b] = s.queue.take(); // c.com's message is lost
    await s.worker.process(a!);
    s.clock.advance(2 * MINUTE);
    await s.worker.process(b!); // the job moved: its clock restarts
    s.clock.advance(2 * MINUTE);
    expect((await s.sweeper.sweep()).redriven.domains).toBe(0);
    s.clock.advance(MINUTE + 1_000);
    expect((await s.sweeper.sweep()).redriven.domains).toBe(1);
    const [resent] = s.queue.take();
    expect(resent).toEqual({ accountId: s.accountId, jobId, seq: 3 });
    expect(await s.worker.process(resent!)).toBe('succeeded');
    expect(await s.worker.process(resent!)).toBe('skipped'); // a duplicate is harmless
    expect(await s.bulk.get(s.accountId, jobId, { limit: 5 })).toMatchObject({ status: 'completed', completedDomains: 3, creditsCharged: 3, creditsRefunded: 0 });
    expect(await s.audit.audit(s.accountId)).toMatchObject({ consistent: true, balance: 7 });
  });

  it('backs off (3, 6, 12, 24, 48 minutes), then fails and refunds each lost domain once, even with two sweepers at once', async () => {
    const s = await setup(10);
    const { jobId } = await s.bulk.upload(s.accountId, csv('a.com', 'b.com'), { limit: 5 });
    s.queue.take(); // both lost, and every re-send too
    const sentAt: number[] = [];
    const start = s.clock.at;
    let refunded = 0;
    while (refunded === 0 && s.clock.at - start < 200 * MINUTE) {
      s.clock.advance(3 * MINUTE); // every due time below is a multiple of 3 minutes
      const reports = await Promise.all([s.sweeper.sweep(), s.sweeper.sweep()]);
      const sent = reports.reduce((n, r) => n + r.redriven.domains, 0);
      expect([0, 2]).toContain(sent); // never both sweepers for one domain
      if (sent) sentAt.push(Math.round((s.clock.at - start) / MINUTE));
      refunded = reports.reduce((n, r) => n + r.refunded, 0);
      s.queue.take();
    }
    expect(sentAt).toEqual([3, 9, 21, 45, 93]);
    expect(refunded).toBe(2);
    expect(Math.round((s.clock.at - start) / MINUTE)).toBe(189);
    expect((await s.sweeper.sweep()).refunded).toBe(0);
    const job = await s.bulk.get(s.accountId, jobId, { limit: 5 });
    expect(job).toMatchObject({ status: 'completed', failedDomains: 2, creditsRefunded: 2, creditsCharged: 0 });
    expect(job.results.map((r) => r.error)).toEqual(['research_timeout', 'research_timeout']);
    expect(await s.audit.audit(s.accountId)).toMatchObject({ consistent: true, balance: 10 });
  });

  it('re-sends a domain left running by a dead worker no sooner than the takeover, and the taking-over worker charges it once', async () => {
    const s = await setup(10);
    const { jobId } = await s.bulk.upload(s.accountId, csv('a.com'), { limit: 5 });
    s.queue.take();
    await s.jobs.claimDomain(jobId, 1, s.clock.now().toISOString(), new Date(0).toISOString()); // the worker dies
    s.clock.advance(3 * MINUTE - 1_000);
    expect((await s.sweeper.sweep()).redriven.domains).toBe(0);
    s.clock.advance(2_000);
    expect((await s.sweeper.sweep()).redriven.domains).toBe(1);
    expect(await s.worker.process(s.queue.take()[0]!)).toBe('succeeded');
    expect(await s.bulk.get(s.accountId, jobId, { limit: 5 })).toMatchObject({ status: 'completed', creditsCharged: 1, creditsRefunded: 0 });
    expect(await s.audit.audit(s.accountId)).toMatchObject({ consistent: true, balance: 9 });
  });

  it('re-sends a lost completion webhook with the same event id, and gives it up after the last re-send', async () => {
    const s = await setup(10);
    await s.secrets.put(s.accountId, 'whsec_test', s.clock.now().toISOString());
    const { jobId } = await s.bulk.upload(s.accountId, csv('a.com'), { limit: 5, webhookUrl: 'https://hooks.example.com/x' });
    for (const m of s.queue.take()) await s.worker.process(m);
    const [first] = s.webhookQueue.take(); // lost
    expect(first?.eventId).toBe(`evt_${jobId.slice(4)}`);
    s.clock.advance(3 * MINUTE + 1_000);
    expect((await s.sweeper.sweep()).redriven.webhooks).toBe(1);
    const [again] = s.webhookQueue.take();
    expect(again).toMatchObject({ accountId: s.accountId, jobId, eventId: first!.eventId, attempt: 0 });
    // Delivered: nothing is owed any more, and nothing more is re-sent.
    await s.webhooks.deliver(again!);
    expect((await s.jobs.getJob(s.accountId, jobId))?.webhookState).toBe('delivered');
    s.clock.advance(24 * 60 * MINUTE);
    expect((await s.sweeper.sweep()).redriven.webhooks).toBe(0);

    // Another job whose webhook messages are all lost: 5 re-sends, then abandoned.
    const other = await s.bulk.upload(s.accountId, csv('b.com'), { limit: 5, webhookUrl: 'https://hooks.example.com/x' });
    for (const m of s.queue.take()) await s.worker.process(m);
    let resent = 0;
    let abandoned = 0;
    for (let window = 0; window < 8; window++) {
      s.clock.advance(3 * MINUTE * 2 ** window + 1_000);
      const report = await s.sweeper.sweep();
      resent += report.redriven.webhooks;
      abandoned += report.abandonedWebhooks;
      s.webhookQueue.take();
    }
    expect({ resent, abandoned }).toEqual({ resent: 5, abandoned: 1 });
    expect((await s.jobs.getJob(s.accountId, other.jobId))?.webhookState).toBe('abandoned');
  });

  it('re-sends a lost aggregation message, a bounded number of times', async () => {
    const s = await setup(10);
    const aggregates = new MemoryQueue<{ accountId: string; searchId: string }>();
    const redriver = new Redriver({
      jobs: s.jobs,
      searches: s.searches,
      domainQueue: s.queue,
      webhookQueue: s.webhookQueue,
      clock: s.clock,
      ids: s.ids,
      policy: { afterMs: 3 * MINUTE, maxRedrives: 2 },
      takeoverAfterMs: 2 * MINUTE,
      aggregation: { queue: aggregates, pending: new DynamoPendingAggregations(s.table) },
    });
    const { jobId } = await s.bulk.upload(s.accountId, csv('a.com'), { limit: 5 });
    for (const m of s.queue.take()) await s.worker.process(m); // settled; its aggregate message is never sent here
    const { searchId } = (await s.bulk.get(s.accountId, jobId, { limit: 1 })).results[0]!;
    expect((await redriver.redrive()).aggregations).toBe(0);
    const sent: number[] = [];
    for (let minute = 1; minute <= 40; minute++) {
      s.clock.advance(MINUTE);
      if ((await redriver.redrive()).aggregations) sent.push(minute);
    }
    expect(sent).toEqual([4, 10]); // the first pass past 3 minutes after the settle, then 6 minutes after that re-send
    expect(aggregates.take()).toEqual([
      { accountId: s.accountId, searchId },
      { accountId: s.accountId, searchId },
    ]);
  });

  it('drains dead letters it knows, keeps the rest, and re-drives their work from the table', async () => {
    const s = await setup(10);
    const { jobId } = await s.bulk.upload(s.accountId, csv('a.com'), { limit: 5 });
    const [message] = s.queue.take();
    const dlq = new MemoryDeadLetters([JSON.stringify(message), 'not json', JSON.stringify({ something: 'else' })]);
    const redriver = new Redriver({ jobs: s.jobs, searches: s.searches, domainQueue: s.queue, webhookQueue: s.webhookQueue, clock: s.clock, ids: s.ids, policy: { afterMs: 3 * MINUTE, maxRedrives: 5 }, takeoverAfterMs: 2 * MINUTE, deadLetterQueues: [dlq] });
    expect(await redriver.drainDeadLetters()).toBe(1);
    expect(dlq.bodies).toEqual(['not json', JSON.stringify({ something: 'else' })]);
    s.clock.advance(3 * MINUTE + 1_000);
    const job = (await s.jobs.getJob(s.accountId, jobId))!;
    for await (const d of s.jobs.unfinishedDomains(jobId)) expect(await redriver.domain(job, d, s.clock.now())).toBe('redriven');
    expect(s.queue.take()).toEqual([message]);
  });

  it('sends a dead-lettered watchlist event to the webhook queue again while its retry window lasts, and drops it after', async () => {
    const s = await setup(10);
    const event = (id: string, firstAttemptAt: string) => ({ accountId: s.accountId, event: 'watchlist.changed', eventId: id, firstAttemptAt, attempt: 3, notBefore: firstAttemptAt });
    const now = s.clock.now().getTime();
    const fresh = event('wev_fresh', new Date(now - 60 * MINUTE).toISOString());
    const stale = event('wev_stale', new Date(now - 25 * 60 * MINUTE).toISOString());
    const dlq = new MemoryDeadLetters([JSON.stringify({ ...fresh, extra: 'ignored' }), JSON.stringify(stale), JSON.stringify({ event: 'watchlist.changed' })]);
    const redriver = new Redriver({ jobs: s.jobs, searches: s.searches, domainQueue: s.queue, webhookQueue: s.webhookQueue, clock: s.clock, ids: s.ids, policy: { afterMs: 3 * MINUTE, maxRedrives: 5 }, takeoverAfterMs: 2 * MINUTE, deadLetterQueues: [dlq] });
    expect(await redriver.drainDeadLetters()).toBe(2);
    expect(s.webhookQueue.take()).toEqual([fresh]);
    expect(dlq.bodies).toEqual([JSON.stringify({ event: 'watchlist.changed' })]); // not a message of ours: left for an operator
  });

  it('resumes after a restart: running domains released, every unfinished domain and owed webhook sent again at once', async () => {
    const s = await setup(20);
    await s.secrets.put(s.accountId, 'whsec_test', s.clock.now().toISOString());
    const live = await s.bulk.upload(s.accountId, csv('a.com', 'b.com', 'c.com', 'd.com'), { limit: 5 });
    const ended = await s.bulk.upload(s.accountId, csv('e.com'), { limit: 5, webhookUrl: 'https://hooks.example.com/x' });
    const messages = s.queue.take();
    await s.worker.process(messages[0]!); // a.com done
    await s.jobs.claimDomain(live.jobId, 2, s.clock.now().toISOString(), new Date(0).toISOString()); // b.com: its worker died
    await s.worker.process(messages[4]!); // e.com done: its job ended, its webhook owed
    s.webhookQueue.take(); // and lost with the queue

    const report = await s.redriver.resume();
    expect(report).toMatchObject({ domains: 3, released: 1, webhooks: 1, awaitingUploads: [] });
    const resent = s.queue.take();
    expect(resent.map((m) => m.seq).sort()).toEqual([2, 3, 4]);
    expect(s.webhookQueue.take()).toMatchObject([{ jobId: ended.jobId, eventId: `evt_${ended.jobId.slice(4)}` }]);
    for (const m of resent) expect(await s.worker.process(m)).toBe('succeeded');
    expect(await s.bulk.get(s.accountId, live.jobId, { limit: 5 })).toMatchObject({ status: 'completed', completedDomains: 4, creditsCharged: 4 });
    expect(await s.audit.audit(s.accountId)).toMatchObject({ consistent: true, balance: 15 });
  });
});
