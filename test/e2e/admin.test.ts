// The operator command against a table on DynamoDB Local: open an account with a key, grant credits, read the balance.
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../packages/local/src/engines.js';
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

describe('npm run admin against the local service', () => {
  /** Runs admin with no table, against the local service on `port`; resolves with its exit code and output. */
  const adminLocal = (port: number, ...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const env = { ...process.env };
      delete env.TABLE_NAME;
      execFile(process.execPath, ['--import', 'tsx', join(ROOT, 'packages/local/src/admin.ts'), '--port', String(port), ...args], { cwd: ROOT, env }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      );
    });

  const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid;

  it.each([
    ['no runtime.json for the port', null],
    ['a runtime.json whose process is gone', { pid: deadPid(), up: true }],
    ['a runtime.json whose URL does not answer', { pid: process.pid, up: false }],
  ])('says the service is not running when there is %s', { timeout: 30_000 }, async (_, stale) => {
    const port = await freePort();
    const dir = join(ROOT, '.local', String(port));
    try {
      if (stale) {
        mkdirSync(dir, { recursive: true });
        // A URL that answers (this test's own table endpoint stands in) or one where nothing listens.
        const url = stale.up ? (await freshTable()).endpoint : `http://127.0.0.1:${await freePort()}`;
        writeFileSync(join(dir, 'runtime.json'), JSON.stringify({ url, pid: stale.pid, port, endpoints: { dynamodb: url }, resources: { tableName: 'x' } }));
      }
      const res = await adminLocal(port, 'balance', '--account', 'acct_dev');
      expect(res.code).toBe(1);
      expect(res.stderr).toContain('the local service is not running (start it with npm start)');
      expect(res.stderr).toContain(`port ${port}`);
      expect(res.stderr).not.toMatch(/ECONNREFUSED/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
