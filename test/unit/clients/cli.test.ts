// The `rivals` CLI's own checks, before any request: a key typed at login is never echoed, contradictory options and
// unreadable files are usage errors (exit 1), no key says how to get one (exit 3), types in any case, help everywhere.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rivals, type ClientOptions } from '@rivals/sdk';
import { run } from '../../../packages/cli/src/index.js';

let configDir: string;
beforeAll(async () => {
  configDir = await mkdtemp(join(tmpdir(), 'rivals-cli-unit-'));
});
afterAll(() => rm(configDir, { recursive: true, force: true }));

const KEY = `sk-live-${'k'.repeat(32)}`;
const sink = () => {
  let text = '';
  return { stream: new Writable({ write: (chunk, _e, done) => ((text += chunk), done()) }), text: () => text };
};

/** Runs a command line with a client whose every request is recorded and answered by `answer`. */
async function cli(argv: string[], options: { env?: Record<string, string>; stdin?: NodeJS.ReadableStream & { isTTY?: boolean }; answer?: (url: string, init: RequestInit) => Response } = {}) {
  const out = sink();
  const err = sink();
  const requests: string[] = [];
  const client = (o: ClientOptions) =>
    new Rivals({
      ...o,
      maxRetries: 0,
      fetch: async (input: string | URL | Request, init: RequestInit = {}) => {
        requests.push(`${init.method ?? 'GET'} ${String(input)}`);
        return options.answer?.(String(input), init) ?? Response.json({ creditsRemaining: 7 });
      },
    } as ClientOptions);
  const code = await run(argv, { stdout: out.stream, stderr: err.stream, stdin: options.stdin, env: { RIVALS_CONFIG_DIR: configDir, RIVALS_API_KEY: KEY, ...options.env }, client });
  return { code, stdout: out.text(), stderr: err.text(), requests };
}

describe('rivals CLI, locally', () => {
  it('login asks for the key on a terminal without echoing it, then checks and stores it', async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin });
    setTimeout(() => stdin.write(`${KEY}\r`), 20);
    const res = await cli(['login'], { env: { RIVALS_API_KEY: '' }, stdin });
    expect(res.code).toBe(0);
    expect(res.stderr).toContain('not shown as you type');
    expect(res.stderr + res.stdout).not.toContain(KEY);
    expect(res.requests).toEqual([expect.stringMatching(/^GET .*\/api\/v1\/balance$/)]);
  });

  it('refuses --csv with --json as a usage error, before any request', async () => {
    for (const argv of [['search', 'stripe.com', '--csv', '--json'], ['companies', '--json', '--csv']]) {
      const res = await cli(argv);
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(/--json.*cannot be used with.*--csv|--csv.*cannot be used with.*--json/);
      expect(res.requests).toEqual([]);
    }
  });

  it('without a key, says to run `rivals login` (exit 3), sending nothing', async () => {
    const res = await cli(['balance'], { env: { RIVALS_API_KEY: '', RIVALS_CONFIG_DIR: join(configDir, 'never-logged-in') } });
    expect(res.code).toBe(3);
    expect(res.stderr).toContain('rivals login');
    expect(res.requests).toEqual([]);
  });

  it('accepts --types in any case, spelled as the API spells them', async () => {
    let body = '';
    const res = await cli(['search', 'stripe.com', '--types', 'direct,INDIRECT', '--json'], {
      answer: (_url, init) => ((body = String(init.body)), Response.json({ domain: 'stripe.com', totalCompetitors: 0, likelyCompetitors: 0, elapsedSeconds: 0, creditsRemaining: 1, competitors: [] })),
    });
    expect(res.code).toBe(0);
    expect(JSON.parse(body).types).toEqual(['Direct', 'Indirect']);
    const wrong = await cli(['search', 'stripe.com', '--types', 'rivalish']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('Direct, Indirect, Adjacent, Emerging');
  });

  it('a missing file is a usage error that names it (exit 1), before any request or charge', async () => {
    for (const argv of [['bulk', 'upload', 'leads.co'], ['bulk', 'upload', 'leads.co', '--wait']]) {
      const res = await cli(argv);
      expect(res.code).toBe(1);
      expect(res.stderr).toContain('cannot read leads.co: no such file');
      expect(res.stderr).not.toContain('ENOENT');
      expect(res.requests).toEqual([]);
    }
  });

  it('has help text for every command and argument', async () => {
    const help = async (argv: string[]) => (await cli([...argv, '--help'])).stdout;
    const groups = [[], ['bulk'], ['saved'], ['keys']];
    for (const group of groups) {
      const text = await help(group);
      const commands = text.split('Commands:')[1]!.split(/\n\S/)[0]!.split('\n').filter((l) => /^ {2}\S/.test(l));
      expect(commands.length).toBeGreaterThan(1);
      // "  name [options] <arg>    what it does": every command has its description.
      for (const line of commands) expect(line, `${group.join(' ')}: ${line}`).toMatch(/^ {2}\S.*\S {2,}\S/);
    }
    for (const argv of [['saved', 'add'], ['keys', 'revoke'], ['bulk', 'status'], ['show']]) {
      const text = await help(argv);
      const args = (text.split('Arguments:')[1] ?? '').split('\n\n')[0]!.split('\n').filter((l) => /^ {2}\S/.test(l));
      expect(args.length, argv.join(' ')).toBeGreaterThan(0);
      for (const line of args) expect(line).toMatch(/^ {2}\S+ {2,}\S/);
    }
  });

  it('bulk upload, status and --wait print the rows the file had that were rejected (not charged)', async () => {
    const file = join(configDir, 'leads.csv');
    await (await import('node:fs/promises')).writeFile(file, 'domain\nstripe.com\nnot a domain\n');
    const rejectedRows = [{ row: 3, value: 'not a domain', reason: 'not a public company domain' }];
    const job = {
      jobId: 'job_1', status: 'completed', totalDomains: 1, completedDomains: 1, failedDomains: 0, cancelledDomains: 0, creditsReserved: 1, creditsCharged: 1, creditsRefunded: 0,
      limit: 5, filters: null, filename: 'leads.csv', error: null, webhookUrl: null, createdAt: 'x', updatedAt: 'x', finishedAt: 'x', rejectedRows, webhookAttempts: [], nextCursor: null,
      results: [{ domain: 'stripe.com', status: 'succeeded', searchId: 'srch_1', totalCompetitors: 5, likelyCompetitors: 5, error: null, reason: null }],
    };
    const answer = (url: string) =>
      url.includes('/api/bulk/upload')
        ? Response.json({ jobId: 'job_1', status: 'queued', totalDomains: 1, rejectedRows, creditsReserved: 1, creditsRemaining: 9 }, { status: 202 })
        : url.endsWith('/download')
          ? new Response('sourceDomain\n', { headers: { 'content-type': 'text/csv' } })
          : Response.json(job);
    const upload = await cli(['bulk', 'upload', file], { answer });
    expect(upload.code).toBe(0);
    expect(upload.stdout).toContain('1 row rejected (not charged):\n  line 3: "not a domain": not a public company domain');
    const status = await cli(['bulk', 'status', 'job_1'], { answer });
    expect(status.stdout).toContain('line 3: "not a domain": not a public company domain');
    const waited = await cli(['bulk', 'upload', file, '--wait', '--poll', '1'], { answer });
    expect(waited.code).toBe(0);
    expect(waited.stderr).toContain('1 row rejected (not charged):');
  });
});
