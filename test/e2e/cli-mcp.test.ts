// End to end: the `rivals` CLI (in process, and its bin once) and the `rivals-mcp` server driven over stdio by the
// MCP SDK's client, both against the local runtime.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../infra/routes.js';
import { startLocal, type LocalService } from '../../packages/local/src/runtime.js';
import { run } from '../../packages/cli/src/index.js';

let service: LocalService;
let configDir: string;
const DEV_KEY = `sk-live-${'cli'.repeat(11)}`;
const BAD_KEY = `sk-live-${'Z'.repeat(40)}`;
beforeAll(async () => {
  service = await startLocal({ port: 0, devCredits: 20, devApiKey: DEV_KEY, keyFile: null });
  configDir = await mkdtemp(join(tmpdir(), 'rivals-cli-'));
}, 120_000);
afterAll(async () => {
  await service?.stop();
  if (configDir) await rm(configDir, { recursive: true, force: true });
});

const sink = () => {
  let text = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += chunk;
      done();
    },
  });
  return { stream, text: () => text };
};

/** One command line in process: its exit code, stdout and stderr. */
const rivals = async (argv: string[], env: Record<string, string> = { RIVALS_API_KEY: DEV_KEY }) => {
  const out = sink();
  const err = sink();
  const code = await run(argv, { stdout: out.stream, stderr: err.stream, env: { RIVALS_BASE_URL: service.url, RIVALS_CONFIG_DIR: configDir, ...env } });
  return { code, stdout: out.text(), stderr: err.text() };
};

