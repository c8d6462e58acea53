// What a stored row says about a competitor: the company a product line belongs to (so company and domain agree in
// exports), the knowledge-base entry it is, and the firmographics a reader wants beside the evidence.
import { describe, expect, it } from 'vitest';
import { KnowledgeBaseEngine } from '@rivals/engine';
import { fixtureIndex } from '../../kb-fixture.js';

const engine = new KnowledgeBaseEngine({ index: fixtureIndex() });
const research = (domain: string) => engine.research({ domain, limit: 20, signal: new AbortController().signal });

describe('evidence of a row', () => {
  it('names the company of a product line reported under its domain, and the entry it is', async () => {
    const { competitors } = await research('slack.com');
    const teams = competitors.find((c) => c.company === 'Microsoft Teams')!;
    expect(teams).toMatchObject({ domain: 'microsoft.com', evidence: { parentCompany: 'Microsoft', entity: 'teams.microsoft.com' } });
    const mattermost = competitors.find((c) => c.domain === 'mattermost.com')!;
    expect(mattermost.evidence.parentCompany).toBeUndefined();
    expect(mattermost.evidence.entity).toBe('mattermost.com');
  });

  it('carries description, headquarters and size where the knowledge base knows them', async () => {
    const { competitors } = await research('hubspot.com');
    const salesforce = competitors.find((c) => c.domain === 'salesforce.com')!;
    expect(salesforce.evidence).toMatchObject({ headquarters: 'US', size: '10001+', description: expect.stringMatching(/\w+/) });
  });

  it('says why in plain words: no "rival of a rival", no bare relation names', async () => {
    const { competitors } = await research('hubspot.com');
    const signals = competitors.flatMap((c) => c.evidence.signals);
    expect(signals.length).toBeGreaterThan(0);
    for (const signal of signals) {
      expect(signal).not.toMatch(/rival of a rival|^(competes|alternative|substitute|complement|shared category|shared keywords|similar description)$/i);
      expect(signal).toMatch(/^[A-Z]/);
    }
    const salesforce = competitors.find((c) => c.domain === 'salesforce.com')!;
    expect(salesforce.evidence.signals).toContain('Competes head-on with HubSpot (a known rivalry)');
    expect(salesforce.evidence.signals.some((s) => s.startsWith('Same main market as HubSpot: ') || s.startsWith("Also in HubSpot's market"))).toBe(true);
    const twoHop = competitors.flatMap((c) => c.evidence.signals).find((s) => / a rival of HubSpot$/.test(s));
    if (twoHop) expect(twoHop).toMatch(/^Competes with .+, a rival of HubSpot$/);
  });
});
