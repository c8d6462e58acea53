// My companies on DynamoDB Local: rows aggregated after each search settles (by the aggregate worker, off the search's
// path, or by the next read's catch-up), counted exactly once whatever is replayed, redelivered, retried concurrently
// or interrupted, read most often found first with one Query on GSI1. The queue itself is local-aws-sqs.
import { CreateQueueCommand, ReceiveMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Context, SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SqsAggregationQueue } from '@rivals/aws';
import { MyCompany, type CompetitorType } from '@rivals/contracts';
import { SearchService, systemClock, type ResearchedCompetitor } from '@rivals/core';
import { LOCAL_CREDENTIALS, LOCAL_REGION, startSqs, type RunningEngine } from '../../packages/local/src/engines.js';
import { competitor, ScriptedEngine } from '../fakes.js';
import { freshTable, servicesOn, type TestTable } from '../setup/table.js';

let table: TestTable;
beforeEach(async () => {
  table = await freshTable();
});

const TYPES: CompetitorType[] = ['Direct', 'Indirect', 'Adjacent', 'Emerging'];
const UNIVERSE = 30;
/** Target t<i>.com finds `width` companies of a universe of 30, overlapping with its neighbours. */
const found = (domain: string, width = 10): ResearchedCompetitor[] => {
  const i = Number(/\d+/.exec(domain)?.[0] ?? 0);
  return Array.from({ length: width }, (_, k) => {
    const n = (i + k) % UNIVERSE;
    return competitor(n, { company: `Rival ${n}`, domain: `rival${n}.com`, matchScore: 90 - k - (i % 3), type: TYPES[(i + k) % 4]! });
  });
};
/** 100 competitors, the same for every target. */
const wideEngine = () =>
  new ScriptedEngine((domain) => ({
    targetSource: 'knowledge-base',
    competitors: Array.from({ length: 100 }, (_, k) => competitor(k, { domain: `wide${k}.com`, matchScore: 99 - (k % 90) - Number(domain.length % 2) })),
  }));
const engine = (width = 10) => new ScriptedEngine((domain) => ({ targetSource: 'knowledge-base', competitors: found(domain, width) }));

/** The rows computed from first principles, to compare with what the store kept. */
function expected(targets: string[], width = 10) {
  const rows = new Map<string, { timesFound: number; bestMatchScore: number; types: Set<string>; foundFor: string[] }>();
  for (const target of targets) {
    for (const c of found(target, width)) {
      const row = rows.get(c.domain) ?? { timesFound: 0, bestMatchScore: 0, types: new Set<string>(), foundFor: [] };
      // Distinct targets: a target searched again does not count its companies twice.
      if (!row.foundFor.includes(target)) row.timesFound++;
      row.bestMatchScore = Math.max(row.bestMatchScore, c.matchScore);
      row.types.add(c.type);
      row.foundFor = [target, ...row.foundFor.filter((d) => d !== target)].slice(0, 20);
      rows.set(c.domain, row);
    }
  }
  return rows;
}

const pendingItems = async (accountId: string) =>
  (
    await table.client.send(
      new QueryCommand({
        TableName: table.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        ExpressionAttributeValues: { ':pk': `ACCOUNT#${accountId}`, ':p': 'AGGPENDING#' },
      }),
    )
  ).Items ?? [];

/**
 * Two searches of the same 100 companies; the first is counted, the second settles and is not counted yet (servicesOn
 * wires no aggregate queue: as if its message were lost, or the worker had not run).
 */
async function interruptedAggregation() {
  const s = servicesOn(table, wideEngine());
  const account = await s.accounts.open('Acme', 5);
  const first = await s.search.search(account.id, { domain: 't0.com', limit: 100 });
  await s.companyStore.finish(account.id, first.searchId);
  const { searchId } = await s.search.search(account.id, { domain: 't1.com', limit: 100 });
  return { s, account, searchId };
}

