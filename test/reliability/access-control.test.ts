// Reliability: access control on DynamoDB Local. Secrets at rest: after a whole account's life (keys issued and
// revoked, searches, share links, a bulk job, a webhook secret), the raw items of the table hold no API key and no
// share token anywhere but the one documented place (the owner's own search, so that sharing again answers the same
// link); the public lookups hold only hashes. Guessing: share tokens are 256-bit random strings, and ids that are
// guessed (neighbours of real ones, random ones, another account's) answer not_found. (The ownership walk over every
// id-taking route of infra/routes.ts is test/e2e/account-data.test.ts.)
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { generateShareToken, hashApiKey, hashShareToken } from '@rivals/core';
import { engineReturning } from '../fakes.js';
import { bulkOn } from '../setup/bulk.js';
import { freshTable, servicesOn } from '../setup/table.js';

/** The id with its last character changed to the next one of the ULID alphabet: what an enumerator tries first. */
const neighbour = (id: string, step = 1) => {
  const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';
  const last = alphabet.indexOf(id.at(-1)!);
  return id.slice(0, -1) + alphabet[(last + step + alphabet.length) % alphabet.length];
};

describe('secrets at rest', () => {
  it('no raw item holds an API key; share tokens only on their owner\'s search; lookups by hash', async () => {
    // Prepare: a whole account's life.
    const table = await freshTable();
    const s = servicesOn(table, engineReturning(3));
    const bulk = bulkOn(table, engineReturning(3));
    const account = await s.accounts.open('Secrets', 20);
    const issued = await s.apiKeys.issue(account.id, 'ops');
    const created = await s.apiKeys.create(account.id, 'ci');
    const revoked = await s.apiKeys.create(account.id, 'old');
    await s.apiKeys.revoke(account.id, revoked.record.id);
    const searches = await Promise.all(['stripe.com', 'adyen.com', 'hubspot.com'].map((domain) => s.search.search(account.id, { domain, limit: 5 })));
    const links = await Promise.all(searches.map((x) => s.shares.share(account.id, x.searchId)));
    await s.shares.revoke(account.id, searches[2]!.searchId);
    await bulk.bulk.upload(account.id, ['good.com\nother.com'], { limit: 5 });
    for (const m of bulk.queue.take()) await bulk.worker.process(m);
    await bulk.webhooks.rotateSecret(account.id);
    // Act: every raw item of the table (a test may scan; the service never does).
    const { Items = [] } = await table.client.send(new ScanCommand({ TableName: table.tableName }));
    // Assess
    const raw = Items.map((item) => JSON.stringify(item));
    const keys = [issued.key, created.key, revoked.key];
    for (const key of keys) {
      expect(raw.filter((text) => text.includes(key))).toEqual([]);
      expect(raw.filter((text) => text.includes(key.slice(8)))).toEqual([]); // not even without its prefix
      expect(raw.some((text) => text.includes(hashApiKey(key)))).toBe(true);
    }
    for (const { link } of links) {
      const holders = Items.filter((item) => JSON.stringify(item).includes(link.token));
      // At most the owner's own search item (revoked links: nowhere), never a lookup or any other item.
      expect(holders.length).toBeLessThanOrEqual(1);
      for (const holder of holders) expect([holder.pk, String(holder.sk).startsWith('SEARCH#')]).toEqual([`ACCOUNT#${account.id}`, true]);
      expect(Items.filter((item) => String(item.pk).startsWith('SHARE#')).every((item) => !JSON.stringify(item).includes(link.token))).toBe(true);
    }
    const lookups = Items.filter((item) => String(item.pk).startsWith('SHARE#')).map((item) => item.pk);
    expect(lookups.sort()).toEqual(links.slice(0, 2).map(({ link }) => `SHARE#${hashShareToken(link.token)}`).sort());
    console.log(`[reliability] secrets at rest: ${JSON.stringify({ items: Items.length, apiKeysInPlaintext: 0, shareLookupsByHash: lookups.length })}`);
  });
});

describe('guessing', () => {
  it('share tokens are 256-bit random strings: distinct, every position varying, base64url of 43 characters', () => {
    const tokens = Array.from({ length: 2_000 }, generateShareToken);
    expect(new Set(tokens).size).toBe(tokens.length);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Every position takes many values (a counter or a timestamp would not).
    for (let i = 0; i < 42; i++) expect(new Set(tokens.map((t) => t[i])).size, `position ${i}`).toBeGreaterThan(50);
    expect(new Set(tokens.map((t) => t[42])).size).toBe(16); // the last character carries the 256th-bit remainder: 4 bits
    // Bits of entropy per character, estimated over all of them: log2(64) = 6 for uniform base64url.
    const counts = new Map<string, number>();
    for (const c of tokens.join('').slice(0, 2_000 * 42)) counts.set(c, (counts.get(c) ?? 0) + 1);
    const n = 2_000 * 42;
    const entropy = -[...counts.values()].reduce((sum, k) => sum + (k / n) * Math.log2(k / n), 0);
    expect(entropy).toBeGreaterThan(5.95);
    console.log(`[reliability] share tokens: ${JSON.stringify({ sampled: tokens.length, length: 43, bitsPerChar: Number(entropy.toFixed(3)), bits: Math.floor(entropy * 42 + 4) })}`);
  });

  it('guessed ids and tokens answer not_found: neighbours of real ones, random ones, another account\'s', async () => {
    // Prepare
    const table = await freshTable();
    const s = servicesOn(table, engineReturning(3));
    const bulk = bulkOn(table, engineReturning(3));
    const owner = await s.accounts.open('Owner', 10);
    const stranger = await s.accounts.open('Stranger', 10);
    const { searchId } = await s.search.search(owner.id, { domain: 'stripe.com', limit: 5 });
    const { link } = await s.shares.share(owner.id, searchId);
    const { jobId } = await bulk.bulk.upload(owner.id, ['good.com'], { limit: 5 });
    const key = await s.apiKeys.create(owner.id, 'ci');
    // Act & Assess
    const guesses = { searches: [neighbour(searchId), neighbour(searchId, -1), neighbour(searchId, 2), `srch_${'0'.repeat(26)}`], jobs: [neighbour(jobId), neighbour(jobId, -1), `job_${'z'.repeat(26)}`] };
    let tried = 0;
    for (const id of guesses.searches) {
      await expect(s.queries.find(owner.id, id)).rejects.toMatchObject({ code: 'not_found' });
      tried++;
    }
    for (const id of guesses.jobs) {
      await expect(bulk.bulk.get(owner.id, id, { limit: 5 })).rejects.toMatchObject({ code: 'not_found' });
      tried++;
    }
    for (const token of [neighbour(link.token), link.token.slice(0, -1), `${link.token}A`, generateShareToken(), link.token.toUpperCase()]) {
      if (token === link.token) continue;
      await expect(s.shares.read(token)).rejects.toMatchObject({ code: 'not_found' });
      tried++;
    }
    // Another account's real ids are not found either.
    await expect(s.queries.find(stranger.id, searchId)).rejects.toMatchObject({ code: 'not_found' });
    await expect(bulk.bulk.get(stranger.id, jobId, { limit: 5 })).rejects.toMatchObject({ code: 'not_found' });
    await expect(s.shares.share(stranger.id, searchId)).rejects.toMatchObject({ code: 'not_found' });
    await expect(s.apiKeys.revoke(stranger.id, key.record.id)).rejects.toMatchObject({ code: 'not_found' });
    console.log(`[reliability] guessed ids and tokens: ${tried + 4} tried, all not_found`);
  });
});
