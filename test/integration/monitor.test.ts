// Watchlist monitoring on DynamoDB Local with the real engine (the fixture knowledge base, discovered companies in the
// table, homepages from a fixture map): saving records the baseline for free; a run after companies were discovered,
// and a run with a new knowledge-base version, each record exactly the expected changes, once; unchanged markets and
// redelivered messages record nothing; another account never sees them; reading one company's changes marks them
// seen; watchlist.changed events are signed and retried through the webhook sender.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MonitorService, verifySignature, WebhookService, type HomepageProfile, type MonitorMessage, type WebhookMessage } from '@rivals/core';
import { checkWebhookUrl, createWebhookTransport } from '@rivals/crawler';
import { DynamoBulkJobStore, DynamoDiscoveredStore, DynamoMonitorStore, DynamoSavedCompanyStore, DynamoWebhookSecretStore } from '@rivals/db';
import { KnowledgeBaseEngine } from '@rivals/engine';
import { compile } from '../../packages/kb/src/build.js';
import { FIXTURE_KB_DIR, fixtureIndex } from '../kb-fixture.js';
import { ManualClock, MemoryQueue } from '../setup/bulk.js';
import { freshTable, servicesOn, type TestTable } from '../setup/table.js';

const page = (domain: string, title: string, description: string): HomepageProfile => ({
  domain, url: `https://${domain}/`, title, description, headings: [], organizationName: null, keywords: [], fetchedAt: '2026-11-20T00:00:00.000Z',
});
const web: Record<string, HomepageProfile> = {
  'pipeflow.io': page('pipeflow.io', 'Pipeflow | CRM and sales pipeline for small teams', 'Pipeflow tracks deals, contacts and the sales pipeline of small teams.'),
  'dealroomcrm.io': page('dealroomcrm.io', 'DealRoom CRM: contacts, deals and sales pipeline', 'A simple CRM for contacts, deals and the sales pipeline of small teams.'),
};

/** The fixture knowledge base, and a next version of it that adds one CRM. */
const v1 = fixtureIndex();
const v2 = (() => {
  const files = readdirSync(FIXTURE_KB_DIR).map((name) => ({ name, text: readFileSync(join(FIXTURE_KB_DIR, name), 'utf8') }));
  const newcomer = `  - name: Closely
    domain: closelycrm.com
    description: A CRM for small sales teams, with contacts, deals and a sales pipeline.
    categories: [crm]
    keywords: [crm, sales pipeline, deals]
    segment: smb
    model: saas
    founded: 2024
    hq: US
    size: 11-50
  - name: Pipedrive
`;
  const edited = files.map((f) => (f.name === 'software.yaml' ? { ...f, text: f.text.replace('  - name: Pipedrive\n', newcomer) } : f));
  const { index, problems } = compile(edited);
  if (problems.some((p) => !/holds \d+ entries/.test(p))) throw new Error(problems.join('\n'));
  return index;
})();

const received: { headers: IncomingMessage['headers']; body: string }[] = [];
let failuresLeft = 0;
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    received.push({ headers: req.headers, body });
    res.writeHead(failuresLeft-- > 0 ? 503 : 204).end();
  });
});
let hookUrl: string;
beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

let table: TestTable;
beforeEach(async () => {
  table = await freshTable();
  received.length = 0;
  failuresLeft = 0;
});