describe('rivals CLI', () => {
  it('searches with filters as JSON, charging one credit', async () => {
    const before = JSON.parse((await rivals(['balance', '--json'])).stdout).creditsRemaining as number;
    const res = await rivals(['search', 'stripe.com', '--limit', '5', '--types', 'Direct,Indirect', '--json']);
    expect(res.code).toBe(0);
    const result = JSON.parse(res.stdout);
    expect(result).toMatchObject({ domain: 'stripe.com', creditsRemaining: before - 1, searchId: expect.stringMatching(/^srch_/) });
    expect(result.competitors.length).toBeLessThanOrEqual(5);
    expect(result.competitors.every((c: { type: string }) => ['Direct', 'Indirect'].includes(c.type))).toBe(true);
  });

  it('prints a table by default and CSV with --csv, without colour off a terminal', async () => {
    const table = await rivals(['search', 'hubspot.com', '--limit', '3']);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^\s*#\s+company\s+domain\s+score\s+type/);
    expect(table.stdout).toContain('hubspot.com: ');
    expect(table.stdout).not.toContain('\u001b[');
    const csv = await rivals(['search', 'hubspot.com', '--limit', '3', '--csv']);
    const lines = csv.stdout.trim().split('\n');
    expect(lines[0]).toBe('rank,company,domain,matchScore,type,confidence,likelyCompetitor');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.length).toBeLessThanOrEqual(4);
  });

  it('finds look-alikes of several seeds with screening filters, as a table, JSON and CSV', async () => {
    const res = await rivals(['lookalikes', 'delta.com', 'united.com', 'aa.com', '--founded-from', '1990', '--ownership', 'private,public', '--sizes', '5001-10000,10001+', '--json']);
    expect(res.code).toBe(0);
    const result = JSON.parse(res.stdout);
    expect(result).toMatchObject({ domains: ['delta.com', 'united.com', 'aa.com'], searchId: expect.stringMatching(/^srch_/) });
    expect(result.companies.length).toBeGreaterThan(0);
    expect(result.companies[0].similarTo.length).toBeGreaterThan(0);
    const stored = JSON.parse((await rivals(['show', result.searchId, '--json'])).stdout);
    expect(stored.filters).toEqual({ sizes: ['5001-10000', '10001+'], foundedFrom: 1990, ownership: ['private', 'public'] });
    for (const row of stored.competitors) expect(row.firmographics.founded).toBeGreaterThanOrEqual(1990);
    const table = await rivals(['lookalikes', 'nike.com', 'adidas.com', '--limit', '3']);
    expect(table.stdout.split('\n')[0]).toMatch(/^\s*#\s+company\s+domain\s+score\s+type\s+confidence\s+similar to/);
    const csv = (await rivals(['lookalikes', 'nike.com', 'adidas.com', '--limit', '3', '--csv'])).stdout.trim().split('\n');
    expect(csv[0]).toBe('rank,company,domain,matchScore,type,confidence,likelyCompetitor,similarTo');
    expect(csv).toHaveLength(4);
  });

  it('shows a past search with its evidence', async () => {
    const { searchId } = JSON.parse((await rivals(['search', 'notion.so', '--limit', '2', '--json'])).stdout);
    const res = await rivals(['show', searchId, '--json']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ id: searchId, domain: 'notion.so', competitors: expect.any(Array) });
    // The table: where each company is, its size, and why, in words.
    const table = await rivals(['show', searchId]);
    expect(table.stdout.split('\n')[1]).toMatch(/#\s+company\s+domain\s+score\s+type\s+hq\s+size\s+why/);
    expect(table.stdout).toMatch(/Notion/);
    expect(table.stdout).not.toMatch(/rival of a rival/);
  });

  it('lists the history, saves and removes a company, shares a search and lists the companies found', async () => {
    const { searchId } = JSON.parse((await rivals(['search', 'zendesk.com', '--limit', '2', '--json'])).stdout);
    const history = JSON.parse((await rivals(['history', '--limit', '2', '--json'])).stdout);
    expect(history).toHaveLength(2);
    expect(history[0]).toMatchObject({ id: searchId, domain: 'zendesk.com', source: 'api' });
    expect((await rivals(['saved', 'add', 'freshworks.com', '--note', 'rival', '--search-id', searchId])).code).toBe(0);
    expect(JSON.parse((await rivals(['saved', 'list', '--json'])).stdout)).toEqual(expect.arrayContaining([expect.objectContaining({ domain: 'freshworks.com', note: 'rival' })]));
    // Nothing has run the monitor yet: no changes (the monitor itself: test/e2e/monitor.test.ts).
    expect(JSON.parse((await rivals(['changes', '--domain', 'freshworks.com', '--since', '2026-01-01T00:00:00Z', '--json'])).stdout)).toEqual([]);
    expect((await rivals(['changes', '--since', 'yesterday'])).code).not.toBe(0);
    expect((await rivals(['saved', 'remove', 'freshworks.com'])).code).toBe(0);
    expect((await rivals(['saved', 'list', '--json'])).stdout).not.toContain('freshworks.com');
    // Saved with no name and no search: named all the same (the knowledge base); its note edited two ways.
    expect(JSON.parse((await rivals(['saved', 'add', 'linear.app', '--note', 'pricing', '--json'])).stdout)).toMatchObject({ domain: 'linear.app', company: 'Linear', note: 'pricing' });
    expect(JSON.parse((await rivals(['saved', 'add', 'linear.app', '--note', 'pricing and plans', '--json'])).stdout)).toMatchObject({ note: 'pricing and plans' });
    expect(JSON.parse((await rivals(['saved', 'edit', 'linear.app', '--note', 'roadmap', '--json'])).stdout)).toMatchObject({ company: 'Linear', note: 'roadmap' });
    expect((await rivals(['saved', 'edit', 'never-saved.com', '--note', 'x'])).code).toBe(2);
    const share = await rivals(['share', searchId]);
    expect(share.code).toBe(0);
    // An absolute link, on the address the CLI talks to.
    expect(share.stdout.trim()).toMatch(new RegExp(`^${service.url}/share/\\S+$`));
    expect((await rivals(['share', searchId, '--revoke'])).code).toBe(0);
    const companies = JSON.parse((await rivals(['companies', '--json'])).stdout);
    expect(companies.total).toBeGreaterThan(0);
  });

  it('lists keys across pages and creates and revokes one', async () => {
    const created = await rivals(['keys', 'create', '--name', 'cli-test', '--json']);
    expect(created.code).toBe(0);
    const key = JSON.parse(created.stdout);
    expect(key.key).toMatch(/^sk-live-/);
    const listed = JSON.parse((await rivals(['keys', 'list', '--json'])).stdout);
    expect(listed.map((k: { id: string }) => k.id)).toContain(key.id);
    expect((await rivals(['keys', 'revoke', key.id])).code).toBe(0);
  });

  it.each([
    ['an invalid domain (400)', ['search', 'not a domain'], undefined, 2, 'invalid_domain'],
    ['an unknown key (401)', ['balance'], { RIVALS_API_KEY: BAD_KEY }, 3, 'invalid_api_key'],
    ['an unknown search (404)', ['show', 'srch_00000000000000000000000000'], undefined, 2, 'not_found'],
    ['an unknown option', ['search', 'stripe.com', '--nope'], undefined, 1, 'unknown option'],
    ['a limit out of range', ['search', 'stripe.com', '--limit', '500'], undefined, 1, '--limit must be'],
  ])('exits on %s with its documented code', async (_, argv, env, code, message) => {
    const res = await rivals(argv, env);
    expect(res.code).toBe(code);
    expect(res.stderr).toContain(message);
  });

  it('prints help with examples and the exit codes', async () => {
    const res = await rivals(['--help']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Examples:');
    expect(res.stdout).toContain('rivals search stripe.com');
    expect(res.stdout).toMatch(/Exit codes:[\s\S]*4 {2}insufficient credits/);
  });

  it('exits 6 when the API cannot be reached', async () => {
    const res = await rivals(['--base-url', 'http://127.0.0.1:9', 'balance']);
    expect(res.code).toBe(6);
    expect(res.stderr).toContain('connection_error');
  });

  it('logs in: checks the key, stores it with mode 0600, and uses it afterwards', async () => {
    expect((await rivals(['login', '--key', BAD_KEY], {})).code).toBe(3);
    const login = await rivals(['login', '--key', DEV_KEY], {});
    expect(login.code).toBe(0);
    const file = join(configDir, 'config.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ apiKey: DEV_KEY });
    const balance = await rivals(['balance'], {});
    expect(balance.code).toBe(0);
    expect(balance.stdout).toMatch(/^\d+ credits\n$/);
    expect((await rivals(['logout'], {})).code).toBe(0);
    expect((await rivals(['balance'], {})).code).toBe(3);
  });

  it('runs as the `rivals` bin with its exit code', async () => {
    const bin = join(process.cwd(), 'packages/cli/bin/rivals.js');
    const env = { ...process.env, RIVALS_BASE_URL: service.url, RIVALS_API_KEY: DEV_KEY, RIVALS_CONFIG_DIR: configDir };
    const { stdout } = await promisify(execFile)(process.execPath, [bin, 'balance', '--json'], { env });
    expect(JSON.parse(stdout)).toEqual({ creditsRemaining: expect.any(Number) });
    const failed = await promisify(execFile)(process.execPath, [bin, 'balance'], { env: { ...env, RIVALS_API_KEY: BAD_KEY } }).catch((e: { code: number }) => e);
    expect((failed as { code: number }).code).toBe(3);
  }, 30_000);
});

const served = (method: string, path: string) => ROUTES.some((route) => route.method === method && route.path === path);

describe.runIf(served('POST', '/api/bulk/upload'))('rivals bulk', () => {
  it('uploads with --wait, reports progress, writes the results CSV; status and download agree', async () => {
    const input = join(configDir, 'domains.csv');
    const output = join(configDir, 'results.csv');
    await writeFile(input, 'website\nstripe.com\nasana.com\n');
    const res = await rivals(['bulk', 'upload', input, '--limit', '2', '--wait', '--poll', '1', '-o', output]);
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/bulk job_\S+: \w+ \d+\/2/);
    expect(res.stderr).toMatch(/completed, 2 done/);
    const csv = await readFile(output, 'utf8');
    expect(csv.split('\n')[0]).toMatch(/^sourceDomain,rank,company,product,domain/);
    const jobId = /job (job_\S+): completed/.exec(res.stderr)![1]!;
    const status = await rivals(['bulk', 'status', jobId, '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ jobId, status: 'completed', totalDomains: 2 });
    expect((await rivals(['bulk', 'download', jobId])).stdout.trim()).toBe(csv.trim());
  }, 120_000);
});

const withoutKey = (env: NodeJS.ProcessEnv) => Object.fromEntries(Object.entries(env).filter(([k, v]) => v !== undefined && k !== 'RIVALS_API_KEY' && k !== 'RIVALS_BASE_URL')) as Record<string, string>;

describe('rivals-mcp over stdio', () => {
  let client: Client;
  let mcpConfigDir: string;
  beforeAll(async () => {
    // `rivals login` against the local runtime, in a config directory of its own.
    mcpConfigDir = await mkdtemp(join(tmpdir(), 'rivals-mcp-'));
    expect((await rivals(['--base-url', service.url, 'login', '--key', DEV_KEY], { RIVALS_CONFIG_DIR: mcpConfigDir, RIVALS_BASE_URL: '' })).code).toBe(0);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(process.cwd(), 'packages/mcp-server/bin/rivals-mcp.js')],
      // No key in the environment: the server uses the one `rivals login` stored, as the CLI does.
      env: { ...withoutKey(process.env), RIVALS_CONFIG_DIR: mcpConfigDir },
      stderr: 'inherit',
    });
    client = new Client({ name: 'rivals-test', version: '0.0.0' });
    await client.connect(transport);
  }, 30_000);
  afterAll(async () => {
    await client?.close();
    if (mcpConfigDir) await rm(mcpConfigDir, { recursive: true, force: true });
  });

  it('lists the tools, each with an input and an output schema, the paid ones saying what they cost', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        'find_lookalikes', 'get_balance', 'get_bulk_job', 'get_search', 'get_watchlist_changes', 'list_history', 'list_my_companies', 'list_saved_companies', 'save_company', 'search_competitors',
        'start_bulk_research', 'share_search', 'list_bulk_jobs', 'download_bulk_results',
      ].sort(),
    );
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
    }
    expect(Object.keys(tools.find((t) => t.name === 'search_competitors')!.outputSchema!.properties!)).toEqual(expect.arrayContaining(['searchId', 'competitors', 'creditsRemaining']));
    expect(tools.find((t) => t.name === 'search_competitors')?.description).toMatch(/1 CREDIT/);
    expect(tools.find((t) => t.name === 'start_bulk_research')?.description).toMatch(/1 CREDIT PER/);
    expect(tools.find((t) => t.name === 'get_balance')?.description).toMatch(/Free/);
  });

  it('searches: structured content plus a text table, and one credit', async () => {
    const before = ((await client.callTool({ name: 'get_balance', arguments: {} })).structuredContent as { creditsRemaining: number }).creditsRemaining;
    const res = await client.callTool({ name: 'search_competitors', arguments: { domain: 'slack.com', limit: 4 } });
    expect(res.isError).toBeFalsy();
    const result = res.structuredContent as { domain: string; searchId: string; competitors: { domain: string }[]; creditsRemaining: number };
    expect(result).toMatchObject({ domain: 'slack.com', searchId: expect.stringMatching(/^srch_/), creditsRemaining: before - 1 });
    expect(result.competitors.length).toBeGreaterThan(0);
    const text = (res.content as { type: string; text: string }[])[0]!.text;
    expect(text).toContain('slack.com: ');
    expect(text).toContain(result.competitors[0]!.domain);
    const stored = await client.callTool({ name: 'get_search', arguments: { searchId: result.searchId } });
    expect(stored.structuredContent).toMatchObject({ id: result.searchId, domain: 'slack.com' });
    const shared = await client.callTool({ name: 'share_search', arguments: { searchId: result.searchId } });
    expect(shared.isError).toBeFalsy();
    expect((shared.structuredContent as { url: string }).url).toMatch(new RegExp(`^${service.url}/share/[\\w-]+$`));
    expect((await client.callTool({ name: 'share_search', arguments: { searchId: result.searchId, revoke: true } })).structuredContent).toEqual({ revoked: true });
  });

  it('finds look-alikes of several seeds for one credit, screened, with similarTo', async () => {
    expect((await client.listTools()).tools.find((t) => t.name === 'find_lookalikes')?.description).toMatch(/1 CREDIT/);
    const res = await client.callTool({ name: 'find_lookalikes', arguments: { domains: ['stripe.com', 'adyen.com', 'checkout.com'], limit: 10, ownership: ['private'] } });
    expect(res.isError).toBeFalsy();
    const result = res.structuredContent as { domains: string[]; searchId: string; companies: { domain: string; similarTo: string[] }[] };
    expect(result.domains).toEqual(['stripe.com', 'adyen.com', 'checkout.com']);
    expect(result.companies.length).toBeGreaterThan(0);
    for (const c of result.companies) expect(c.similarTo.every((s) => result.domains.includes(s))).toBe(true);
    const stored = (await client.callTool({ name: 'get_search', arguments: { searchId: result.searchId } })).structuredContent as { competitors: { firmographics: { ownership: string } }[] };
    for (const row of stored.competitors) expect(row.firmographics.ownership).toBe('private');
  });

  it('saves a company and lists the saved ones, the history and the companies found', async () => {
    expect((await client.callTool({ name: 'save_company', arguments: { domain: 'mailchimp.com', note: 'agent' } })).structuredContent).toMatchObject({ domain: 'mailchimp.com', note: 'agent' });
    const saved = (await client.callTool({ name: 'list_saved_companies', arguments: {} })).structuredContent as { items: { domain: string }[] };
    expect(saved.items.map((i) => i.domain)).toContain('mailchimp.com');
    expect((await client.callTool({ name: 'get_watchlist_changes', arguments: { domain: 'mailchimp.com' } })).structuredContent).toEqual({ items: [], nextCursor: null });
    const history = (await client.callTool({ name: 'list_history', arguments: { limit: 1 } })).structuredContent as { items: unknown[]; nextCursor: string | null };
    expect(history.items).toHaveLength(1);
    const companies = (await client.callTool({ name: 'list_my_companies', arguments: {} })).structuredContent as { total: number };
    expect(companies.total).toBeGreaterThan(0);
  });

  it('answers an API error as a tool error with the API\'s code', async () => {
    const res = await client.callTool({ name: 'search_competitors', arguments: { domain: 'localhost' } });
    expect(res.isError).toBe(true);
    // In _meta, not structured content (which clients check against the tool's output schema).
    expect(res._meta).toMatchObject({ error: { code: 'invalid_domain', status: 400, requestId: expect.any(String) } });
    expect((res.content as { text: string }[])[0]!.text).toMatch(/^Error invalid_domain \(HTTP 400\)/);
    const missing = await client.callTool({ name: 'get_search', arguments: { searchId: 'srch_00000000000000000000000000' } });
    expect(missing).toMatchObject({ isError: true, _meta: { error: { code: 'not_found', status: 404 } } });
  });

  it.runIf(served('POST', '/api/bulk/upload'))('starts a bulk job and follows it to the end', async () => {
    const started = await client.callTool({ name: 'start_bulk_research', arguments: { domains: ['zoom.us', 'zoom.us', 'dropbox.com'], limit: 2 } });
    expect(started.isError).toBeFalsy();
    const { jobId, totalDomains } = started.structuredContent as { jobId: string; totalDomains: number };
    expect(totalDomains).toBe(2);
    let status = '';
    for (let i = 0; i < 60 && status !== 'completed'; i++) {
      status = ((await client.callTool({ name: 'get_bulk_job', arguments: { jobId } })).structuredContent as { status: string }).status;
      if (status !== 'completed') await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    expect(status).toBe('completed');
    const jobs = (await client.callTool({ name: 'list_bulk_jobs', arguments: { limit: 5 } })).structuredContent as { items: { jobId: string }[] };
    expect(jobs.items.map((j) => j.jobId)).toContain(jobId);
    const results = await client.callTool({ name: 'download_bulk_results', arguments: { jobId } });
    expect(results.isError).toBeFalsy();
    const { csv, rows } = results.structuredContent as { csv: string; rows: number };
    expect(csv.split(/\r?\n/)[0]).toMatch(/^sourceDomain,rank,company,product,domain/);
    expect(rows).toBeGreaterThan(0);
  }, 90_000);
});
