// The operator command against a table on DynamoDB Local: open an account with a key, grant credits, read the balance.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { freshTable } from '../setup/table.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');

async function admin(endpoint: string, table: string, ...args: string[]) {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', join(ROOT, 'packages/local/src/admin.ts'), '--table', table, ...args], {
    cwd: ROOT,
    env: { ...process.env, AWS_ENDPOINT_URL_DYNAMODB: endpoint, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' },
  });
  return JSON.parse(stdout);
}

describe('npm run admin', () => {
  it('opens an account with its credits and first key, grants credits and reports the balance', { timeout: 60_000 }, async () => {
    const table = await freshTable();
    const opened = await admin(table.endpoint, table.tableName, 'create-account', '--name', 'Acme', '--credits', '3');
    expect(opened.account).toMatchObject({ name: 'Acme', credits: 3, id: expect.stringMatching(/^acct_/) });
    expect(opened.apiKey).toMatch(/^sk-live-[0-9A-Za-z]{40}$/);
    const accountId = opened.account.id as string;
    expect(await admin(table.endpoint, table.tableName, 'grant', '--account', accountId, '--credits', '7')).toEqual({ accountId, creditsRemaining: 10 });
    expect(await admin(table.endpoint, table.tableName, 'balance', '--account', accountId)).toEqual({ accountId, creditsRemaining: 10 });
    const issued = await admin(table.endpoint, table.tableName, 'issue-key', '--account', accountId, '--name', 'crm');
    expect(issued).toMatchObject({ apiKey: expect.stringMatching(/^sk-live-/), keyId: expect.stringMatching(/^key_/) });
    await expect(admin(table.endpoint, table.tableName, 'grant', '--account', accountId, '--credits', 'lots')).rejects.toThrow(/whole number/);
  });
});
