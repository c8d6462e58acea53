// End to end in a real browser: the dashboard as a person uses it, on the local runtime (one runtime and one Debian
// Chromium driven by playwright-core for the whole file). Each test saves a screenshot under test-output/dashboard.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDashboardBuilt } from '../../packages/local/src/dashboard-build.js';
import { PROJECT_ROOT, startLocal, type LocalService } from '../../packages/local/src/runtime.js';
import { raiseRateLimits, tableServices } from '../../packages/local/src/services.js';
import { DynamoMonitorStore } from '@rivals/db';

// The browser's globals, as the page-side callbacks below use them (this project's types are Node's, not the DOM's).
declare const sessionStorage: { getItem(key: string): string | null };
declare const localStorage: { length: number };
declare const navigator: { clipboard: { readText(): Promise<string> } };
declare const document: { documentElement: { scrollWidth: number } };
declare const window: { innerWidth: number; scrollTo(x: number, y: number): void };
declare class DataTransfer {
  items: { add(file: File): void };
}

const SHOTS = join(PROJECT_ROOT, 'test-output', 'dashboard');
const CHROMIUM = '/usr/bin/chromium';

let service: LocalService;
let browser: Browser;
/** The signed-in desktop session most tests continue in. */
let context: BrowserContext;
let page: Page;
const opened: BrowserContext[] = [];

const shot = (p: Page, name: string) => p.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
const tid = (id: string) => `[data-testid="${id}"]`;
const api = async (path: string, init: RequestInit & { key?: string } = {}) => {
  const res = await fetch(`${service.url}${path}`, { ...init, headers: { 'x-api-key': init.key ?? service.apiKey, ...(init.headers as Record<string, string>) } });
  const text = await res.text();
  return { status: res.status, body: text && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text };
};
const balance = async () => (await api('/api/v1/balance')).body.creditsRemaining as number;

async function newContext(viewport = { width: 1280, height: 900 }) {
  const created = await browser.newContext({ viewport, acceptDownloads: true });
  await created.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: service.url });
  opened.push(created);
  return created;
}
async function signIn(p: Page, key = service.apiKey) {
  await p.goto(`${service.url}/`);
  await p.fill(tid('api-key-input'), key);
  await p.click(tid('sign-in'));
  await p.locator(tid('balance')).filter({ hasText: /\d+ credits/ }).waitFor();
}
async function search(p: Page, domain: string, limit?: number) {
  if (limit) {
    await p.click('summary:has-text("Filters")');
    await p.fill(tid('limit'), String(limit));
  }
  await p.fill(tid('search-input'), domain);
  await p.click(tid('search-submit'));
}

beforeAll(async () => {
  raiseRateLimits();
  mkdirSync(SHOTS, { recursive: true });
  // The tests test the current sources: a stale or missing build is rebuilt first.
  expect(ensureDashboardBuilt(PROJECT_ROOT, () => undefined)).toBe(true);
  [service, browser] = await Promise.all([
    startLocal({ port: 0, devCredits: 100, devApiKey: `sk-live-${'dash'.repeat(9)}`, keyFile: null }),
    chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] }),
  ]);
  context = await newContext();
  page = await context.newPage();
}, 120_000);
afterAll(async () => {
  for (const c of opened) await c.close().catch(() => undefined);
  await browser?.close();
  await service?.stop();
});

