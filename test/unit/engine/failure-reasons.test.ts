// Why a search found nothing: the engine says which of the documented reasons applies, and the 422 carries it.
import { describe, expect, it } from 'vitest';
import type { HomepageProfile } from '@rivals/core';
import { KnowledgeBaseEngine } from '@rivals/engine';
import { compile } from '../../../packages/kb/src/build.js';
import { fixtureIndex } from '../../kb-fixture.js';

const signal = new AbortController().signal;
const page = (domain: string, title: string, description = ''): HomepageProfile => ({
  domain, url: `https://${domain}/`, title, description, headings: [], organizationName: null, keywords: [], fetchedAt: '2026-01-01T00:00:00Z',
});
const pages = new Map([
  ['thin.example', page('thin.example', 'Welcome')],
  ['crmco.example', page('crmco.example', 'CrmCo: the CRM for sales pipelines', 'Customer relationship management: contacts, deals and sales pipeline.')],
]);
const engine = new KnowledgeBaseEngine({ index: fixtureIndex(), homepage: { read: async (d) => pages.get(d) ?? null } });

describe('failure reasons', () => {
  it('homepage_unreachable: unknown to the knowledge base and no homepage', async () => {
    expect(await engine.research({ domain: 'nowhere.example', limit: 10, signal })).toMatchObject({ competitors: [], failureReason: 'homepage_unreachable' });
  });

  it('homepage_too_thin: a homepage that says nothing the engine can place', async () => {
    expect(await engine.research({ domain: 'thin.example', limit: 10, signal })).toMatchObject({ competitors: [], failureReason: 'homepage_too_thin' });
  });

  it('filters_excluded_all: rivals exist, but none pass the filters', async () => {
    const outcome = await engine.research({ domain: 'hubspot.com', limit: 10, filters: { countries: ['JP'] }, signal });
    expect(outcome).toMatchObject({ competitors: [], failureReason: 'filters_excluded_all' });
    const placed = await engine.research({ domain: 'crmco.example', limit: 10, filters: { countries: ['JP'] }, signal });
    expect(placed).toMatchObject({ targetSource: 'homepage', competitors: [], failureReason: 'filters_excluded_all' });
  });

  it('no_rivals_known: a known company with nothing that ranks against it', async () => {
    const yaml = [
      'sector: lonely', 'name: Lonely', 'reviewed: 2026-11-01', 'categories:',
      '  - {id: lighthouses, name: Lighthouses, description: Lighthouse keeping., terms: [lighthouse, beacon, coast light], related: []}',
      'companies:',
      '  - {name: Solo Light, domain: sololight.com, description: Keeps one lighthouse., categories: [lighthouses], keywords: [lighthouse], segment: [smb], model: services, founded: 1990, hq: US, size: 1-10}',
    ].join('\n');
    const { index, problems } = compile([{ name: 'lonely.yaml', text: yaml }]);
    expect(problems.filter((p) => !/holds \d+ entries/.test(p))).toEqual([]);
    const lonely = new KnowledgeBaseEngine({ index });
    expect(await lonely.research({ domain: 'sololight.com', limit: 10, signal })).toMatchObject({ competitors: [], failureReason: 'no_rivals_known' });
  });

  it('a search that finds rivals carries no reason', async () => {
    const outcome = await engine.research({ domain: 'hubspot.com', limit: 10, signal });
    expect(outcome.competitors.length).toBeGreaterThan(0);
    expect(outcome.failureReason).toBeUndefined();
  });
});
