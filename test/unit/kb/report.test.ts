// The coverage report counts what the knowledge base holds and names the entries whose rivals rest on too little.
import { describe, expect, it } from 'vitest';
import { coverageMarkdown } from '../../../packages/kb/src/report.js';
import { fixtureIndex } from '../../kb-fixture.js';

describe('coverage report', () => {
  it('counts entries, lists, countries and the entries with few curated rivals', () => {
    const index = fixtureIndex();
    const list = { id: 'crm-leaders', name: 'CRM leaders', asOf: '2026-11', entities: [0, 1] };
    const markdown = coverageMarkdown(index, [list]);
    expect(markdown).toContain(`| entries | ${index.entities.length} |`);
    expect(markdown).toContain('| of them defunct (recognised, never returned) | 1 |');
    expect(markdown).toContain('| CRM leaders (`crm-leaders`) | 2026-11 | 2 |');
    expect(markdown).toMatch(/\| GB \| 1 \|/);
    expect(markdown).not.toContain('Sunset CRM (`sunsetcrm.com`)'); // defunct entries are not asked for rivals
  });
});
