// A team's own companies: the import file is validated as kb:build validates an entry (an unknown category names its
// row), and imported companies become curated entries of the running engine, live, without a redeploy.
import { describe, expect, it } from 'vitest';
import type { KbImportStore } from '@rivals/core';
import { KnowledgeBaseEngine } from '@rivals/engine';
import { parseImport } from '../../../packages/kb/src/imports.js';
import { fixtureIndex } from '../../kb-fixture.js';

const index = fixtureIndex();
const signal = () => new AbortController().signal;

const CSV = `domain,name,description,categories,competitors
dealdesk.io,DealDesk,A CRM for agencies that tracks deals and client contacts.,crm,pipedrive.com;attio.com
mailnest.io,Mailnest,Email campaigns and newsletters for small shops.,marketing-automation,mailchimp.com
`;

const YAML = `sector: our-market
name: Our market
reviewed: 2026-11-20
categories: []
companies:
  - name: DealDesk
    domain: dealdesk.io
    description: A CRM for agencies that tracks deals and client contacts.
    categories: [crm]
    keywords: [crm, agencies]
    segment: smb
    model: saas
    founded: 2021
    hq: NL
    size: 11-50
    competes: {pipedrive.com: 0.9}
`;

class MemoryImports implements KbImportStore {
  stored = new Map<string, unknown>();
  current: string | null = null;
  async version() {
    return this.current;
  }
  async companies() {
    return [...this.stored.values()];
  }
  async add(companies: { domain: string }[], version: string) {
    for (const c of companies) this.stored.set(c.domain, c);
    this.current = version;
  }
}

describe('kb import', () => {
  it('reads CSV and YAML in the sector format', () => {
    const csv = parseImport('ours.csv', CSV, index);
    expect(csv.problems).toEqual([]);
    expect(csv.companies.map((c) => [c.domain, c.categories, c.competes])).toEqual([
      ['dealdesk.io', ['crm'], { 'pipedrive.com': 0.8, 'attio.com': 0.8 }],
      ['mailnest.io', ['marketing-automation'], { 'mailchimp.com': 0.8 }],
    ]);
    const yaml = parseImport('ours.yaml', YAML, index);
    expect(yaml.problems).toEqual([]);
    expect(yaml.companies[0]).toMatchObject({ domain: 'dealdesk.io', hq: 'NL', competes: { 'pipedrive.com': 0.9 } });
  });

  it('refuses the whole file, naming each bad row: an unknown category, a rival nobody knows, a bad field', () => {
    const bad = `domain,name,description,categories,competitors
dealdesk.io,DealDesk,A CRM for agencies that tracks deals.,crm;cooking-robots,
mailnest.io,Mailnest,Email campaigns for small shops.,marketing-automation,nowhere-company.io
BAD DOMAIN,X,short,crm,
`;
    const { companies, problems } = parseImport('ours.csv', bad, index);
    expect(companies).toEqual([]);
    expect(problems).toEqual(expect.arrayContaining([
      'ours.csv: row 2 (dealdesk.io): unknown category cooking-robots',
      'ours.csv: mailnest.io: competes nowhere-company.io is neither in the knowledge base nor imported',
      expect.stringMatching(/^ours\.csv: row 4 \(BAD DOMAIN\): domain: /),
    ]));
    expect(parseImport('ours.csv', 'a,b\n1,2\n', index).problems).toEqual(['ours.csv: the header must be domain,name,description,categories,competitors']);
    expect(parseImport('ours.yaml', YAML.replace('categories: []', 'categories: [{id: x}]'), index).problems[0]).toMatch(/new categories go in the sector files/);
  });

  it('makes imported companies curated entries of a running engine, live, both as targets and as rivals', async () => {
    const imports = new MemoryImports();
    const live = new KnowledgeBaseEngine({ index, imports, importCheckMs: 0 });
    expect((await live.research({ domain: 'dealdesk.io', limit: 10, signal: signal() })).targetSource).toBe('none');

    // The same running engine picks the import up at its next check: no redeploy, no restart.
    await imports.add(parseImport('ours.csv', CSV, index).companies, '2026-11-20T00:00:00.000Z');
    const target = await live.research({ domain: 'dealdesk.io', limit: 10, signal: signal() });
    expect(target.targetSource).toBe('knowledge-base');
    expect(target.competitors[0]).toMatchObject({ domain: 'pipedrive.com', evidence: { relation: 'competes', source: 'knowledge-base' } });
    const rival = await live.research({ domain: 'pipedrive.com', limit: 25, signal: signal() });
    expect(rival.competitors.find((c) => c.domain === 'dealdesk.io')).toMatchObject({ company: 'DealDesk', evidence: { source: 'knowledge-base', relation: 'competes' } });
  });
});
