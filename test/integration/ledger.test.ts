// Credits ledger on DynamoDB Local: charge, refund exactly once, concurrency never overdraws.
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '@rivals/core';
import { engineReturning, ScriptedEngine } from '../fakes.js';
import { freshTable, servicesOn, type TestTable } from '../setup/table.js';

let table: TestTable;
beforeEach(async () => {
  table = await freshTable();
});

const ledgerEntries = async (accountId: string) =>
  (
    await table.client.send(
      new QueryCommand({
        TableName: table.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        ExpressionAttributeValues: { ':pk': `ACCOUNT#${accountId}`, ':p': 'LEDGER#' },
      }),
    )
  ).Items ?? [];

describe('credits ledger', () => {
  it('charges one credit for a search that returns results, and records it', async () => {
    // Prepare
    const s = servicesOn(table, engineReturning(12));
    const account = await s.accounts.open('Acme', 3);
    // Act
    const { searchId, result } = await s.search.search(account.id, { domain: 'https://www.example.com/pricing', limit: 10 });
    // Assess
    expect(result.domain).toBe('example.com');
    expect(result.totalCompetitors).toBe(10);
    expect(result.creditsRemaining).toBe(2);
    expect(await s.ledger.balance(account.id)).toBe(2);
    const stored = await s.searches.get(account.id, searchId);
    expect(stored).toMatchObject({ status: 'succeeded', domain: 'example.com', totalCompetitors: 10 });
    expect(stored?.competitors?.[0]?.evidence.sharedCategories).toEqual(['crm']);
    expect((await ledgerEntries(account.id)).map((e) => e.amount).sort()).toEqual([-1, 3]);
  });

  it('refunds a search that finds nothing, before answering, and marks it failed', async () => {
    const s = servicesOn(table, engineReturning(0));
    const account = await s.accounts.open('Acme', 1);
    const error = await s.search.search(account.id, { domain: 'example.com', limit: 100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'no_competitors_found', extra: { refunded: true, creditsRemaining: 1 } });
    expect(await s.ledger.balance(account.id)).toBe(1);
    expect((await ledgerEntries(account.id)).map((e) => e.amount).sort()).toEqual([-1, 1, 1]);
  });

  it('says why a search found nothing, on the error and in the stored search', async () => {
    const s = servicesOn(table, new ScriptedEngine(() => ({ targetSource: 'none', competitors: [], failureReason: 'homepage_unreachable' })));
    const account = await s.accounts.open('Acme', 1);
    const error = (await s.search.search(account.id, { domain: 'unknown-startup.com', limit: 10 }).catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ code: 'no_competitors_found', extra: { reason: 'homepage_unreachable', refunded: true } });
    expect(error.message).toMatch(/homepage could not be read/);
    const [item] = (await table.client.send(new QueryCommand({ TableName: table.tableName, KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)', ExpressionAttributeValues: { ':pk': `ACCOUNT#${account.id}`, ':p': 'SEARCH#' } }))).Items ?? [];
    const stored = await s.queries.find(account.id, item!.id as string);
    expect(stored).toMatchObject({ status: 'failed', error: 'no_competitors_found', reason: 'homepage_unreachable' });
  });

  it('refunds when the engine fails, and a second refund of the same search does nothing', async () => {
    const s = servicesOn(table, new ScriptedEngine(() => Promise.reject(new Error('boom'))));
    const account = await s.accounts.open('Acme', 2);
    const error = await s.search.search(account.id, { domain: 'example.com', limit: 100 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'research_failed', extra: { refunded: true, creditsRemaining: 2 } });
    const [failed] = (await ledgerEntries(account.id)).filter((e) => e.reason === 'refund');
    const again = await s.ledger.refundSearch(account.id, failed!.reference as string, { error: 'x', completedAt: new Date().toISOString(), elapsedSeconds: 0 });
    expect(again).toBe(false);
    expect(await s.ledger.balance(account.id)).toBe(2);
  });

  it('refuses a search with no credit left, writing nothing', async () => {
    const s = servicesOn(table, engineReturning(5));
    const account = await s.accounts.open('Acme', 0);
    const error = await s.search.search(account.id, { domain: 'example.com', limit: 100 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'insufficient_credits', extra: { creditsRemaining: 0, creditsRequired: 1 } });
    expect(await ledgerEntries(account.id)).toHaveLength(1); // the opening entry only
  });

  it('lets exactly 5 of 20 concurrent searches through on 5 credits, never going below 0', async () => {
    const s = servicesOn(table, new ScriptedEngine(async () => {
      await new Promise((r) => setTimeout(r, 20));
      return engineReturning(3).research({ domain: 'x' });
    }));
    const account = await s.accounts.open('Acme', 5);
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => s.search.search(account.id, { domain: `company${i}.com`, limit: 10 })));
    const succeeded = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason as ApiError);
    expect(succeeded).toHaveLength(5);
    expect(refused).toHaveLength(15);
    expect(refused.every((e) => e.code === 'insufficient_credits')).toBe(true);
    expect(await s.ledger.balance(account.id)).toBe(0);
    expect(await s.audit.audit(account.id)).toMatchObject({ consistent: true, entries: 6, byReason: { 'opening credits': 5, search: -5 } });
  });

  it('finds a balance that no ledger entry explains', async () => {
    const s = servicesOn(table, engineReturning(1));
    const account = await s.accounts.open('Acme', 3);
    await table.client.send(new UpdateCommand({ TableName: table.tableName, Key: { pk: `ACCOUNT#${account.id}`, sk: 'ACCOUNT' }, UpdateExpression: 'SET credits = :c', ExpressionAttributeValues: { ':c': 9 } }));
    expect(await s.audit.audit(account.id)).toMatchObject({ consistent: false, balance: 9, ledgerTotal: 3 });
  });

  it('adds operator grants to the balance', async () => {
    const s = servicesOn(table, engineReturning(1));
    const account = await s.accounts.open('Acme', 10);
    expect(await s.accounts.grant(account.id, 5)).toBe(15);
    await expect(s.accounts.grant('acct_missing', 5)).rejects.toMatchObject({ code: 'not_found' });
  });
});
