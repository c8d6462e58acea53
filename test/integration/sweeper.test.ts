// The sweeper on DynamoDB Local: a search whose process died keeps its credit only until the sweeper refunds it,
// exactly once, found through the running-searches index; and a database that stops answering mid-search neither
// hangs requests nor loses credits.
import { randomUUID } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, SearchService, Sweeper, systemClock, type Clock } from '@rivals/core';
import { createDocumentClient, createDynamoClient, DynamoRunningSearches, type TableRef } from '@rivals/db';
import { LOCAL_CREDENTIALS, LOCAL_REGION, startDynamoDbLocal, type RunningEngine } from '../../packages/local/src/engines.js';
import { provision } from '../../packages/local/src/provision.js';
import { tableServices } from '../../packages/local/src/services.js';
import { competitor, ScriptedEngine } from '../fakes.js';
import { freshTable, servicesOn, type TestTable } from '../setup/table.js';

const later = (ms: number): Clock => ({ now: () => new Date(Date.now() + ms) });
const sweeperOn = (table: TableRef, clock: Clock = systemClock) => {
  const { ledger } = tableServices(table);
  return new Sweeper({ running: new DynamoRunningSearches(table), ledger, clock, batchSize: 4 });
};

describe('sweeper', () => {
  let table: TestTable;
  beforeEach(async () => {
    table = await freshTable();
  });

  const reserve = (s: ReturnType<typeof servicesOn>, accountId: string, sweepAfter: Date) => {
    const id = s.ids.next('srch');
    return s.ledger
      .reserveSearch({ id, accountId, domain: 'example.com', limit: 10, source: 'api', createdAt: new Date().toISOString(), sweepAfter: sweepAfter.toISOString() })
      .then(() => id);
  };

  it('refunds and fails every search still running past its time, exactly once, and nothing else', async () => {
    // Prepare: 10 searches whose process died, 2 still within their time, 1 that finished.
    const s = servicesOn(table, new ScriptedEngine(() => ({ targetSource: 'knowledge-base', competitors: [competitor(1)] })));
    const account = await s.accounts.open('Acme', 20);
    const dead = await Promise.all(Array.from({ length: 10 }, () => reserve(s, account.id, new Date(Date.now() - 1_000))));
    const alive = await Promise.all(Array.from({ length: 2 }, () => reserve(s, account.id, new Date(Date.now() + 600_000))));
    await s.search.search(account.id, { domain: 'example.com', limit: 10 });
    expect(await s.ledger.balance(account.id)).toBe(7);
    // Act: two sweepers at once, then a third run.
    const [a, b] = await Promise.all([sweeperOn(table).sweep(), sweeperOn(table).sweep()]);
    const again = await sweeperOn(table).sweep();
    // Assess
    expect(a.refunded + b.refunded).toBe(10);
    expect(again).toEqual({ overdue: 0, refunded: 0, alreadyFinished: 0, failed: 0 });
    expect(await s.ledger.balance(account.id)).toBe(17);
    for (const id of dead) expect(await s.searches.get(account.id, id)).toMatchObject({ status: 'failed', error: 'research_timeout', refunded: true });
    for (const id of alive) expect(await s.searches.get(account.id, id)).toMatchObject({ status: 'running' });
    const refunds = await table.client.send(
      new QueryCommand({
        TableName: table.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        FilterExpression: 'reason = :refund',
        ExpressionAttributeValues: { ':pk': `ACCOUNT#${account.id}`, ':p': 'LEDGER#', ':refund': 'refund' },
      }),
    );
    expect(refunds.Items).toHaveLength(10);
    expect(await s.audit.audit(account.id)).toMatchObject({ consistent: true, balance: 17, byReason: { 'opening credits': 20, search: -13, refund: 10 } });
  }, 90_000);

  it('takes settled and refunded searches out of the index', async () => {
    const s = servicesOn(table, new ScriptedEngine(() => ({ targetSource: 'knowledge-base', competitors: [] })));
    const account = await s.accounts.open('Acme', 5);
    await s.search.search(account.id, { domain: 'example.com', limit: 10 }).catch(() => undefined); // refunded at once
    const settled = servicesOn(table, new ScriptedEngine(() => ({ targetSource: 'knowledge-base', competitors: [competitor(1)] })));
    await settled.search.search(account.id, { domain: 'example.com', limit: 10 });
    expect(await new DynamoRunningSearches(table).overdue(new Date(Date.now() + 3_600_000).toISOString(), 100)).toEqual([]);
  }, 90_000);
});