describe('GET /api/my-companies (service and adapter)', () => {
  it('aggregates every company over many searches, most often found first', async () => {
    // Prepare: 25 searches of 10 competitors each over a universe of 30 companies (one target searched twice)
    const s = servicesOn(table, engine());
    const account = await s.accounts.open('Acme', 30);
    const targets = [...Array.from({ length: 24 }, (_, i) => `t${i}.com`), 't3.com'];
    for (const domain of targets) await s.search.search(account.id, { domain, limit: 100 });
    // Act
    const { items, total } = await s.myCompanies.list(account.id);
    // Assess
    const want = expected(targets);
    expect(total).toBe(want.size);
    expect(items).toHaveLength(want.size);
    for (const item of items) {
      expect(() => MyCompany.parse(item)).not.toThrow();
      const row = want.get(item.domain)!;
      expect(item).toMatchObject({ timesFound: row.timesFound, bestMatchScore: row.bestMatchScore, foundFor: row.foundFor });
      expect(new Set(item.types)).toEqual(row.types);
      expect(item.firstSeenAt <= item.lastSeenAt).toBe(true);
    }
    const counts = items.map((i) => i.timesFound);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(await pendingItems(account.id)).toEqual([]);
  });

  it('never counts a replayed settle: it is refused and nothing changes', async () => {
    const s = servicesOn(table, engine());
    const account = await s.accounts.open('Acme', 5);
    const { searchId } = await s.search.search(account.id, { domain: 't1.com', limit: 100 });
    const before = await s.myCompanies.list(account.id);
    const stored = (await s.searches.get(account.id, searchId))!;
    const replay = s.ledger.settleSearch(account.id, searchId, {
      completedAt: new Date().toISOString(),
      elapsedSeconds: 0.1,
      competitors: stored.competitors!,
      totalCompetitors: stored.totalCompetitors!,
      likelyCompetitors: stored.likelyCompetitors!,
    });
    await expect(replay).rejects.toMatchObject({ code: 'conflict' });
    expect(await s.myCompanies.list(account.id)).toEqual(before);
    expect(before.items.every((i) => i.timesFound === 1)).toBe(true);
    expect(await s.ledger.balance(account.id)).toBe(4);
  });

  it('finishes an aggregation a crash interrupted on the next read, and counts it once however often it is retried', async () => {
    // Prepare: the search (100 competitors: two chunks) settles, then the process "dies" before they are counted
    const { s, account, searchId } = await interruptedAggregation();
    expect(await pendingItems(account.id)).toHaveLength(1);
    // Act: concurrent runners (a retry, a read) plus the read itself
    await Promise.all([s.companyStore.finish(account.id, searchId), s.companyStore.finish(account.id, searchId), s.companyStore.catchUp(account.id)]);
    const { items } = await s.myCompanies.list(account.id);
    await s.companyStore.finish(account.id, searchId);
    // Assess
    expect(items).toHaveLength(100);
    expect(items.every((i) => i.timesFound === 2)).toBe(true);
    expect((await s.myCompanies.list(account.id)).items).toEqual(items);
    expect(await pendingItems(account.id)).toEqual([]);
  });

  it('refuses a chunk a stale runner applies again, and finishes from where an interrupted run stopped', async () => {
    // Prepare: a settled search of 100 competitors (chunks 0 and 1) whose aggregation has not run
    const { s, account, searchId } = await interruptedAggregation();
    const store = s.companyStore as unknown as { settled(a: string, s: string): Promise<unknown>; apply(a: string, s: string, n: number, chunks: unknown[][], search: unknown): Promise<void> };
    const search = (await store.settled(account.id, searchId)) as { competitors: unknown[] };
    const chunks = [search.competitors.slice(0, 50), search.competitors.slice(50)];
    // Act: runner A applies chunk 0 and dies; runner B, which read the pending item before, applies chunk 0 again
    await store.apply(account.id, searchId, 0, chunks, search);
    const stale = store.apply(account.id, searchId, 0, chunks, search);
    // Assess
    await expect(stale).rejects.toMatchObject({ name: 'TransactionCanceledException' });
    expect((await pendingItems(account.id))[0]).toMatchObject({ nextChunk: 1 });
    const { items } = await s.myCompanies.list(account.id);
    expect(items).toHaveLength(100);
    expect(items.every((i) => i.timesFound === 2)).toBe(true);
    expect(await pendingItems(account.id)).toEqual([]);
  });

  it('counts a search of 100 competitors (several transactions) exactly once, also when concurrent searches share rows', async () => {
    const s = servicesOn(table, wideEngine());
    const account = await s.accounts.open('Acme', 10);
    await Promise.all(['x1.com', 'x22.com', 'x3.com', 'x44.com'].map((domain) => s.search.search(account.id, { domain, limit: 100 })));
    const { items, total } = await s.myCompanies.list(account.id);
    expect(total).toBe(100);
    expect(items.every((i) => i.timesFound === 4 && i.foundFor.length === 4)).toBe(true);
    expect(items.find((i) => i.domain === 'wide0.com')?.bestMatchScore).toBe(99);
  });

  it('caps the rows it answers and still counts them all', async () => {
    const s = servicesOn(table, engine());
    const account = await s.accounts.open('Acme', 5);
    for (const domain of ['t0.com', 't5.com']) await s.search.search(account.id, { domain, limit: 100 });
    await s.companyStore.catchUp(account.id);
    const { items, total } = await s.companyStore.top(account.id, 3);
    expect(total).toBe(15);
    expect(items.map((i) => i.timesFound)).toEqual([2, 2, 2]);
  });

  it('exports CSV with a header row, RFC 4180 quoting and formula-like cells defused', async () => {
    const s = servicesOn(
      table,
      new ScriptedEngine(() => ({
        targetSource: 'knowledge-base',
        competitors: [competitor(1, { company: '=HYPERLINK("http://x")', domain: 'evil.com' }), competitor(2, { company: 'Acme, Inc.', domain: 'acme.com' })],
      })),
    );
    const account = await s.accounts.open('Acme', 5);
    await s.search.search(account.id, { domain: 't0.com', limit: 100 });
    const csv = await s.myCompanies.csv(account.id);
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('company,product,domain,timesFound,bestMatchScore,types,firstSeenAt,lastSeenAt,foundFor,founded,size,hq,ownership,exchange,ticker');
    expect(csv).toContain(`"'=HYPERLINK(""http://x"")",,evil.com,1,89,Direct,`);
    expect(csv).toContain('"Acme, Inc.",,acme.com,1,88,Direct,');
    expect(lines.at(-1)).toBe('');
  });

  it('keeps one row per company entity: product lines of one domain apart, named beside their company', async () => {
    const product = (n: number, name: string, host: string) =>
      competitor(n, { company: name, domain: 'microsoft.com', evidence: { ...competitor(n).evidence, parentCompany: 'Microsoft', entity: host } });
    const s = servicesOn(
      table,
      new ScriptedEngine((domain) => ({
        targetSource: 'knowledge-base',
        competitors: domain === 'slack.com' ? [product(1, 'Microsoft Teams', 'teams.microsoft.com'), competitor(2, { company: 'Zoom', domain: 'zoom.com' })] : [product(1, 'Microsoft Dynamics 365', 'dynamics.microsoft.com'), competitor(3, { company: 'Microsoft', domain: 'microsoft.com', evidence: { ...competitor(3).evidence, entity: 'microsoft.com' } })],
      })),
    );
    const account = await s.accounts.open('Acme', 5);
    for (const domain of ['slack.com', 'salesforce.com', 'slack.com']) await s.search.search(account.id, { domain, limit: 100 });
    const { items } = await s.myCompanies.list(account.id);
    const rows = items.map((i) => [i.company, i.product, i.domain, i.timesFound]).sort((a, b) => String(a[1]).localeCompare(String(b[1])));
    // slack.com was searched twice: its companies count once (distinct targets).
    expect(rows).toEqual([
      ['Microsoft', 'Microsoft Dynamics 365', 'microsoft.com', 1],
      ['Microsoft', 'Microsoft Teams', 'microsoft.com', 1],
      ['Microsoft', null, 'microsoft.com', 1],
      ['Zoom', null, 'zoom.com', 1],
    ]);
    const csv = await s.myCompanies.csv(account.id);
    expect(csv).toContain('Microsoft,Microsoft Teams,microsoft.com,1,');
  });
});