function monitorOn(t: TestTable, index = v1, clock = new ManualClock()) {
  const base = servicesOn(t, { research: async () => ({ targetSource: 'none', competitors: [] }) });
  const engine = new KnowledgeBaseEngine({ index, homepage: { read: async (d) => web[d] ?? null }, discovered: new DynamoDiscoveredStore(t) });
  const store = new DynamoMonitorStore(t);
  const secrets = new DynamoWebhookSecretStore(t);
  const queue = new MemoryQueue<MonitorMessage>();
  const webhookQueue = new MemoryQueue<WebhookMessage>();
  const monitor = new MonitorService({
    store, endpoints: store, secrets, engine, queue: { enqueue: (m) => queue.enqueue(m) }, webhookQueue, clock, ids: base.ids, deadlineMs: 5_000, kbVersion: index.version,
  });
  const webhooks = new WebhookService({
    jobs: new DynamoBulkJobStore(t, base.ledger), secrets, queue: webhookQueue, clock,
    transport: createWebhookTransport({ unsafeForTests: { allow: () => true, allowHttp: true } }), watch: { events: store, endpoints: store },
  });
  const saved = new DynamoSavedCompanyStore(t);
  /** Saves a company as the route does: the row, then its baseline. */
  const save = async (accountId: string, domain: string) => {
    const { row } = await base.watchlist().save(accountId, { domain });
    expect(await monitor.watch({ accountId, domain: row.domain })).toEqual(expect.any(String));
  };
  /** Runs the monitor once: the fan-out, then every message (as the worker does). */
  const run = async () => {
    const started = await monitor.startRun('manual');
    for (const message of queue.take()) await monitor.checkBatch(message);
    return store.getRun(started!.id);
  };
  return { ...base, engine, store, monitor, webhooks, webhookQueue, queue, saved, save, run, clock, secrets };
}

