// The engine with optional candidate providers: proposals are verified before they are used.
import { describe, expect, it } from 'vitest';
import { KnowledgeBaseEngine, type CandidateSource } from '@rivals/engine';
import type { HomepageProfile } from '@rivals/core';
import { fixtureIndex } from '../../kb-fixture.js';

const provider = (name: string, answer: CandidateSource['propose']): CandidateSource => ({ name, propose: answer });
const page = (domain: string, title: string): HomepageProfile => ({
  domain, url: `https://${domain}/`, title, description: title, headings: [], organizationName: null, keywords: [], fetchedAt: '2026-01-01T00:00:00Z',
});
const signal = () => new AbortController().signal;

describe('engine with providers', () => {
  it('keeps a proposal it can verify (known, or homepage read) and drops one it cannot', async () => {
    const homepages: Record<string, HomepageProfile> = { 'newcrm.io': page('newcrm.io', 'NewCRM: a sales pipeline CRM for small teams') };
    const engine = new KnowledgeBaseEngine({
      index: fixtureIndex(),
      homepage: { read: async (d) => homepages[d] ?? null },
      providers: [
        provider('llm:test', async () => [
          { name: 'NewCRM', domain: 'https://www.newcrm.io', type: 'Emerging' },
          { name: 'Ghost', domain: 'ghost-company-nowhere.com' },
          { name: 'Mailchimp', domain: 'mailchimp.com' },
          { name: 'Self', domain: 'pipedrive.com' },
        ]),
        provider('web-search:test', async () => {
          throw new Error('quota exceeded');
        }),
      ],
    });
    const { competitors } = await engine.research({ domain: 'pipedrive.com', limit: 50, signal: signal() });
    const domains = competitors.map((c) => c.domain);
    expect(domains).toContain('newcrm.io');
    expect(domains).not.toContain('ghost-company-nowhere.com');
    expect(domains).not.toContain('pipedrive.com');
    const newcrm = competitors.find((c) => c.domain === 'newcrm.io')!;
    expect(newcrm).toMatchObject({ type: 'Emerging', evidence: { source: 'llm:test', sharedCategories: ['crm'] } });
    const mailchimp = competitors.find((c) => c.domain === 'mailchimp.com')!;
    expect(mailchimp.evidence.signals).toContain('Suggested by llm:test, then checked');
  });

  it('answers from the knowledge base alone when every provider is slower than its deadline', async () => {
    const engine = new KnowledgeBaseEngine({
      index: fixtureIndex(),
      providerDeadlineMs: 20,
      providers: [provider('llm:slow', (_, { signal: s }) => new Promise((_, reject) => s.addEventListener('abort', () => reject(s.reason))))],
    });
    const { competitors } = await engine.research({ domain: 'hubspot.com', limit: 5, signal: signal() });
    expect(competitors[0]?.domain).toBe('salesforce.com');
  });
});
