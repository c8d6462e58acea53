// Share links on DynamoDB Local: 256-bit tokens, only their hash in the public lookup, the same live link on a second
// share, revocation at once, a new token after it, and nothing of the account in what the link shows.
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { SharedSearch } from '@rivals/contracts';
import { hashShareToken } from '@rivals/core';
import { competitor, ScriptedEngine } from '../fakes.js';
import { freshTable, servicesOn, type TestTable } from '../setup/table.js';

let table: TestTable;
beforeEach(async () => {
  table = await freshTable();
});

const engine = new ScriptedEngine((domain) => ({ targetSource: 'knowledge-base', competitors: domain.startsWith('none') ? [] : [competitor(1), competitor(2)] }));

describe('share links (service and adapter)', () => {
  it('creates a 256-bit token once, stores only its hash in the lookup, and answers the same live link again', async () => {
    // Prepare
    const s = servicesOn(table, engine);
    const account = await s.accounts.open('Acme', 5);
    const { searchId } = await s.search.search(account.id, { domain: 'acme.com', limit: 10 }, { source: 'bulk', jobId: 'job_x' });
    // Act
    const first = await s.shares.share(account.id, searchId, 'https://d111.cloudfront.net');
    const again = await s.shares.share(account.id, searchId, 'https://d111.cloudfront.net');
    // Assess
    expect(first.created).toBe(true);
    expect(first.link).toEqual({ token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), url: `https://d111.cloudfront.net/share/${first.link.token}`, createdAt: expect.any(String) });
    expect(again).toEqual({ link: first.link, created: false });
    const { Items = [] } = await table.client.send(new ScanCommand({ TableName: table.tableName }));
    const lookups = Items.filter((i) => String(i.pk).startsWith('SHARE#'));
    expect(lookups).toHaveLength(1);
    expect(lookups[0]!.pk).toBe(`SHARE#${hashShareToken(first.link.token)}`);
    expect(JSON.stringify(lookups)).not.toContain(first.link.token);
  });

  it('shows the search read-only, without account, search id or job', async () => {
    const s = servicesOn(table, engine);
    const account = await s.accounts.open('Acme', 5);
    const { searchId } = await s.search.search(account.id, { domain: 'acme.com', limit: 10 }, { source: 'bulk', jobId: 'job_x' });
    const { link } = await s.shares.share(account.id, searchId);
    const shown = await s.shares.read(link.token);
    expect(SharedSearch.parse(shown)).toMatchObject({ domain: 'acme.com', totalCompetitors: 2, competitors: [{ rank: 1 }, { rank: 2 }] });
    const text = JSON.stringify(shown);
    for (const secret of [account.id, searchId, 'job_x', link.token]) expect(text).not.toContain(secret);
  });

  it('revokes at once (idempotently); the next share makes a new token', async () => {
    const s = servicesOn(table, engine);
    const account = await s.accounts.open('Acme', 5);
    const { searchId } = await s.search.search(account.id, { domain: 'acme.com', limit: 10 });
    const { link } = await s.shares.share(account.id, searchId);
    await s.shares.revoke(account.id, searchId);
    await s.shares.revoke(account.id, searchId);
    await expect(s.shares.read(link.token)).rejects.toMatchObject({ code: 'not_found' });
    const renewed = await s.shares.share(account.id, searchId);
    expect(renewed.created).toBe(true);
    expect(renewed.link.token).not.toBe(link.token);
    expect(await s.shares.read(renewed.link.token)).toMatchObject({ domain: 'acme.com' });
    await expect(s.shares.read(link.token)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('answers 404 for unknown tokens and for another account\'s search, 409 for a failed search', async () => {
    const s = servicesOn(table, engine);
    const owner = await s.accounts.open('Owner', 5);
    const other = await s.accounts.open('Other', 5);
    const { searchId } = await s.search.search(owner.id, { domain: 'acme.com', limit: 10 });
    await s.search.search(owner.id, { domain: 'none.com', limit: 10 }).catch(() => undefined);
    const failed = (await s.queries.history(owner.id, { limit: 1 })).items[0]!;
    for (const token of ['', 'short', 'A'.repeat(43), `${'A'.repeat(42)}!`]) await expect(s.shares.read(token)).rejects.toMatchObject({ code: 'not_found' });
    await expect(s.shares.share(other.id, searchId)).rejects.toMatchObject({ code: 'not_found' });
    await expect(s.shares.revoke(other.id, searchId)).rejects.toMatchObject({ code: 'not_found' });
    await expect(s.shares.share(owner.id, failed.id)).rejects.toMatchObject({ code: 'conflict' });
  });

  it('makes one link when two shares race', async () => {
    const s = servicesOn(table, engine);
    const account = await s.accounts.open('Acme', 5);
    const { searchId } = await s.search.search(account.id, { domain: 'acme.com', limit: 10 });
    const results = await Promise.all(Array.from({ length: 5 }, () => s.shares.share(account.id, searchId)));
    expect(new Set(results.map((r) => r.link.token)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
  });
});
