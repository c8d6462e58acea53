// API keys on DynamoDB Local: only the hash is stored, lookup by hash through GSI1, revocation is immediate.
import { DeleteCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { hashApiKey } from '@rivals/core';
import { engineReturning } from '../fakes.js';
import { freshTable, servicesOn, type TestTable } from '../setup/table.js';

let table: TestTable;
beforeEach(async () => {
  table = await freshTable();
});

describe('API keys', () => {
  it('issues sk-live- keys of 40 base62 characters and stores only their hash', async () => {
    const s = servicesOn(table, engineReturning(1));
    const account = await s.accounts.open('Acme', 1);
    const { key, record } = await s.apiKeys.issue(account.id, 'ci');
    expect(key).toMatch(/^sk-live-[0-9A-Za-z]{40}$/);
    expect(record).toMatchObject({ prefix: key.slice(0, 12), last4: key.slice(-4), hash: hashApiKey(key), revokedAt: null });
    const { Items } = await table.client.send(new ScanCommand({ TableName: table.tableName }));
    expect(JSON.stringify(Items)).not.toContain(key);
  });

  it('authenticates a live key by its hash and refuses unknown, malformed and revoked keys', async () => {
    const s = servicesOn(table, engineReturning(1));
    const account = await s.accounts.open('Acme', 1);
    const { key, record } = await s.apiKeys.issue(account.id);
    expect(await s.apiKeys.authenticate(key)).toEqual({ accountId: account.id, keyId: record.id });
    expect(await s.apiKeys.authenticate(`sk-live-${'A'.repeat(40)}`)).toBeNull();
    expect(await s.apiKeys.authenticate('sk-live-short')).toBeNull();
    await s.apiKeys.revoke(account.id, record.id);
    expect(await s.apiKeys.authenticate(key)).toBeNull();
    const [listed] = await s.apiKeys.list(account.id);
    expect(listed?.revokedAt).toEqual(expect.any(String));
  });

  it('refuses a live key whose account item no longer exists', async () => {
    const s = servicesOn(table, engineReturning(1));
    const account = await s.accounts.open('Acme', 1);
    const { key } = await s.apiKeys.issue(account.id);
    await table.client.send(new DeleteCommand({ TableName: table.tableName, Key: { pk: `ACCOUNT#${account.id}`, sk: 'ACCOUNT' } }));
    expect(await s.apiKeys.authenticate(key)).toBeNull();
  });

  it('accepts a preset development key once', async () => {
    const s = servicesOn(table, engineReturning(1));
    const account = await s.accounts.open('Acme', 1);
    const preset = `sk-live-${'x1'.repeat(20)}`;
    await s.apiKeys.issue(account.id, 'dev', preset);
    await expect(s.apiKeys.issue(account.id, 'dev', preset)).rejects.toMatchObject({ code: 'conflict' });
  });
});