describe('the dashboard in a browser', () => {
  it('signs in with an API key, keeps it for the tab only, and shows the balance', async () => {
    await page.goto(`${service.url}/`);
    await page.fill(tid('api-key-input'), 'sk-live-not-a-real-key-at-all-000000000000');
    await page.click(tid('sign-in'));
    await expect.poll(() => page.locator(tid('error')).innerText()).toContain('not valid');
    await shot(page, 'sign-in-error');

    await signIn(page);
    expect(await page.locator(tid('balance')).innerText()).toMatch(new RegExp(`^${await balance()}\\s+credits$`));
    expect(await page.evaluate(() => sessionStorage.getItem('rivals.apiKey'))).toBe(service.apiKey);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    await shot(page, 'signed-in');
  });

  it('searches a domain: one row per competitor, the balance down by one credit, the market map drawn', async () => {
    const before = await balance();
    await search(page, 'stripe.com', 15);
    await page.locator(tid('result-row')).first().waitFor({ timeout: 30_000 });
    const rows = await page.locator(tid('result-row')).count();
    expect(rows).toBeGreaterThan(3);
    expect(rows).toBeLessThanOrEqual(15);
    await expect.poll(() => page.locator(tid('balance')).innerText()).toMatch(new RegExp(`^${before - 1}\\s`));
    expect(await balance()).toBe(before - 1);
    expect(new URL(page.url()).searchParams.get('search')).toMatch(/^srch_/);

    // The score map (the segment map is the default view, tested below): a point per row, coloured by type; hovering
    // one names it.
    await page.locator(tid('segment-map')).screenshot({ path: join(SHOTS, 'segment-map-search.png') });
    await page.click(tid('view-score'));
    const points = page.locator(tid('map-point'));
    expect(await points.count()).toBe(rows);
    const firstCompany = await page.locator(`${tid('result-row')} td.company`).first().innerText();
    await page.locator(`${tid('map-point')}:last-child`).hover();
    await expect.poll(() => page.locator(tid('map-tooltip')).innerText()).toContain(firstCompany);
    await shot(page, 'search-results');

    // Sorting by match score puts the best score first; filtering a type out removes its rows and points.
    await page.click('th button:has-text("Match score")');
    const scores = await page.locator(`${tid('result-row')} .score .num`).allInnerTexts();
    expect(scores.map(Number)).toEqual([...scores.map(Number)].sort((a, b) => b - a));
    const direct = await page.locator(`${tid('map-point')}[data-type="Direct"]`).count();
    await page.uncheck(tid('filter-Direct'));
    expect(await page.locator(tid('result-row')).count()).toBe(rows - direct);
    expect(await page.locator(`${tid('map-point')}[data-type="Direct"]`).count()).toBe(0);
    await page.check(tid('filter-Direct'));
  });

  it('shows the evidence behind a row', async () => {
    await page.click('th button:has-text("Rank")');
    await page.locator(tid('why')).first().click();
    const evidence = page.locator(tid('evidence')).first();
    await evidence.waitFor();
    const text = await evidence.innerText();
    expect(text).toMatch(/Why .+[\s\S]*Source/);
    // Plain words, and who the company is: what it does, where, how big.
    expect(text).not.toMatch(/rival of a rival|^competes$/im);
    expect(await evidence.locator(tid('evidence-description')).innerText()).toMatch(/\w+ \w+/);
    expect(text).toMatch(/Headquarters[\s\S]*Size/);
    await shot(page, 'evidence');
  });

  it('saves a competitor to the watchlist', async () => {
    const firstDomain = await page.locator(`${tid('result-row')} td[data-label="Domain"] a`).first().innerText();
    await page.locator(tid('save')).first().click();
    await expect.poll(() => page.locator(tid('save')).first().innerText()).toContain('Saved');
    expect((await api('/api/saved-companies')).body.items.map((i: { domain: string }) => i.domain)).toContain(firstDomain);
    await page.click('nav >> text=Watchlist');
    await expect.poll(() => page.locator(tid('saved-row')).allInnerTexts()).toEqual([expect.stringContaining(firstDomain)]);
    // The note can be edited in place, and the edit is kept.
    await page.click(tid('note-edit'));
    await page.fill(tid('note-input'), 'watch their pricing');
    await page.click(tid('note-save'));
    await expect.poll(() => page.locator(tid('saved-note')).innerText()).toContain('watch their pricing');
    expect((await api('/api/saved-companies')).body.items[0].note).toBe('watch their pricing');
    await shot(page, 'watchlist');

    // A monitor check finds a newcomer (recorded as a run records it): the row shows a badge; its timeline lists the
    // change, and opening it marks it seen.
    const now = new Date().toISOString();
    const change = { id: 'chg_dashboard0000000000000000', domain: firstDomain, kind: 'new_competitor' as const, competitor: { domain: 'newcomer-rival.com', company: 'Newcomer', matchScore: 64, type: 'Emerging' as const }, detectedAt: now };
    await new DynamoMonitorStore(service.table).recordCheck({ accountId: service.accountId, domain: firstDomain }, { runId: 'run_dashboard', checkedAt: now, competitors: [change.competitor], changes: [change] });
    await page.reload();
    await expect.poll(() => page.locator(tid('unseen-badge')).allInnerTexts()).toEqual(['1 new']);
    await page.locator(tid('unseen-badge')).click();
    await expect.poll(() => page.locator(tid('change')).allInnerTexts()).toEqual([expect.stringMatching(/New competitor: Newcomer \(newcomer-rival\.com\)/)]);
    await shot(page, 'watchlist-timeline');
    await page.goBack(); // keeps the history the next test walks back through
    await page.locator(tid('saved-row')).first().waitFor();
    expect(await page.locator(tid('unseen-badge')).count()).toBe(0);
  });

  it('lists the companies found, filters them, and keeps the search in the address for Back', async () => {
    await page.click('nav >> text=My companies');
    await page.locator(tid('company-row')).first().waitFor();
    const all = await page.locator(tid('company-row')).count();
    expect(all).toBeGreaterThan(3);
    await page.fill(tid('companies-filter'), 'adyen');
    await expect.poll(() => page.locator(tid('company-row')).count()).toBe(1);
    await shot(page, 'my-companies');
    await page.goBack();
    await page.goBack();
    await page.locator(tid('result-row')).first().waitFor();
    // The search is drawn again from the address (the watchlist's reload above emptied the page's memory): its rows,
    // and its map, a point for every row in the score view.
    const rows = await page.locator(tid('result-row')).count();
    await page.locator(tid('segment-map')).waitFor();
    await page.click(tid('view-score'));
    await expect.poll(() => page.locator(tid('map-point')).count()).toBe(rows);
    // A reload keeps the tab signed in and reads the balance again.
    await page.reload();
    await page.locator(tid('balance')).filter({ hasText: /\d+ credits/ }).waitFor();
  });

  it('creates a share link that opens signed out, read-only', async () => {
    await page.click('nav >> text=History');
    await page.locator(`${tid('history-row')} a`).first().click();
    await page.locator(tid('result-row')).first().waitFor();
    const rows = await page.locator(tid('result-row')).count();
    await page.click(tid('share'));
    const link = await page.locator(tid('share-link')).inputValue();
    expect(link).toMatch(new RegExp(`^${service.url}/share/[\\w-]+$`));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await shot(page, 'search-detail-shared');

    const stranger = await (await newContext()).newPage();
    await stranger.goto(link);
    await stranger.locator(tid('shared-search')).waitFor();
    expect(await stranger.locator(tid('result-row')).count()).toBe(rows);
    await stranger.locator(tid('segment-map')).waitFor();
    await stranger.click(tid('view-score'));
    expect(await stranger.locator(tid('map-point')).count()).toBe(rows);
    expect(await stranger.locator(tid('balance')).count()).toBe(0);
    expect(await stranger.locator(tid('save')).count()).toBe(0);
    await shot(stranger, 'share-signed-out');

    await stranger.goto(`${service.url}/share/not-a-real-token`);
    await expect.poll(() => stranger.locator(tid('error')).innerText()).toContain('does not work');
  });

  it('creates an API key shown once, and revokes it after confirmation', async () => {
    await page.click('nav >> text=API keys');
    await page.fill(tid('key-name'), 'browser test');
    await page.click(tid('create-key'));
    const dialog = page.locator(tid('new-key-dialog'));
    await dialog.waitFor();
    const key = await page.locator(tid('new-key')).inputValue();
    expect(key).toMatch(/^sk-live-/);
    // Not used before it is revoked: a key used within the minute keeps working until the authorizer's cached answer
    // for it expires (in AWS and locally), and this test checks the revocation at once.
    await page.click(tid('copy-key'));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await shot(page, 'key-created');
    await page.click(tid('close-new-key'));
    await dialog.waitFor({ state: 'hidden' });
    // Shown once: nowhere on the page any more.
    expect(await page.content()).not.toContain(key);

    const row = page.locator(`${tid('key-row')}:has-text("browser test")`);
    await row.locator(tid('revoke-key')).click();
    await page.locator(tid('confirm-dialog')).waitFor();
    await shot(page, 'key-revoke-confirm');
    await page.click(tid('confirm'));
    await expect.poll(() => row.getAttribute('data-revoked')).toBe('true');
    expect((await api('/api/v1/balance', { key })).status).toBe(401);
    await shot(page, 'keys');
  });

  it('runs a bulk CSV dropped on the page, after showing its cost, to completion with each domain\'s result, and downloads the results', async () => {
    await page.click('nav >> text=Bulk');
    await page.fill(tid('bulk-limit'), '3');
    await page.check(tid('bulk-type-Direct'));
    const csv = 'domain\nstripe.com\nhubspot.com\nnot a domain\nadyen.com\n';
    const transfer = await page.evaluateHandle((text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], 'rivals.csv', { type: 'text/csv' }));
      return dt;
    }, csv);
    await page.dispatchEvent(tid('dropzone'), 'dragover', { dataTransfer: transfer });
    const before = (await api('/api/v1/balance')).body.creditsRemaining;
    await page.dispatchEvent(tid('dropzone'), 'drop', { dataTransfer: transfer });
    // The cost first; nothing is reserved until the user starts the job.
    await page.locator(tid('bulk-confirm')).waitFor();
    expect(await page.locator(tid('bulk-cost')).innerText()).toContain('3 domains: up to 3 credits');
    await shot(page, 'bulk-confirm');
    expect((await api('/api/v1/balance')).body.creditsRemaining).toBe(before);
    expect(await page.locator(tid('job-progress')).count()).toBe(0);
    await page.click(tid('bulk-start'));

    const progress = page.locator(tid('bulk-progress'));
    await progress.waitFor();
    await page.locator(`${tid('job-progress')}[data-status="completed"]`).waitFor({ timeout: 45_000 });
    expect(await progress.getAttribute('max')).toBe('3');
    expect(await progress.getAttribute('value')).toBe('3');
    expect(await page.locator('summary:has-text("skipped")').innerText()).toContain('1 row was skipped');
    // Each domain's outcome, linked to its search; the job kept the filters asked for.
    await expect.poll(() => page.locator(`${tid('bulk-result')}[data-status="succeeded"]`).count()).toBe(3);
    expect(await page.locator(tid('bulk-results')).innerText()).toContain('hubspot.com');
    const [latest] = (await api('/api/bulk/jobs')).body.items;
    expect(latest.filters).toEqual({ types: ['Direct'] });
    await expect.poll(() => page.locator(`${tid('job-row')}[data-status="completed"]`).count()).toBe(1);
    expect(await page.locator(tid('job-row')).first().innerText()).toContain('rivals.csv');
    await shot(page, 'bulk-completed');

    const [download] = await Promise.all([page.waitForEvent('download'), page.click(tid('download-job'))]);
    const { readFile } = await import('node:fs/promises');
    const text = await readFile((await download.path())!, 'utf8');
    expect(text.split(/\r?\n/)[0]).toContain('sourceDomain');
    expect(text).toContain('hubspot.com');
  });

  it('sends a CSV over 5 MB through a presigned upload, straight to storage, and the job runs', async () => {
    // Three domains over 102 rows with a wide notes column (60 KB a row, under the 64 KB a row allows): 6 MB, over the
    // direct upload's 5 MB.
    const note = 'x'.repeat(60_000);
    const transfer = await page.evaluateHandle((n) => {
      const dt = new DataTransfer();
      const rows = Array.from({ length: 102 }, (_, i) => `${['stripe.com', 'adyen.com', 'hubspot.com'][i % 3]},${n}\n`).join('');
      dt.items.add(new File([`domain,notes\n${rows}`], 'large.csv', { type: 'text/csv' }));
      return dt;
    }, note);
    await page.dispatchEvent(tid('dropzone'), 'drop', { dataTransfer: transfer });
    await page.click(tid('bulk-start'));
    await page.locator(`${tid('job-progress')}[data-status="completed"]`).filter({ hasText: 'large.csv' }).waitFor({ timeout: 45_000 });
    expect(await page.locator(tid('bulk-progress')).getAttribute('value')).toBe('3');
    await shot(page, 'bulk-presigned-completed');
  });

  it('says what went wrong: an invalid domain, and a search without credits', async () => {
    await page.click('nav >> text=Search');
    await search(page, 'not a domain');
    await expect.poll(() => page.locator(tid('error')).getAttribute('data-code')).toBe('invalid_domain');
    expect(await page.locator(tid('error')).innerText()).toContain('does not look like a company website');
    await shot(page, 'error-invalid-domain');

    const services = tableServices(service.table);
    const broke = await services.accounts.open('Broke', 0);
    const { key } = await services.apiKeys.issue(broke.id);
    const poor = await (await newContext()).newPage();
    await signIn(poor, key);
    expect(await poor.locator(tid('balance')).innerText()).toMatch(/^0\s+credits/);
    await search(poor, 'stripe.com');
    await poor.locator(tid('insufficient-credits')).waitFor();
    expect(await poor.locator(tid('insufficient-credits')).innerText()).toContain('You have 0 credits left');
    await shot(poor, 'error-insufficient-credits');

    // Sign-out forgets the key.
    await poor.click(tid('sign-out'));
    await poor.locator(tid('api-key-input')).waitFor();
    expect(await poor.evaluate(() => sessionStorage.getItem('rivals.apiKey'))).toBeNull();
  });

  it('works at phone width (390x844): no horizontal scroll, controls reachable', async () => {
    const phone = await (await newContext({ width: 390, height: 844 })).newPage();
    await signIn(phone);
    const noSideScroll = () => phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(await noSideScroll()).toBe(true);
    await search(phone, 'hubspot.com', 8);
    await phone.locator(tid('result-row')).first().waitFor({ timeout: 30_000 });
    await phone.click(tid('view-score'));
    expect(await phone.locator(tid('map-point')).count()).toBe(await phone.locator(tid('result-row')).count());
    expect(await noSideScroll()).toBe(true);
    for (const id of ['search-input', 'search-submit', 'balance', 'export-csv', 'share']) expect(await phone.locator(tid(id)).first().isVisible(), id).toBe(true);
    // Keyboard: the points of the map take focus and show their tooltip.
    await phone.locator(tid('map-point')).first().focus();
    await phone.locator(tid('map-tooltip')).waitFor();
    await shot(phone, 'phone-search');
    await phone.evaluate(() => window.scrollTo(0, 0));
    await phone.screenshot({ path: join(SHOTS, 'phone-search-top.png') });
    for (const path of ['/bulk', '/keys', '/history']) {
      await phone.click(`nav a[href="${path}"]`);
      await phone.locator('h1').waitFor();
      expect(await noSideScroll(), path).toBe(true);
    }
    await shot(phone, 'phone-history');
  });

  it('finds look-alikes of several seeds with screening filters, and draws the market map for decks: segments, names, type colours; PNG, SVG and CSV exports', async () => {
    const before = await balance();
    await page.goto(`${service.url}/`);
    await page.click(tid('mode-several'));
    await page.fill(tid('seeds-input'), 'delta.com, united.com\naa.com');
    await page.click('summary:has-text("Filters")');
    await page.fill(tid('limit'), '30');
    await page.fill(tid('founded-from'), '1920');
    await page.check(tid('ownership-public'));
    await page.check(tid('ownership-private'));
    await page.click(tid('search-submit'));
    await page.locator(tid('result-row')).first().waitFor({ timeout: 30_000 });
    await expect.poll(() => page.locator('h2.result-title').innerText()).toMatch(/companies like delta\.com, united\.com, aa\.com/);
    expect(await balance()).toBe(before - 1);
    const stored = (await api(`/api/searches/${new URL(page.url()).searchParams.get('search')}`)).body;
    expect(stored.filters).toEqual({ foundedFrom: 1920, ownership: ['public', 'private'] });
    for (const row of stored.competitors) expect(row.firmographics.founded).toBeGreaterThanOrEqual(1920);

    // The segment map is the default view (the score map a click away): every company named, coloured by its type.
    await page.click(tid('view-segments'));
    const map = page.locator(tid('segment-map'));
    await map.waitFor();
    expect(await map.locator(tid('segment')).count()).toBeGreaterThan(0);
    const names = await map.locator(`${tid('segment-company')} text`).allTextContents();
    expect(names).toContain('Southwest Airlines');
    const types = await map.locator(tid('segment-company')).evaluateAll((els) => els.map((e) => e.getAttribute('data-type')));
    expect(new Set(types).size).toBeGreaterThan(0);
    await map.screenshot({ path: join(SHOTS, 'segment-map.png') });
    await shot(page, 'lookalikes');

    // Exports: an SVG with the names in it, a PNG image, the table as CSV with firmographics and similarTo.
    const [svgDownload] = await Promise.all([page.waitForEvent('download'), page.click(tid('export-svg'))]);
    const svg = readFileSync((await svgDownload.path())!, 'utf8');
    expect(svgDownload.suggestedFilename()).toBe('rivals-map-delta.com.svg');
    expect(svg).toMatch(/^<svg[^>]+xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('Southwest Airlines');
    expect(svg).toContain('Companies like delta.com, united.com, aa.com');
    writeFileSync(join(SHOTS, 'segment-map-export.svg'), svg);
    const [pngDownload] = await Promise.all([page.waitForEvent('download'), page.click(tid('export-png'))]);
    const png = readFileSync((await pngDownload.path())!);
    expect(pngDownload.suggestedFilename()).toBe('rivals-map-delta.com.png');
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a'); // a PNG
    expect(png.readUInt32BE(16)).toBe(2 * Number(/^<svg[^>]* width="(\d+)"/.exec(svg)![1])); // twice the drawing's width
    writeFileSync(join(SHOTS, 'segment-map-export.png'), png);
    const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.click(tid('export-csv'))]);
    const csv = readFileSync((await csvDownload.path())!, 'utf8').split('\r\n');
    expect(csv[0]).toBe('rank,company,domain,matchScore,type,confidence,likelyCompetitor,similarTo,founded,size,hq,ownership,exchange,ticker');
    expect(csv.find((line) => line.includes('southwest.com'))).toMatch(/,1967,10001\+,US,public,/);
  });

  it('serves the app with its security headers: SPA routes get index.html (no-store), assets are immutable, nothing outside dist', async () => {
    const index = await fetch(`${service.url}/share/anything`);
    expect(index.status).toBe(200);
    expect(index.headers.get('cache-control')).toBe('no-store');
    expect(index.headers.get('x-content-type-options')).toBe('nosniff');
    expect(index.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await index.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
    const asset = await fetch(`${service.url}${html.match(/src="(\/assets\/[^"]+\.js)"/)![1]}`);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    for (const path of ['/..%2f..%2fpackage.json', '/%2e%2e/%2e%2e/package.json', '/assets/..%2f..%2f..%2fpackage.json', '/assets/missing.js']) {
      const res = await fetch(`${service.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.text()).not.toContain('"workspaces"');
    }
    expect((await fetch(`${service.url}/`, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${service.url}/api/nothing`)).status).toBe(404);
  });
});
