// Done-when of watchlist monitoring, end to end on the local runtime: save a company, research some of its rivals the
// service did not know (small companies of the fixture web, read by the real crawler through the fixture's loopback
// proxy: their homepages become discovered companies), run `npm run admin -- --port P monitor run`, and GET
// /api/changes lists them as new_competitor for the saved company; a second run adds nothing; the balance moved only
// by the searches. The fixture names are moved from `.test` to `.com` so that the API accepts them; every connection
// still goes to the fixture's server on 127.0.0.1 and names resolve only through the fixture's own resolver.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangesPage, SavedCompaniesPage } from '@rivals/contracts';
import { freePort } from '../../packages/local/src/engines.js';
import { startLocal, type LocalService } from '../../packages/local/src/runtime.js';
import { raiseRateLimits } from '../../packages/local/src/services.js';
import { useHomepageReader } from '../../functions/shared/homepage.js';
import { fixtureWeb } from '../fixtures/longtail/niches.js';
import { startFixtureWeb, type FixtureWeb } from '../fixtures/longtail/web.js';

const ROOT = join(import.meta.dirname, '..', '..');
const companies = fixtureWeb()
  .filter((c) => c.niche.id === 'pest-control-en')
  .map((c) => ({ ...c, domain: c.domain.replace(/\.test$/, '-pests.com') }));
const researched = companies.slice(0, 3).map((c) => c.domain);

let service: LocalService;
let web: FixtureWeb;
let port: number;

const call = async (path: string, init: { method?: string; body?: unknown } = {}) => {
  const res = await fetch(`${service.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'x-api-key': service.apiKey, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
};
const balance = async () => (await call('/api/v1/balance')).body.creditsRemaining as number;

const monitorRun = () =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const env = { ...process.env };
    delete env.TABLE_NAME;
    execFile(process.execPath, ['--import', 'tsx', join(ROOT, 'packages/local/src/admin.ts'), '--port', String(port), 'monitor', 'run', '--wait', '120'], { cwd: ROOT, env }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });

beforeAll(async () => {
  raiseRateLimits();
  web = await startFixtureWeb(companies);
  useHomepageReader(web.reader);
  port = await freePort();
  service = await startLocal({ port, stateDir: join(ROOT, '.local'), devCredits: 10, devApiKey: `sk-live-${'mntr'.repeat(9)}`, scheduleEverySeconds: 3_600 });
}, 180_000);
afterAll(async () => {
  await service?.stop();
  await web?.close();
});

describe('watchlist monitoring on the local runtime', () => {
  it('lists rivals discovered since a company was saved as new_competitor, once, and charges only the searches', { timeout: 300_000 }, async () => {
    const saved = await call('/api/saved-companies', { method: 'POST', body: { domain: 'rollins.com' } });
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({ domain: 'rollins.com', lastCheckedAt: expect.any(String), unseenChanges: 0 });
    const before = await balance();

    for (const domain of researched) expect((await call('/api/v1/search', { method: 'POST', body: { domain, limit: 25 } })).status).toBe(200);
    for (const domain of researched) expect(web.served.get(domain), domain).toBeGreaterThanOrEqual(1); // read by the real crawler

    const first = await monitorRun();
    expect(first.code, first.stderr).toBe(0);
    const report = JSON.parse(first.stdout);
    expect(report).toMatchObject({ done: true, watched: 1, checked: 1, failed: 0, changedCompanies: 1 });
    expect(report.found).toEqual([{ accountId: service.accountId, domain: 'rollins.com', changes: { new_competitor: report.changes } }]);

    const changes = ChangesPage.parse((await call('/api/changes')).body);
    expect(changes.items.length).toBe(report.changes);
    expect(changes.items.every((c) => c.domain === 'rollins.com' && c.kind === 'new_competitor')).toBe(true);
    expect(changes.items.map((c) => c.competitor.domain).sort()).toEqual([...researched].sort());
    const row = SavedCompaniesPage.parse((await call('/api/saved-companies')).body).items[0]!;
    expect(row.unseenChanges).toBe(researched.length);

    const second = await monitorRun();
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ done: true, checked: 1, changes: 0, found: [] });
    expect((await call('/api/changes')).body.items).toHaveLength(researched.length);

    // Reading the company's changes marks them seen.
    expect((await call('/api/changes?domain=rollins.com')).body.items).toHaveLength(researched.length);
    expect(SavedCompaniesPage.parse((await call('/api/saved-companies')).body).items[0]!.unseenChanges).toBe(0);
    expect(await balance()).toBe(before - researched.length);
  });
});
