// test doubles of the ports: an engine that answers what it is told.
import type { ResearchedCompetitor, ResearchEngine, ResearchOutcome } from '@rivals/core';

export const competitor = (n: number, overrides: Partial<ResearchedCompetitor> = {}): ResearchedCompetitor => ({
  company: `Rival ${n}`,
  domain: `rival${n}.com`,
  matchScore: 90 - n,
  type: 'Direct',
  confidence: 80,
  likelyCompetitor: n % 2 === 0,
  evidence: { signals: ['shared category'], sharedCategories: ['crm'], sharedKeywords: [], relation: null, source: 'knowledge-base' },
  firmographics: { founded: 2010 + (n % 10), size: '51-200', hq: 'US', ownership: 'private', exchange: null, ticker: null },
  ...overrides,
});

export class ScriptedEngine implements ResearchEngine {
  calls = 0;
  constructor(private readonly answer: (domain: string) => Promise<ResearchOutcome> | ResearchOutcome) {}
  async research({ domain }: { domain: string }): Promise<ResearchOutcome> {
    this.calls++;
    return this.answer(domain);
  }
}

export const engineReturning = (count: number) =>
  new ScriptedEngine(() => ({ targetSource: 'knowledge-base', competitors: Array.from({ length: count }, (_, i) => competitor(i + 1)) }));
