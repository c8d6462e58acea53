// API keys on DynamoDB Local: only the hash is stored; the authorizer's reads are strongly consistent and go through the
// hash claim; revocation, the per-account count of live keys, lastUsedAt and paging.
import { DeleteCommand, GetCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { ApiKeyService, hashApiKey, ulidIds, type Clock } from '@rivals/core';
import { DynamoApiKeyStore } from '@rivals/db';
import { engineReturning } from '../fakes.js';
import { freshTable, servicesOn, type TestTable } from '../setup/table.js';

let table: TestTable;
let s: ReturnType<typeof servicesOn>;
beforeEach(async () => {
  table = await freshTable();
  s = servicesOn(table, engineReturning(1));
});

const accountItem = async (accountId: string) =>
  (await table.client.send(new GetCommand({ TableName: table.tableName, Key: { pk: `ACCOUNT#${accountId}`, sk: 'ACCOUNT' }, ConsistentRead: true }))).Item;
const claimItem = async (key: string) =>
  (await table.client.send(new GetCommand({ TableName: table.tableName, Key: { pk: `APIKEYHASH#${hashApiKey(key)}`, sk: 'APIKEYHASH' }, ConsistentRead: true }))).Item;

describe('API keys', () => {
  it('issues sk-live- keys of 40 base62 characters and stores only their hash, without GSI attributes', async () => {
    const account = await s.accounts.open('Acme', 1);
    const { key, record } = await s.apiKeys.issue(account.id, 'ci');
    expect(key).toMatch(/^sk-live-[0-9A-Za-z]{40}$/);
    expect(record).toMatchObject({ prefix: key.slice(0, 12), last4: key.slice(-4), hash: hashApiKey(key), revokedAt: null });
    const { Items = [] } = await table.client.send(new ScanCommand({ TableName: table.tableName }));
    expect(JSON.stringify(Items)).not.toContain(key);
    expect(Items.filter((item) => 'gsi1pk' in item)).toEqual([]);
    expect(await claimItem(key)).toMatchObject({ accountId: account.id, keyId: record.id });
  });

  it('authenticates a live key by its hash and refuses unknown, malformed and revoked keys', async () => {
    const account = await s.accounts.open('Acme', 1);
    await s.apiKeys.issue(account.id, 'spare');
    const { key, record } = await s.apiKeys.issue(account.id);
    expect(await s.apiKeys.authenticate(key)).toEqual({ accountId: account.id, keyId: record.id });
    expect(await s.apiKeys.authenticate(`sk-live-${'A'.repeat(40)}`)).toBeNull();
    expect(await s.apiKeys.authenticate('sk-live-short')).toBeNull();
    await s.apiKeys.revoke(account.id, record.id);
    expect(await s.apiKeys.authenticate(key)).toBeNull();
    expect(await claimItem(key)).toMatchObject({ revokedAt: expect.any(String) });
    const { items } = await s.apiKeys.list(account.id, { limit: 10 });
    expect(items.find((k) => k.id === record.id)?.revokedAt).toEqual(expect.any(String));
  });

  it('refuses a key revoked on its record only (a claim written before claims carried revokedAt)', async () => {
    const account = await s.accounts.open('Acme', 1);
    const { key, record } = await s.apiKeys.issue(account.id);
    await table.client.send(
      new UpdateCommand({ TableName: table.tableName, Key: { pk: `ACCOUNT#${account.id}`, sk: `APIKEY#${record.id}` }, UpdateExpression: 'SET revokedAt = :t', ExpressionAttributeValues: { ':t': 'x' } }),
    );
    expect(await s.apiKeys.authenticate(key)).toBeNull();
  });

  it('refuses a live key whose account item no longer exists', async () => {
    const account = await s.accounts.open('Acme', 1);
    const { key } = await s.apiKeys.issue(account.id);
    await table.client.send(new DeleteCommand({ TableName: table.tableName, Key: { pk: `ACCOUNT#${account.id}`, sk: 'ACCOUNT' } }));
    expect(await s.apiKeys.authenticate(key)).toBeNull();
  });

  it('accepts a preset development key once', async () => {
    const account = await s.accounts.open('Acme', 1);
    const preset = `sk-live-${'x1'.repeat(20)}`;
    await s.apiKeys.issue(account.id, 'dev', preset);
    await expect(s.apiKeys.issue(account.id, 'dev', preset)).rejects.toMatchObject({ code: 'conflict' });
    expect(await accountItem(account.id)).toMatchObject({ activeKeys: 1 });
  });

  it('never revokes the last live key through the API, even when two revocations race; an operator may', async () => {
    const account = await s.accounts.open('Acme', 1);
    const a = await s.apiKeys.create(account.id, 'a');
    const b = await s.apiKeys.create(account.id, 'b');
    const results = await Promise.allSettled([s.apiKeys.revoke(account.id, a.record.id), s.apiKeys.revoke(account.id, b.record.id)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'conflict' } });
    expect(await accountItem(account.id)).toMatchObject({ activeKeys: 1 });
    const live = (await s.apiKeys.list(account.id, { limit: 10 })).items.filter((k) => !k.revokedAt);
    expect(live).toHaveLength(1);
    await s.apiKeys.revoke(account.id, live[0]!.id, { keepOneActive: false });
    expect(await accountItem(account.id)).toMatchObject({ activeKeys: 0 });
  });

  it('revokes idempotently, and answers not_found for an unknown key or another account’s', async () => {
    const acme = await s.accounts.open('Acme', 1);
    const globex = await s.accounts.open('Globex', 1);
    const [first] = [await s.apiKeys.create(acme.id), await s.apiKeys.create(acme.id)];
    const theirs = await s.apiKeys.create(globex.id);
    await s.apiKeys.revoke(acme.id, first.record.id);
    await s.apiKeys.revoke(acme.id, first.record.id);
    expect(await accountItem(acme.id)).toMatchObject({ activeKeys: 1 });
    await expect(s.apiKeys.revoke(acme.id, theirs.record.id)).rejects.toMatchObject({ code: 'not_found' });
    await expect(s.apiKeys.revoke(acme.id, 'key_01jzzzzzzzzzzzzzzzzzzzzzzz')).rejects.toMatchObject({ code: 'not_found' });
    await expect(s.apiKeys.revoke(acme.id, 'nonsense')).rejects.toMatchObject({ code: 'not_found' });
    expect(await s.apiKeys.authenticate(theirs.key)).toEqual({ accountId: globex.id, keyId: theirs.record.id });
  });

  it('caps the live keys an account creates through the API', async () => {
    const account = await s.accounts.open('Acme', 1);
    await table.client.send(
      new UpdateCommand({ TableName: table.tableName, Key: { pk: `ACCOUNT#${account.id}`, sk: 'ACCOUNT' }, UpdateExpression: 'SET activeKeys = :n', ExpressionAttributeValues: { ':n': 100 } }),
    );
    await expect(s.apiKeys.create(account.id)).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('at most 100') });
    await expect(s.apiKeys.create('acct_missing')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('counts the live keys of an account opened before the count existed, once', async () => {
    const account = await s.accounts.open('Acme', 1);
    const old = await s.apiKeys.issue(account.id);
    await s.apiKeys.issue(account.id);
    await table.client.send(new UpdateCommand({ TableName: table.tableName, Key: { pk: `ACCOUNT#${account.id}`, sk: 'ACCOUNT' }, UpdateExpression: 'REMOVE activeKeys' }));
    await s.apiKeys.revoke(account.id, old.record.id);
    expect(await accountItem(account.id)).toMatchObject({ activeKeys: 1 });
  });

  it('records lastUsedAt at most once a minute', async () => {
    const account = await s.accounts.open('Acme', 1);
    let now = new Date('2026-01-01T00:00:00.000Z');
    const clock: Clock = { now: () => now };
    const keys = new ApiKeyService({ keys: new DynamoApiKeyStore(table), clock, ids: ulidIds() });
    const { key, record } = await keys.issue(account.id);
    const lastUsed = async () => (await keys.list(account.id, { limit: 1 })).items[0]?.lastUsedAt;
    expect(await lastUsed()).toBeNull();
    await keys.authenticate(key);
    expect(await lastUsed()).toBe('2026-01-01T00:00:00.000Z');
    now = new Date('2026-01-01T00:00:59.000Z');
    await keys.authenticate(key);
    expect(await lastUsed()).toBe('2026-01-01T00:00:00.000Z');
    now = new Date('2026-01-01T00:01:01.000Z');
    await keys.authenticate(key);
    expect(await lastUsed()).toBe('2026-01-01T00:01:01.000Z');
    await keys.revoke(account.id, record.id, { keepOneActive: false });
    now = new Date('2026-01-01T00:05:00.000Z');
    await keys.authenticate(key);
    expect(await lastUsed()).toBe('2026-01-01T00:01:01.000Z');
  });

  it('lists keys newest first in pages, and refuses a forged cursor', async () => {
    const account = await s.accounts.open('Acme', 1);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await s.apiKeys.create(account.id, `k${i}`)).record.id);
    const first = await s.apiKeys.list(account.id, { limit: 2 });
    const second = await s.apiKeys.list(account.id, { limit: 2, cursor: first.nextCursor! });
    const third = await s.apiKeys.list(account.id, { limit: 2, cursor: second.nextCursor! });
    expect([...first.items, ...second.items, ...third.items].map((k) => k.id)).toEqual(ids.reverse());
    expect(third.nextCursor).toBeNull();
    const forged = Buffer.from('SEARCH#srch_x').toString('base64url');
    await expect(s.apiKeys.list(account.id, { limit: 2, cursor: forged })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(s.apiKeys.list(account.id, { limit: 2, cursor: '!!' })).rejects.toMatchObject({ code: 'invalid_request' });
  });
});