describe('the aggregate queue and worker (local SQS)', () => {
  let sqsEngine: RunningEngine;
  let sqs: SQSClient;
  let queueUrl: string;
  beforeAll(async () => {
    sqsEngine = await startSqs();
    sqs = new SQSClient({ region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, endpoint: sqsEngine.endpoint });
    queueUrl = (await sqs.send(new CreateQueueCommand({ QueueName: 'aggregate' }))).QueueUrl!;
  }, 60_000);
  afterAll(async () => {
    sqs.destroy();
    await sqsEngine.stop();
  });

  /** The search service as the search function wires it: settled searches go to the aggregate queue. */
  const searchWithQueue = (s: ReturnType<typeof servicesOn>, url: string, onAggregationError?: (searchId: string, error: unknown) => void) =>
    new SearchService({ ledger: s.ledger, engine: wideEngine(), clock: systemClock, ids: s.ids, deadlineMs: 5_000, aggregation: new SqsAggregationQueue(sqs, url), ...(onAggregationError ? { onAggregationError } : {}) });

  const receiveAll = async (): Promise<Message[]> => (await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }))).Messages ?? [];

  const sqsEvent = (messages: Message[]): SQSEvent => ({
    Records: messages.map((m) => ({
      messageId: m.MessageId!,
      receiptHandle: m.ReceiptHandle!,
      body: m.Body!,
      attributes: {} as never,
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:aggregate',
      awsRegion: 'us-east-1',
    })),
  });

  /** The worker's Lambda handler, on this test's table. */
  const aggregateWorker = async () => {
    vi.stubEnv('TABLE_NAME', table.tableName);
    vi.stubEnv('AWS_ENDPOINT_URL_DYNAMODB', table.endpoint);
    vi.stubEnv('AWS_REGION', LOCAL_REGION);
    vi.stubEnv('AWS_ACCESS_KEY_ID', LOCAL_CREDENTIALS.accessKeyId);
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', LOCAL_CREDENTIALS.secretAccessKey);
    vi.resetModules();
    return (await import('../../functions/workers/aggregate.js')).handler;
  };

  it('a search enqueues its aggregation; the worker counts it once, and a second delivery changes nothing', async () => {
    // Prepare: a search of 100 competitors (two chunks) through the queue-wired service
    const s = servicesOn(table, wideEngine());
    const account = await s.accounts.open('Acme', 5);
    const { searchId } = await searchWithQueue(s, queueUrl).search(account.id, { domain: 't0.com', limit: 100 });
    const messages = await receiveAll();
    expect(messages.map((m) => JSON.parse(m.Body!))).toEqual([{ accountId: account.id, searchId }]);
    expect(await pendingItems(account.id)).toHaveLength(1);
    expect((await s.companyStore.top(account.id, 200)).total).toBe(0); // the search's answer did not wait for it
    const handler = await aggregateWorker();
    // Act: delivered, then delivered again (SQS is at-least-once)
    const first = await handler(sqsEvent(messages), {} as Context);
    const after = await s.companyStore.top(account.id, 200);
    const second = await handler(sqsEvent(messages), {} as Context);
    // Assess
    expect(first.batchItemFailures).toEqual([]);
    expect(second.batchItemFailures).toEqual([]);
    expect(after.total).toBe(100);
    expect(after.items.every((i) => i.timesFound === 1)).toBe(true);
    expect(await s.companyStore.top(account.id, 200)).toEqual(after);
    expect(await pendingItems(account.id)).toEqual([]);
    vi.unstubAllEnvs();
  });

  it('a search whose message could not be sent is answered all the same and counted by the next read', async () => {
    // Prepare: the queue does not exist, so every send fails
    const s = servicesOn(table, wideEngine());
    const account = await s.accounts.open('Acme', 5);
    const failures: string[] = [];
    const service = searchWithQueue(s, `${queueUrl}-missing`, (id) => failures.push(id));
    // Act
    const { searchId, result } = await service.search(account.id, { domain: 't0.com', limit: 100 });
    // Assess: answered and charged, the failure reported, nothing counted until the read, which counts it once
    expect(result.competitors).toHaveLength(100);
    expect(failures).toEqual([searchId]);
    expect(await s.ledger.balance(account.id)).toBe(4);
    expect((await s.companyStore.top(account.id, 200)).total).toBe(0);
    const { items, total } = await s.myCompanies.list(account.id);
    expect(total).toBe(100);
    expect(items.every((i) => i.timesFound === 1)).toBe(true);
    expect(await pendingItems(account.id)).toEqual([]);
  });
});
