// The local runtime on a DATA_DIR: one instance at a time (a second start is refused with a clear message, a lock
// left by a dead process is taken over), instance files kept per port, and DynamoDB Local restarted with its data.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockDataDir } from '../../packages/local/src/instance.js';
import { startLocal, type LocalService } from '../../packages/local/src/runtime.js';

const dataDir = mkdtempSync(join(tmpdir(), 'rivals-data-'));
const stateDir = mkdtempSync(join(tmpdir(), 'rivals-state-'));
const fatal: Error[] = [];
let service: LocalService;
beforeAll(async () => {
  // A lock left by a process that is gone (a crash, kill -9) does not block the start.
  writeFileSync(join(dataDir, 'rivals.lock'), JSON.stringify({ pid: spawnSync(process.execPath, ['-e', '']).pid, port: 1 }));
  service = await startLocal({ port: 0, dataDir, stateDir, devCredits: 30, onFatal: (e) => fatal.push(e) });
}, 120_000);
afterAll(async () => {
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(stateDir, { recursive: true, force: true });
});

const port = () => new URL(service.url).port;
const call = async (path: string, init: RequestInit = {}) => {
  const res = await fetch(`${service.url}${path}`, { ...init, headers: { 'x-api-key': service.apiKey, 'content-type': 'application/json', ...init.headers } });
  return { status: res.status, body: (await res.json()) as any };
};

describe('local runtime on a DATA_DIR', () => {
  it('holds the data directory, and writes its files under its port', () => {
    expect(JSON.parse(readFileSync(join(dataDir, 'rivals.lock'), 'utf8'))).toMatchObject({ pid: process.pid });
    expect(service.keyFile).toBe(join(stateDir, port(), 'dev-api-key'));
    expect(readFileSync(service.keyFile!, 'utf8').trim()).toBe(service.apiKey);
    const runtime = JSON.parse(readFileSync(join(stateDir, port(), 'runtime.json'), 'utf8'));
    expect(runtime).toMatchObject({ url: service.url, pid: process.pid, dataDir, endpoints: service.endpoints });
  });

  it('refuses a second instance on the same DATA_DIR, saying which holds it', async () => {
    await expect(startLocal({ port: 0, dataDir, keyFile: null })).rejects.toThrow(`DATA_DIR ${dataDir} is in use by another Rivals instance (pid ${process.pid}`);
    expect(() => lockDataDir(dataDir, 0)).toThrow(/in use by another Rivals instance/);
    // The refused start left the running instance alone.
    expect((await call('/api/v1/balance')).status).toBe(200);
  });

  it('restarts DynamoDB Local when it dies, and keeps the data of the DATA_DIR', { timeout: 90_000 }, async () => {
    await call('/api/v1/search', { method: 'POST', body: JSON.stringify({ domain: 'stripe.com', limit: 3 }) });
    const before = (await call('/api/v1/balance')).body.creditsRemaining;
    expect(before).toBe(29);

    const dynamoPort = new URL(service.endpoints.dynamodb).port;
    const java = execFileSync('ps', ['-eo', 'pid=,comm=,args='], { encoding: 'utf8' })
      .split('\n')
      .map((l) => l.trim().split(/\s+/))
      .find(([, comm, ...args]) => comm === 'java' && args.join(' ').includes(`-port ${dynamoPort} `))?.[0];
    process.kill(Number(java), 'SIGKILL');

    let sawDegraded = false;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const res = await fetch(`${service.url}/api/health`);
      const body = (await res.json()) as { failing?: string[] };
      if (res.status === 503) {
        sawDegraded = true;
        expect(body.failing).toEqual(['dynamodb']);
      }
      if (sawDegraded && res.status === 200 && (await call('/api/v1/balance')).status === 200) break;
      if (Date.now() > deadline) throw new Error('DynamoDB Local was not restarted');
      await new Promise((r) => setTimeout(r, 200));
    }
    expect((await call('/api/v1/balance')).body.creditsRemaining).toBe(before);
    expect(fatal).toEqual([]);
  });

  it('releases the data directory and its runtime.json when stopped', async () => {
    const file = join(stateDir, port(), 'runtime.json');
    await service.stop();
    expect(existsSync(join(dataDir, 'rivals.lock'))).toBe(false);
    expect(existsSync(file)).toBe(false);
    mkdirSync(dataDir, { recursive: true });
    lockDataDir(dataDir, 0)();
  });
});