describe('watchlist monitoring', () => {
  it('a run after new companies were discovered records them as new_competitor, once; a second run records nothing; credits untouched', async () => {
    const m = monitorOn(table);
    const acct = await m.accounts.open('Watcher', 3);
    await m.save(acct.id, 'pipedrive.com');
    const [row] = (await m.watchlist().list(acct.id, { limit: 10 })).items;
    expect(row).toMatchObject({ domain: 'pipedrive.com', lastCheckedAt: expect.any(String), unseenChanges: 0 });

    // Nothing changed in the market: nothing recorded.
    expect(await m.run()).toMatchObject({ total: 1, checked: 1, changed: 0, changes: 0 });
    expect((await m.monitor.changes(acct.id, { limit: 50 })).items).toEqual([]);

    // Two unknown CRMs are researched (their homepages read): the discovered layer learns them.
    for (const domain of ['pipeflow.io', 'dealroomcrm.io']) await m.engine.research({ domain, limit: 25, signal: AbortSignal.timeout(5_000), accountId: acct.id, via: 'search' });
    const report = await m.run();
    expect(report).toMatchObject({ total: 1, checked: 1, changed: 1, changes: 2 });
    const { items } = await m.monitor.changes(acct.id, { limit: 50 });
    expect(items.map((c) => [c.kind, c.competitor.domain]).sort()).toEqual([['new_competitor', 'dealroomcrm.io'], ['new_competitor', 'pipeflow.io']]);
    expect(items[0]).toEqual({ id: expect.stringMatching(/^chg_/), domain: 'pipedrive.com', kind: 'new_competitor', competitor: { domain: expect.any(String), company: expect.any(String), matchScore: expect.any(Number), type: expect.any(String) }, detectedAt: expect.any(String) });

    // Again: nothing new.
    expect(await m.run()).toMatchObject({ checked: 1, changes: 0 });
    expect((await m.monitor.changes(acct.id, { limit: 50 })).items).toHaveLength(2);
    expect(await m.accounts.balance(acct.id)).toBe(3);
  });

  it('a redelivered message records nothing twice', async () => {
    const m = monitorOn(table);
    const acct = await m.accounts.open('Watcher', 0);
    await m.save(acct.id, 'pipedrive.com');
    await m.engine.research({ domain: 'pipeflow.io', limit: 25, signal: AbortSignal.timeout(5_000) });
    const started = await m.monitor.startRun('manual');
    const [message] = m.queue.take();
    await m.monitor.checkBatch(message!);
    await m.monitor.checkBatch(message!); // SQS delivered it again
    expect(await m.monitor.startRun('manual', started!.id)).toBeNull(); // the same run cannot start twice
    expect(await m.store.getRun(started!.id)).toMatchObject({ total: 1, checked: 1, changes: 1 });
    expect((await m.monitor.changes(acct.id, { limit: 50 })).items).toHaveLength(1);
  });

  it('a new knowledge-base version starts one run that records exactly its changes', async () => {
    const clock = new ManualClock();
    const before = monitorOn(table, v1, clock);
    const acct = await before.accounts.open('Watcher', 0);
    await before.save(acct.id, 'pipedrive.com');
    expect(await before.monitor.tick()).toBeNull(); // first tick: remembers the version
    expect(await before.monitor.tick()).toBeNull(); // nothing due

    const after = monitorOn(table, v2, clock); // a deploy with the next knowledge base
    expect(v2.version).not.toBe(v1.version);
    const run = await after.monitor.tick();
    expect(run).toMatchObject({ reason: 'knowledge-base', total: 1 });
    for (const message of after.queue.take()) await after.monitor.checkBatch(message);
    expect(await after.monitor.tick()).toBeNull(); // the same version never runs twice
    const { items } = await after.monitor.changes(acct.id, { limit: 50 });
    expect(items.map((c) => [c.kind, c.competitor.domain])).toEqual([['new_competitor', 'closelycrm.com']]);

    // A day later the schedule runs; the market has not moved.
    clock.advance(24 * 3_600_000 + 1);
    const daily = await after.monitor.tick();
    expect(daily).toMatchObject({ reason: 'schedule', total: 1 });
    for (const message of after.queue.take()) await after.monitor.checkBatch(message);
    expect(await after.store.getRun(daily!.id)).toMatchObject({ checked: 1, changes: 0 });
  });

  it("keeps each account's changes to itself, and reading one company's changes marks them seen", async () => {
    const m = monitorOn(table);
    const a = await m.accounts.open('A', 0);
    const b = await m.accounts.open('B', 0);
    await m.save(a.id, 'pipedrive.com');
    await m.save(a.id, 'hubspot.com');
    await m.save(b.id, 'zoho.com');
    await m.engine.research({ domain: 'pipeflow.io', limit: 25, signal: AbortSignal.timeout(5_000) });
    await m.run();

    const all = await m.monitor.changes(a.id, { limit: 50 });
    expect(new Set(all.items.map((c) => c.domain))).toEqual(new Set(['pipedrive.com', 'hubspot.com']));
    const theirs = await m.monitor.changes(b.id, { limit: 50 });
    expect(theirs.items.every((c) => c.domain === 'zoho.com')).toBe(true);
    expect(theirs.items.length).toBeGreaterThan(0);
    // A cursor of A's list is refused to B.
    const first = await m.monitor.changes(a.id, { limit: 1 });
    await expect(m.monitor.changes(b.id, { limit: 1, cursor: first.nextCursor! })).rejects.toMatchObject({ code: 'invalid_request' });
    // ?since= after the run: nothing.
    expect((await m.monitor.changes(a.id, { limit: 50, since: new Date(Date.now() + 60_000).toISOString() })).items).toEqual([]);

    const unseen = async () => Object.fromEntries((await m.watchlist().list(a.id, { limit: 10 })).items.map((r) => [r.domain, r.unseenChanges]));
    expect(await unseen()).toEqual({ 'pipedrive.com': 1, 'hubspot.com': 1 });
    const one = await m.monitor.changes(a.id, { limit: 50, domain: 'https://www.pipedrive.com/' });
    expect(one.items.map((c) => c.domain)).toEqual(['pipedrive.com']);
    expect(await unseen()).toEqual({ 'pipedrive.com': 0, 'hubspot.com': 1 });
  });

  it('sends a signed watchlist.changed event to the account endpoint, retried until it is taken', async () => {
    const m = monitorOn(table);
    const acct = await m.accounts.open('Hooks', 0);
    await expect(m.monitor.setEndpoint(acct.id, hookUrl)).rejects.toMatchObject({ code: 'invalid_request' }); // no signing secret yet
    const secret = 'whsec_test_secret';
    await m.secrets.put(acct.id, secret, new Date().toISOString());
    expect(await m.monitor.setEndpoint(acct.id, hookUrl)).toMatchObject({ url: hookUrl, events: ['watchlist.changed'] });
    expect(await m.monitor.getEndpoint(acct.id)).toMatchObject({ url: hookUrl });
    await m.save(acct.id, 'pipedrive.com');
    await m.run();
    expect(m.webhookQueue.messages).toEqual([]); // nothing changed, nothing sent

    await m.engine.research({ domain: 'pipeflow.io', limit: 25, signal: AbortSignal.timeout(5_000) });
    await m.monitor.startRun('manual');
    const [message] = m.queue.take();
    await m.monitor.checkBatch(message!);
    expect(m.webhookQueue.take()).toHaveLength(1); // lost: the process died before the send reached SQS...
    await m.monitor.checkBatch(message!); // ...so the check's message comes again and sends it, recording nothing twice
    expect(m.webhookQueue.messages).toHaveLength(1);
    expect((await m.monitor.changes(acct.id, { limit: 50 })).items).toHaveLength(1);
    failuresLeft = 2;
    for (let attempt = 0; attempt < 3; attempt++) {
      const [message] = m.webhookQueue.take();
      expect(message).toMatchObject({ event: 'watchlist.changed', attempt });
      m.clock.advance(60 * 60_000);
      await m.webhooks.deliver(message!);
    }
    expect(m.webhookQueue.messages).toEqual([]); // delivered: no further attempt
    expect(received.map((r) => JSON.parse(r.body).id)).toEqual(Array(3).fill(JSON.parse(received[0]!.body).id));
    const last = received[2]!;
    expect(JSON.parse(last.body)).toMatchObject({ type: 'watchlist.changed', data: { domain: 'pipedrive.com', changes: [{ kind: 'new_competitor', competitor: { domain: 'pipeflow.io' } }] } });
    const now = Math.floor(m.clock.now().getTime() / 1000);
    expect(verifySignature(String(last.headers['rivals-signature']), last.body, secret, { now })).toBe(true);
    expect(verifySignature(String(last.headers['rivals-signature']), last.body, 'whsec_other', { now })).toBe(false);

    await m.monitor.removeEndpoint(acct.id);
    expect(await m.monitor.getEndpoint(acct.id)).toBeNull();
  });

  it("checks the endpoint's URL where it leads, as bulk webhook URLs are checked", async () => {
    const m = monitorOn(table);
    const acct = await m.accounts.open('Hooks', 0);
    await m.secrets.put(acct.id, 'whsec_x', new Date().toISOString());
    const checked = new MonitorService({ store: m.store, endpoints: m.store, secrets: m.secrets, clock: m.clock, ids: m.ids, deadlineMs: 1_000, webhookUrls: { check: (url) => checkWebhookUrl(url) } });
    for (const url of ['https://127.0.0.1/hook', 'https://169.254.169.254/latest', 'https://[::1]/x', 'https://localhost/x', 'https://svc.internal/x'])
      await expect(checked.setEndpoint(acct.id, url), url).rejects.toMatchObject({ code: 'invalid_request', extra: { details: [{ field: 'url' }] } });
    expect(await checked.getEndpoint(acct.id)).toBeNull();
  });

  it('removing a company stops watching it', async () => {
    const m = monitorOn(table);
    const acct = await m.accounts.open('Watcher', 0);
    await m.save(acct.id, 'pipedrive.com');
    await m.watchlist().remove(acct.id, 'pipedrive.com');
    expect(await m.run()).toMatchObject({ total: 0, checked: 0 });
  });
});
