// `npm start` as a user runs it: it tells what runs where, heals when DynamoDB Local dies (health says so meanwhile),
// the operator command finds it by port, and stopping it (SIGTERM to npm, as an IDE does) or killing it outright
// (SIGKILL of its node process) leaves no process behind.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../packages/local/src/engines.js';

const ROOT = join(import.meta.dirname, '..', '..');
const started: ChildProcess[] = [];
const ports: number[] = [];
afterAll(() => {
  // Whatever a failed test left running, bottom up.
  for (const child of started) {
    for (const p of descendants(child.pid!).reverse()) if (alive(p.pid)) process.kill(p.pid, 'SIGKILL');
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  for (const port of ports) rmSync(join(ROOT, '.local', String(port)), { recursive: true, force: true });
});

/** Every process under `root` (pid, command name, arguments), from ps. */
function descendants(root: number): { pid: number; comm: string; args: string }[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,comm=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [pid, ppid, comm, ...args] = line.trim().split(/\s+/);
      return { pid: Number(pid), ppid: Number(ppid), comm: comm!, args: args.join(' ') };
    });
  const found: typeof rows = [];
  const queue = [root];
  while (queue.length) {
    const parent = queue.shift()!;
    for (const row of rows.filter((r) => r.ppid === parent)) {
      found.push(row);
      queue.push(row.pid);
    }
  }
  return found;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Starts `npm start` on a free port; resolves once it says it runs. */
async function npmStart() {
  const port = await freePort();
  ports.push(port);
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port) };
  delete env.DATA_DIR;
  const npm = spawn('npm', ['start'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(npm);
  let output = '';
  npm.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  npm.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  await until('npm start to say it runs', () => (/Ctrl-C/.test(output) ? true : npm.exitCode !== null ? Promise.reject(new Error(output)) : undefined), 90_000);
  return { npm, port, url: `http://127.0.0.1:${port}`, output: () => output };
}

const health = async (url: string) => {
  const res = await fetch(`${url}/api/health`);
  return { status: res.status, body: (await res.json()) as { status: string; failing?: string[] } };
};

describe('npm start', () => {
  it('restarts DynamoDB Local when it dies, with health 503 meanwhile, and stops everything on SIGTERM to npm', { timeout: 180_000 }, async () => {
    const { npm, port, url, output } = await npmStart();
    expect(output()).toContain(`Rivals is running at ${url}`);
    expect(output()).toMatch(/Ctrl-C \(or kill \d+\) stops everything/);
    const key = readFileSync(join(ROOT, '.local', String(port), 'dev-api-key'), 'utf8').trim();
    expect(output()).toContain(key);
    expect((await health(url)).body.status).toBe('ok');

    // The operator command finds this instance by its port, and says so.
    const admin = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) =>
      execFile(process.execPath, ['--import', 'tsx', join(ROOT, 'packages/local/src/admin.ts'), '--port', String(port), 'balance', '--account', 'acct_dev'], { cwd: ROOT }, (error, stdout, stderr) =>
        error ? reject(error) : resolve({ stdout, stderr }),
      ),
    );
    expect(admin.stderr).toContain(`the local service at ${url}`);
    expect(JSON.parse(admin.stdout)).toEqual({ accountId: 'acct_dev', creditsRemaining: 1000 });

    const java = descendants(npm.pid!).find((p) => p.comm === 'java');
    expect(java).toBeDefined();
    process.kill(java!.pid, 'SIGKILL');
    const degraded = await until('health to report DynamoDB down', async () => ((await health(url)).status === 503 ? (await health(url)).body : undefined), 10_000);
    expect(degraded).toMatchObject({ status: 'degraded', failing: ['dynamodb'] });
    await until('the restart to be over', () => (/restarted IN MEMORY.*LOST/.test(output()) ? true : undefined));
    expect(output()).toMatch(/DynamoDB Local stopped unexpectedly/);
    expect((await health(url)).status).toBe(200);
    // The same key works again on the re-provisioned table.
    const balance = await fetch(`${url}/api/v1/balance`, { headers: { 'x-api-key': key } });
    expect(balance.status).toBe(200);

    const tree = descendants(npm.pid!);
    expect(tree.map((p) => p.comm)).toEqual(expect.arrayContaining(['node', 'java']));
    npm.kill('SIGTERM');
    await until('every process of npm start to be gone', () => ([npm.pid!, ...tree.map((p) => p.pid)].some(alive) ? undefined : true), 20_000);
    expect(existsSync(join(ROOT, '.local', String(port), 'runtime.json'))).toBe(false);
  });

  it('takes DynamoDB Local down with it when its node process is killed outright', { timeout: 120_000 }, async () => {
    const { npm } = await npmStart();
    const tree = descendants(npm.pid!);
    const main = tree.find((p) => p.comm === 'node' && p.args.includes('main.ts'));
    const java = tree.find((p) => p.comm === 'java');
    expect(main && java).toBeTruthy();
    process.kill(main!.pid, 'SIGKILL');
    await until('Java to exit', () => (alive(java!.pid) ? undefined : true), 5_000);
    await until('every process of npm start to be gone', () => ([npm.pid!, ...tree.map((p) => p.pid)].some(alive) ? undefined : true), 10_000);
  });

  it('stops everything when npm itself is killed outright', { timeout: 120_000 }, async () => {
    const { npm, url } = await npmStart();
    const tree = descendants(npm.pid!);
    expect(tree.map((p) => p.comm)).toEqual(expect.arrayContaining(['node', 'java']));
    npm.kill('SIGKILL');
    await until('every process of npm start to be gone', () => (tree.map((p) => p.pid).some(alive) ? undefined : true), 15_000);
    await expect(fetch(`${url}/api/health`)).rejects.toThrow();
  });
});
