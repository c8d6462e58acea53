// The long-tail proof on part of the fixture web, through the real crawler (a local server as its egress proxy, the
// fixture resolver's public-looking address never dialled) and the discovered layer on DynamoDB Local: cold, a small
// company finds none of its niche's peers; once the niche has been seen, it finds them, and keeps the niche's leaders.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDiscoveredStore } from '@rivals/db';
import { loadKnowledgeBase } from '@rivals/kb';
import { fixtureWeb, NICHES } from '../fixtures/longtail/niches.js';
import { runLongtail, type LongtailResult } from '../fixtures/longtail/run.js';
import { startFixtureWeb, type FixtureWeb } from '../fixtures/longtail/web.js';
import { freshTable } from '../setup/table.js';

describe('long tail: a fixture web of small companies', () => {
  const chosen = new Set(['pest-control-en', 'florists-en', 'sprachschulen-de']);
  const companies = fixtureWeb().filter((c) => chosen.has(c.niche.id));
  let web: FixtureWeb;
  let result: LongtailResult;
  beforeAll(async () => {
    web = await startFixtureWeb(companies);
    result = await runLongtail(loadKnowledgeBase(), web, companies, async () => new DynamoDiscoveredStore(await freshTable()));
  }, 240_000);
  afterAll(() => web?.close());

  it('has at least 80 companies in at least 10 niches and 4 languages in all', () => {
    const all = fixtureWeb();
    expect(all.length).toBeGreaterThanOrEqual(80);
    expect(NICHES.length).toBeGreaterThanOrEqual(10);
    expect(new Set(NICHES.map((n) => n.language)).size).toBeGreaterThanOrEqual(4);
    expect(new Set(all.map((c) => c.domain)).size).toBe(all.length);
    expect(all.every((c) => c.domain.endsWith('.test'))).toBe(true);
  });

  it('reads every homepage through the real crawler from the local web', () => {
    for (const c of companies) expect(web.served.get(c.domain), c.domain).toBeGreaterThanOrEqual(3);
  });

  it('finds same-niche peers once the niche has been seen (and after a bulk job), keeping the leaders', () => {
    const { cold, seen, bulk } = result;
    expect(cold.en!.peers).toBe(0); // nothing learned: two small rivals never find each other
    expect(seen.en!.peers).toBeGreaterThanOrEqual(0.8);
    expect(bulk.en!.peers).toBeGreaterThanOrEqual(0.8);
    expect(seen.en!.leaders).toBeGreaterThanOrEqual(cold.en!.leaders);
    expect(seen.de!.peers).toBeGreaterThanOrEqual(0.7); // German pages, read in English and gathered by their peers
    expect(seen.all!.leaders).toBeGreaterThanOrEqual(cold.all!.leaders - 0.05);
  });
});
