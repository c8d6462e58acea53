// Homepage-only targets of twenty industries outside software, on the real knowledge base: a company the knowledge
// base has never heard of is placed by what its homepage says, in its industry's category (or the nearest one named),
// and that industry's leaders come first. The companies and their pages are fictional, written for this test.
import { beforeAll, describe, expect, it } from 'vitest';
import type { HomepageProfile } from '@rivals/core';
import { KnowledgeBaseEngine } from '@rivals/engine';
import { loadKnowledgeBase } from '@rivals/kb';
import { NON_SOFTWARE_PAGES } from './non-software-pages.js';

/** Where a page may land when its industry has a close neighbour, and two leaders each that must rank in the top 10. */
const EXPECTED: Record<string, { categories: string[]; leaders: string[] }> = {
  'prairievalleyenergy.com': { categories: ['electric-utilities', 'utilities-energy-retail'], leaders: ['duke-energy.com', 'nexteraenergy.com'] },
  'clearcreekwater.com': { categories: ['water-utilities'], leaders: ['amwater.com', 'essential.co'] },
  'harborlinebrokers.com': { categories: ['insurance-brokers'], leaders: ['aon.com', 'ajg.com'] },
  'granitecountybank.com': { categories: ['regional-banks', 'retail-banks'], leaders: ['pnc.com', 'regions.com'] },
  'boxsafestorage.com': { categories: ['self-storage'], leaders: ['publicstorage.com', 'extraspace.com'] },
  'greenhaulwaste.com': { categories: ['waste-environmental-services'], leaders: ['wm.com', 'republicservices.com'] },
  'vaultline-records.com': { categories: ['records-information-management'], leaders: ['accesscorp.com', 'grmdocumentmanagement.com'] },
  'brightmarrow.agency': { categories: ['ad-agencies'], leaders: ['wpp.com', 'omnicomgroup.com'] },
  'stonebridgeaggregates.com': { categories: ['cement-aggregates'], leaders: ['vulcanmaterials.com', 'holcim.com'] },
  'meridianrx-distribution.com': { categories: ['drug-wholesale'], leaders: ['mckesson.com', 'cardinalhealth.com'] },
  'lakeshorehealthsystem.org': { categories: ['hospital-operators'], leaders: ['hcahealthcare.com', 'tenethealth.com'] },
  'pawsvaccines.com': { categories: ['animal-health'], leaders: ['zoetis.com', 'elanco.com'] },
  'freshplatefoodservice.com': { categories: ['foodservice-distribution'], leaders: ['sysco.com', 'usfoods.com'] },
  'clearsound-hearing.com': { categories: ['hearing-aids'], leaders: ['sonova.com', 'demant.com'] },
  'renalwell.com': { categories: ['dialysis-kidney-care'], leaders: ['davita.com', 'freseniusmedicalcare.com'] },
  'harvestnutrients.com': { categories: ['fertilizers'], leaders: ['nutrien.com', 'yara.com'] },
  'northridgegold.com': { categories: ['gold-silver-miners'], leaders: ['newmont.com', 'barrick.com'] },
  'bluewakeshipping.com': { categories: ['bulk-tanker-shipping'], leaders: ['starbulk.com', 'oldendorff.com'] },
  'certaintestlabs.com': { categories: ['testing-inspection-certification'], leaders: ['sgs.com', 'intertek.com'] },
  'oakmeadowhomes.com': { categories: ['homebuilders'], leaders: ['lennar.com', 'drhorton.com'] },
  'keystonetitle.com': { categories: ['title-insurance'], leaders: ['fnf.com', 'firstam.com'] },
};

const pages = new Map<string, HomepageProfile>(
  NON_SOFTWARE_PAGES.map(([domain, title, description, headings]) => [
    domain,
    { domain, url: `https://${domain}/`, title, description, headings, organizationName: null, keywords: [], fetchedAt: '2026-11-24T00:00:00Z' },
  ]),
);
let engine: KnowledgeBaseEngine;
beforeAll(() => {
  engine = new KnowledgeBaseEngine({ index: loadKnowledgeBase(), homepage: { read: async (domain) => pages.get(domain) ?? null } });
});

describe('homepage-only targets outside software', () => {
  it('covers twenty industries or more', () => {
    expect(new Set(NON_SOFTWARE_PAGES.map((p) => p[4])).size).toBeGreaterThanOrEqual(20);
  });

  it.each(NON_SOFTWARE_PAGES.map(([domain]) => domain))('places %s in its industry and ranks its leaders first', async (domain) => {
    const { categories, leaders } = EXPECTED[domain]!;
    const primary = engine.homepageProfile(pages.get(domain)!)?.primaryCategory ?? -1;
    expect(categories).toContain(engine.model.index.categories[primary]?.id);
    const { targetSource, competitors } = await engine.research({ domain, limit: 25, signal: new AbortController().signal });
    expect(targetSource).toBe('homepage');
    expect(competitors.slice(0, 10).map((c) => c.domain)).toEqual(expect.arrayContaining(leaders));
  });
});