describe('a database that stops answering mid-search', () => {
  let dynamodb: RunningEngine;
  /** What the searches use: bounded as in production, shorter so that the test is quick (DYNAMO_TIMEOUTS are 1 s / 3 s / 3). */
  let table: TableRef;
  /** What the test itself uses to prepare and to look: the production bounds, patient with a loaded machine. */
  let patient: TableRef;
  beforeAll(async () => {
    dynamodb = await startDynamoDbLocal();
    const clientConfig = { region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, endpoint: dynamodb.endpoint };
    const { tableName } = await provision({ dynamodb: dynamodb.endpoint, s3: '', sqs: '' }, `p${randomUUID().slice(0, 8)}`, clientConfig, { tablesOnly: true });
    const client = createDynamoClient({ ...clientConfig, timeouts: { connectionTimeoutMs: 500, requestTimeoutMs: 1_500, maxAttempts: 2 } });
    table = { client: createDocumentClient(client), tableName };
    patient = { client: createDocumentClient(createDynamoClient(clientConfig)), tableName };
  }, 60_000);
  afterAll(async () => {
    if (dynamodb.pid) process.kill(dynamodb.pid, 'SIGCONT');
    await dynamodb.stop();
  });

  it('answers every search with whether it was refunded, and the sweeper leaves no credit held', async () => {
    // Prepare: 10 slow searches; the database pauses once all have reserved their credit.
    let started = 0;
    let allStarted: () => void;
    const reserved = new Promise<void>((resolve) => (allStarted = resolve));
    // The research waits until the database is paused, so that every settle meets a database that does not answer.
    let release: () => void;
    const paused = new Promise<void>((resolve) => (release = resolve));
    const engine = new ScriptedEngine(async () => {
      if (++started === 10) allStarted();
      await paused;
      return { targetSource: 'knowledge-base', competitors: [competitor(1), competitor(2)] };
    });
    const base = tableServices(table);
    const observer = tableServices(patient);
    const account = await observer.accounts.open('Acme', 10);
    for (let i = 0; i < 5; i++) await base.ledger.balance(account.id); // a JVM that has just started answers slowly at first
    const service = new SearchService({ ledger: base.ledger, engine, clock: systemClock, ids: base.ids, deadlineMs: 5_000, refundRetry: { attempts: 2, baseDelayMs: 50, budgetMs: 500 } });
    // Act
    const searches = Array.from({ length: 10 }, () => service.search(account.id, { domain: 'example.com', limit: 10 }).then(() => 'ok', (e: unknown) => e));
    await Promise.race([reserved, Promise.all(searches)]);
    process.kill(dynamodb.pid!, 'SIGSTOP');
    release!();
    const t0 = Date.now();
    const outcomes = await Promise.all(searches);
    const answeredInMs = Date.now() - t0;
    process.kill(dynamodb.pid!, 'SIGCONT');
    const report = await sweeperOn(patient, later(10 * 60_000)).sweep();
    // Assess: nobody waited for the database to come back, every failure says whether its credit is back...
    expect(answeredInMs).toBeLessThan(30_000);
    for (const outcome of outcomes) {
      expect(outcome).toBeInstanceOf(ApiError);
      expect(typeof (outcome as ApiError).extra.refunded).toBe('boolean');
    }
    // ...and once the sweeper has run, every search either succeeded (a settle that landed late) or was refunded.
    const items = (
      await patient.client.send(
        new QueryCommand({ TableName: patient.tableName, KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)', ExpressionAttributeValues: { ':pk': `ACCOUNT#${account.id}`, ':p': 'SEARCH#' } }),
      )
    ).Items!;
    expect(items).toHaveLength(10);
    expect(items.filter((i) => i.status === 'running')).toEqual([]);
    const succeeded = items.filter((i) => i.status === 'succeeded').length;
    expect(items.filter((i) => i.status === 'failed' && i.refunded === true)).toHaveLength(10 - succeeded);
    expect(await observer.ledger.balance(account.id)).toBe(10 - succeeded);
    expect(await observer.audit.audit(account.id)).toMatchObject({ consistent: true, balance: 10 - succeeded });
    expect(report.failed).toBe(0);
  }, 90_000);
});
