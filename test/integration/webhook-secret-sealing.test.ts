// Webhook signing secrets at rest, on DynamoDB Local: stored sealed (AES-256-GCM under a key outside the table), so
// the raw item holds no secret; read back whole; bound to their account; a secret stored in plain text before sealing
// is still read, and sealed at its next rotation.
import { GetCommand, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AesGcmSealer, keyFromSecretText } from '@rivals/core';
import { DynamoWebhookSecretStore, keys } from '@rivals/db';
import { freshTable } from '../setup/table.js';

const sealer = (key = randomBytes(32)) => new AesGcmSealer(async () => key);

describe('AesGcmSealer', () => {
  it('opens what it sealed, for the same context only, and refuses a tampered or foreign value', async () => {
    const s = sealer();
    const sealed = await s.seal('whsec_abc', 'acct_1');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('whsec_abc');
    expect(await s.open(sealed, 'acct_1')).toBe('whsec_abc');
    expect(await s.seal('whsec_abc', 'acct_1')).not.toBe(sealed); // a fresh IV each time
    await expect(s.open(sealed, 'acct_2')).rejects.toThrow();
    const [v, iv, body, tag] = sealed.split('.');
    await expect(s.open([v, iv, `${body!.slice(0, -2)}AA`, tag].join('.'), 'acct_1')).rejects.toThrow();
    await expect(sealer().open(sealed, 'acct_1')).rejects.toThrow();
    expect(keyFromSecretText('generated-by-secrets-manager')).toHaveLength(32);
  });
});

describe('DynamoWebhookSecretStore with a sealer', () => {
  it('stores the secret sealed, reads it back, and still reads (then seals) a plain one of before', async () => {
    const table = await freshTable();
    const store = new DynamoWebhookSecretStore(table, sealer());
    await store.put('acct_sealed', 'whsec_sealed_secret_value', '2026-01-01T00:00:00Z');
    const { Items = [] } = await table.client.send(new ScanCommand({ TableName: table.tableName }));
    expect(JSON.stringify(Items)).not.toContain('whsec_sealed_secret_value');
    expect(await store.get('acct_sealed')).toBe('whsec_sealed_secret_value');
    expect(await store.has('acct_sealed')).toBe(true);
    expect(await store.has('acct_none')).toBe(false);

    // Written in plain text before sealing existed: read as it is, sealed when rotated.
    await table.client.send(new PutCommand({ TableName: table.tableName, Item: { ...keys.webhookSecret('acct_old'), secret: 'whsec_plain_of_before', createdAt: 'x' } }));
    expect(await store.get('acct_old')).toBe('whsec_plain_of_before');
    await store.put('acct_old', 'whsec_rotated', '2026-01-02T00:00:00Z');
    const { Item } = await table.client.send(new GetCommand({ TableName: table.tableName, Key: keys.webhookSecret('acct_old') }));
    expect(Item).not.toHaveProperty('secret');
    expect(Item?.sealed).toMatch(/^v1\./);
    expect(await store.get('acct_old')).toBe('whsec_rotated');
  });
});
