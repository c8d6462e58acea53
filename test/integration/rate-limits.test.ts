// Token buckets on DynamoDB Local: exact bursts, no over-taking by concurrent instances, refusals that take nothing.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Clock, RateRule } from '@rivals/core';
import { createDocumentClient, DynamoRateLimiter, type TableRef } from '@rivals/db';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../../packages/local/src/engines.js';
import { freshTable, type TestTable } from '../setup/table.js';

let table: TestTable;
beforeEach(async () => {
  table = await freshTable();
});

const rule: RateRule = { perSecond: 10, burst: 20 };
const frozen = (at = Date.now()): Clock & { advance(ms: number): void } => {
  let now = at;
  return { now: () => new Date(now), advance: (ms) => void (now += ms) };
};
/** Another "Lambda instance": its own SDK client and its own limiter on the same table. */
const instance = (clock: Clock): DynamoRateLimiter => {
  const ref: TableRef = { client: createDocumentClient(new DynamoDBClient({ endpoint: table.endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS })), tableName: table.tableName };
  return new DynamoRateLimiter(ref, clock);
};
const bucketItem = async (pk: string) => (await table.client.send(new GetCommand({ TableName: table.tableName, Key: { pk, sk: 'RATE' }, ConsistentRead: true }))).Item;

describe('DynamoDB token buckets', () => {
  it('lets exactly the burst of 25 requests on one key through, one after another', async () => {
    const limiter = new DynamoRateLimiter(table, frozen());
    const answers = [];
    for (let i = 0; i < 25; i++) answers.push(await limiter.take([{ bucket: 'key:key_a', rule }]));
    expect(answers.filter((a) => a?.allowed)).toHaveLength(20);
    expect(answers.map((a) => a?.remaining).slice(0, 3)).toEqual([19, 18, 17]);
    expect(answers[24]).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
    const item = await bucketItem('RATE#key#key_a');
    expect(item).toMatchObject({ tat: expect.any(Number), ttl: expect.any(Number) });
  });

  it('never lets two instances taking at once exceed the bucket', async () => {
    const clock = frozen();
    const [one, two] = [instance(clock), instance(clock)];
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? one : two).take([{ bucket: 'key:key_b', rule }])));
    expect(answers.filter((a) => a?.allowed)).toHaveLength(20);
  });

  it('gives the whole burst to concurrent requests that read the clock a moment apart, whichever lands first', async () => {
    // The request that read the clock first reaches the table last: the bucket was started by one 500 ms later.
    const tight: RateRule = { perSecond: 1, burst: 2 };
    const started = Date.now();
    const later = frozen(started + 500);
    expect((await instance(later).take([{ bucket: 'ip:198.51.100.7', rule: tight }]))?.allowed).toBe(true);
    const readings = [started, started + 500]; // its first reading, then the time of its second attempt
    const earlier: Clock = { now: () => new Date(readings.length > 1 ? readings.shift()! : readings[0]!) };
    expect((await instance(earlier).take([{ bucket: 'ip:198.51.100.7', rule: tight }]))?.allowed).toBe(true);
    // The burst is spent: a third is refused, by either clock.
    expect((await instance(later).take([{ bucket: 'ip:198.51.100.7', rule: tight }]))?.allowed).toBe(false);
  });

  it('refills with time, from any instance', async () => {
    const clock = frozen();
    const [one, two] = [instance(clock), instance(clock)];
    for (let i = 0; i < 20; i++) await one.take([{ bucket: 'ip:198.51.100.1', rule }]);
    expect((await two.take([{ bucket: 'ip:198.51.100.1', rule }]))?.allowed).toBe(false);
    clock.advance(250);
    const after = await Promise.all([one, two, one, two].map((l) => l.take([{ bucket: 'ip:198.51.100.1', rule }])));
    expect(after.filter((a) => a?.allowed)).toHaveLength(2);
  });

  it('takes no token from the IP bucket when the key bucket refuses', async () => {
    const clock = frozen();
    const limiter = new DynamoRateLimiter(table, clock);
    const tight: RateRule = { perSecond: 1, burst: 1 };
    expect((await limiter.take([{ bucket: 'key:key_c', rule: tight }]))?.allowed).toBe(true);
    const tatBefore = (await bucketItem('RATE#ip#2001:db8::1'))?.tat;
    const refused = await limiter.take([{ bucket: 'ip:2001:db8::1', rule }, { bucket: 'key:key_c', rule: tight }]);
    expect(refused).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    const ipAfter = await limiter.take([{ bucket: 'ip:2001:db8::1', rule }]);
    expect(ipAfter).toMatchObject({ allowed: true, remaining: 19 });
    expect(tatBefore).toBeUndefined();
  });

  it('answers null, touching nothing, when every rule is off', async () => {
    const limiter = new DynamoRateLimiter(table, frozen());
    expect(await limiter.take([{ bucket: 'key:key_d', rule: { perSecond: 0, burst: 20 } }])).toBeNull();
    expect(await bucketItem('RATE#key#key_d')).toBeUndefined();
  });
});
