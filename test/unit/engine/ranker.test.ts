// The engine on the fixture knowledge base: hygiene rules, product lines, types and determinism.
import { beforeAll, describe, expect, it } from 'vitest';
import type { SearchFilters } from '@rivals/contracts';
import { KnowledgeBaseEngine } from '@rivals/engine';
import { fixtureIndex } from '../../kb-fixture.js';

let engine: KnowledgeBaseEngine;
beforeAll(() => {
  engine = new KnowledgeBaseEngine({ index: fixtureIndex() });
});
const research = (domain: string, limit = 100, filters?: SearchFilters) =>
  engine.research({ domain, limit, ...(filters ? { filters } : {}), signal: new AbortController().signal });

describe('knowledge-base engine', () => {
  it('ranks the curated rivals of a known company first, with the reason kept', async () => {
    const { targetSource, competitors } = await research('hubspot.com');
    expect(targetSource).toBe('knowledge-base');
    expect(competitors.slice(0, 3).map((c) => c.domain)).toEqual(expect.arrayContaining(['salesforce.com', 'zoho.com', 'pipedrive.com']));
    expect(competitors[0]!.evidence).toMatchObject({ relation: 'competes', source: 'knowledge-base', sharedCategories: expect.arrayContaining(['crm']) });
  });

  it('reports a giant\'s product line under the giant\'s domain, named by the product', async () => {
    const { competitors } = await research('slack.com');
    expect(competitors[0]).toMatchObject({ company: 'Microsoft Teams', domain: 'microsoft.com', type: 'Direct', likelyCompetitor: true });
  });

  it('never returns the target, its aliases, its parent or its subsidiaries', async () => {
    const slack = (await research('slack.com')).competitors.map((c) => c.domain);
    expect(slack).not.toContain('salesforce.com'); // parent
    expect(slack).not.toContain('slack.com');
    const salesforce = (await research('force.com')).competitors.map((c) => c.domain);
    expect(salesforce).not.toContain('slack.com'); // subsidiary
    expect(salesforce).not.toContain('salesforce.com');
    const zoom = (await research('zoom.us')).competitors.map((c) => c.domain);
    expect(zoom).not.toContain('zoom.com'); // alias domain of the target
  });

  it('never returns a company that no longer exists, yet still answers for its domain', async () => {
    const hubspot = (await research('hubspot.com')).competitors.map((c) => c.domain);
    expect(hubspot).not.toContain('sunsetcrm.com');
    const sunset = (await research('sunsetcrm.com')).competitors.map((c) => c.domain);
    expect(sunset.slice(0, 2)).toEqual(expect.arrayContaining(['hubspot.com', 'pipedrive.com']));
  });

  it('gives one row per registrable domain', async () => {
    const domains = (await research('salesforce.com')).competitors.map((c) => c.domain);
    expect(new Set(domains).size).toBe(domains.length);
  });

  it('keeps review sites out of a software company\'s rivals', async () => {
    const domains = (await research('pipedrive.com')).competitors.map((c) => c.domain);
    expect(domains).not.toContain('g2.com');
    expect(domains).not.toContain('capterra.com');
  });

  it('returns only companies that share a category or a rivalry with the target, never a mere partner', async () => {
    const { competitors } = await research('hubspot.com');
    for (const c of competitors) expect(c.evidence.sharedCategories.length > 0 || c.evidence.relation !== null).toBe(true);
    expect(competitors.map((c) => c.domain)).not.toContain('zoom.com'); // a complement of HubSpot, in no shared category
  });

  it('labels a young, small, strongly matching company Emerging', async () => {
    const attio = (await research('hubspot.com')).competitors.find((c) => c.domain === 'attio.com');
    expect(attio?.type).toBe('Emerging');
  });

  it('scores within 0..100, never rising down the list, and honours the limit', async () => {
    const { competitors } = await research('hubspot.com', 3);
    expect(competitors).toHaveLength(3);
    for (let i = 1; i < competitors.length; i++) expect(competitors[i]!.matchScore).toBeLessThanOrEqual(competitors[i - 1]!.matchScore);
    for (const c of competitors) {
      expect(Number.isInteger(c.matchScore) && c.matchScore >= 0 && c.matchScore <= 100).toBe(true);
      expect(Number.isInteger(c.confidence) && c.confidence >= 0 && c.confidence <= 100).toBe(true);
    }
  });

  it('is deterministic', async () => {
    expect(await research('zoom.com')).toEqual(await research('zoom.com'));
  });

  it('finds nothing for a domain it does not know and cannot read', async () => {
    expect(await research('unknown-company-xyz.com')).toEqual({ targetSource: 'none', competitors: [], failureReason: 'homepage_unreachable' });
  });

  it('uses the knowledge base when a domain it does not list lands on a site it knows', async () => {
    const landing = new KnowledgeBaseEngine({
      index: fixtureIndex(),
      homepage: {
        read: async (domain) => ({ domain, url: 'https://www.zoom.com/en/', title: 'Zoom', description: '', headings: [], organizationName: 'Zoom', keywords: [], fetchedAt: '2026-01-01T00:00:00Z' }),
      },
    });
    const { targetSource, competitors } = await landing.research({ domain: 'zoom-meetings.com', limit: 10, signal: new AbortController().signal });
    expect(targetSource).toBe('knowledge-base');
    expect(competitors.map((c) => c.domain)).toEqual(['google.com', 'microsoft.com']);
  });

  it('does not take a parked domain for the marketplace it redirects to', async () => {
    const parked = new KnowledgeBaseEngine({
      index: fixtureIndex(),
      homepage: {
        read: async (domain) => ({ domain, url: 'https://zoom.com/parked', title: 'Zoom-Meetings.com is for sale', description: '', headings: [], organizationName: 'Zoom', keywords: [], fetchedAt: '2026-01-01T00:00:00Z' }),
      },
    });
    const { targetSource } = await parked.research({ domain: 'zoom-meetings.com', limit: 10, signal: new AbortController().signal });
    expect(targetSource).not.toBe('knowledge-base');
  });

  it('places a homepage it has read into categories and ranks their members', async () => {
    const reader = {
      read: async (domain: string) => ({
        domain,
        url: `https://${domain}/`,
        title: 'Acme CRM: the sales pipeline for small teams',
        description: 'Track deals, contacts and your sales pipeline in a simple CRM.',
        headings: ['Customer relationship management made simple'],
        organizationName: 'Acme',
        keywords: [],
        fetchedAt: new Date().toISOString(),
      }),
    };
    const withHomepage = new KnowledgeBaseEngine({ index: fixtureIndex(), homepage: reader });
    const { targetSource, competitors } = await withHomepage.research({ domain: 'acme-crm.io', limit: 10, signal: new AbortController().signal });
    expect(targetSource).toBe('homepage');
    expect(competitors.map((c) => c.domain)).toEqual(expect.arrayContaining(['pipedrive.com', 'hubspot.com']));
    expect(competitors.every((c) => c.evidence.source === 'homepage')).toBe(true);
  });

  describe('filters', () => {
    const domains = async (target: string, filters?: SearchFilters, limit = 100) => (await research(target, limit, filters)).competitors.map((c) => c.domain);

    it('never returns an excluded domain, nor the company behind an alias of it', async () => {
      const all = await domains('meet.google.com');
      expect(all).toEqual(expect.arrayContaining(['zoom.com', 'microsoft.com']));
      const filtered = await domains('meet.google.com', { exclude: ['zoom.us', 'microsoft.com'] });
      expect(filtered).not.toContain('zoom.com');
      expect(filtered).not.toContain('microsoft.com');
      expect(filtered).toEqual(all.filter((d) => d !== 'zoom.com' && d !== 'microsoft.com'));
    });

    it.each([
      ['types', { types: ['Direct'] } as SearchFilters, (c: { type: string }) => c.type === 'Direct'],
      ['minMatchScore', { minMatchScore: 60 } as SearchFilters, (c: { matchScore: number }) => c.matchScore >= 60],
    ])('keeps, by %s, the subset of the unfiltered ranking in its order', async (_, filters, keep) => {
      const all = (await research('hubspot.com')).competitors;
      const filtered = (await research('hubspot.com', 100, filters)).competitors;
      expect(filtered.length).toBeGreaterThan(0);
      expect(filtered.length).toBeLessThan(all.length);
      expect(filtered).toEqual(all.filter(keep as (c: unknown) => boolean));
    });

    it('keeps companies headquartered in the countries asked for', async () => {
      expect(await domains('hubspot.com', { countries: ['GB', 'EE'] })).toEqual(expect.arrayContaining(['attio.com', 'pipedrive.com']));
      expect(await domains('hubspot.com', { countries: ['GB'] })).toEqual(['attio.com']);
    });

    it('counts the limit after filtering', async () => {
      const all = (await research('hubspot.com')).competitors.filter((c) => c.domain !== 'salesforce.com').map((c) => c.domain);
      expect(await domains('hubspot.com', { exclude: ['salesforce.com'] }, 2)).toEqual(all.slice(0, 2));
    });
  });
});
