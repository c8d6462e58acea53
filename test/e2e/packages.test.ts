// The clients outside the repository, as a user installs them: @rivals/contracts, @rivals/sdk, @rivals/cli and
// @rivals/mcp-server built and `npm pack`ed (scripts/pack-clients.mjs, once), installed from their tarballs into a
// scratch project under the system's temp folder, then imported, type-checked and run against the local runtime.
// The checkout is left as it was.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocal, type LocalService } from '../../packages/local/src/runtime.js';
// @ts-expect-error: a plain ESM script without types
import { packClients } from '../../scripts/pack-clients.mjs';

const run = promisify(execFile);
const ROOT = process.cwd();
const KEY = `sk-live-${'pack'.repeat(9)}`;
const gitStatus = () => execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: ROOT, encoding: 'utf8' });

let service: LocalService;
let scratch: string;
let statusBefore: string;
/** The scratch project's environment: the local runtime's address and key, a config folder of its own. */
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  statusBefore = gitStatus();
  scratch = await mkdtemp(join(tmpdir(), 'rivals-scratch-'));
  const tarballs: string[] = packClients(join(scratch, 'packs'));
  expect(tarballs.map((t) => t.split('/').pop())).toEqual(['rivals-contracts-0.1.0.tgz', 'rivals-sdk-0.1.0.tgz', 'rivals-cli-0.1.0.tgz', 'rivals-mcp-server-0.1.0.tgz']);
  const project = join(scratch, 'project');
  await run('mkdir', ['-p', project]);
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
  // Their dependencies (zod, commander, the MCP SDK) come from npm's cache, filled by this repository's install.
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...tarballs], { cwd: project });
  service = await startLocal({ port: 0, devCredits: 10, devApiKey: KEY, keyFile: null });
  env = { ...process.env, RIVALS_BASE_URL: service.url, RIVALS_API_KEY: KEY, RIVALS_CONFIG_DIR: join(scratch, 'config') };
}, 400_000);

afterAll(async () => {
  await service?.stop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

const project = () => join(scratch, 'project');

describe('the clients installed from their npm tarballs, outside the repository', () => {
  it('imports @rivals/sdk in plain Node (no tsx) and searches', async () => {
    const script = join(project(), 'search.mjs');
    await writeFile(
      script,
      "import { Rivals } from '@rivals/sdk';\nconst rivals = new Rivals();\nconst r = await rivals.search({ domain: 'stripe.com', limit: 3 });\nconsole.log(JSON.stringify({ n: r.competitors.length, share: (await rivals.searches.share(r.searchId)).url }));\n",
    );
    const { stdout } = await run(process.execPath, [script], { cwd: project(), env });
    const answer = JSON.parse(stdout);
    expect(answer.n).toBe(3);
    expect(answer.share).toMatch(new RegExp(`^${service.url}/share/`));
  }, 60_000);

  it('type-checks a TypeScript program against the packed declarations', async () => {
    await writeFile(
      join(project(), 'typed.ts'),
      "import { Rivals, NoCompetitorsFoundError, type SearchResult } from '@rivals/sdk';\nconst rivals = new Rivals({ apiKey: 'sk-live-x' });\nexport const top = async (): Promise<string | undefined> => { const r: SearchResult = await rivals.search('stripe.com'); return r.competitors[0]?.domain; };\nexport const why = (e: unknown) => (e instanceof NoCompetitorsFoundError ? e.reason : null);\n",
    );
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const args = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--typeRoots', join(ROOT, 'node_modules', '@types'), '--types', 'node', 'typed.ts'];
    await expect(run(process.execPath, [tsc, ...args], { cwd: project() })).resolves.toBeDefined();
  }, 180_000);

  it('runs the `rivals` bin: help, a search as JSON, and login stores the key the other clients read', async () => {
    const bin = join(project(), 'node_modules', '.bin', 'rivals');
    expect((await run(bin, ['--help'], { env })).stdout).toContain('Exit codes:');
    const { stdout } = await run(bin, ['search', 'hubspot.com', '--limit', '2', '--json'], { env });
    expect(JSON.parse(stdout).competitors).toHaveLength(2);
    await run(bin, ['login', '--key', KEY], { env: { ...env, RIVALS_API_KEY: '' } });
    expect((await run(bin, ['balance'], { env: { ...env, RIVALS_API_KEY: '' } })).stdout).toMatch(/^\d+ credits/);
  }, 90_000);

  it('runs the `rivals-mcp` bin over stdio with the key `rivals login` stored', async () => {
    const { RIVALS_API_KEY: _key, ...withoutKey } = env;
    const transport = new StdioClientTransport({ command: join(project(), 'node_modules', '.bin', 'rivals-mcp'), env: withoutKey as Record<string, string>, stderr: 'inherit' });
    const client = new Client({ name: 'scratch', version: '0.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThanOrEqual(12);
      const balance = await client.callTool({ name: 'get_balance', arguments: {} });
      expect(balance.structuredContent).toEqual({ creditsRemaining: expect.any(Number) });
    } finally {
      await client.close();
    }
  }, 60_000);

  it('leaves the checkout as it was (nothing built or packed inside it)', () => {
    expect(gitStatus()).toBe(statusBefore);
  });
});
