// With no discovered companies, the discovered layer changes nothing: every result, byte for byte, is the knowledge
// base's alone, over the project's evaluation targets and a wide sample of knowledge-base domains.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadKnowledgeBase } from '@rivals/kb';
import { KnowledgeBaseEngine } from '@rivals/engine';
import { MemoryDiscoveredStore } from '../../discovered-fake.js';

describe('an empty discovered layer', () => {
  it('leaves every result byte-identical (eval targets and every 25th knowledge-base domain, limit 100)', async () => {
    const index = loadKnowledgeBase();
    const plain = new KnowledgeBaseEngine({ index });
    const store = new MemoryDiscoveredStore();
    const learning = new KnowledgeBaseEngine({ index, discovered: store });
    const cases = readFileSync(join(import.meta.dirname, '../../../eval/cases.txt'), 'utf8')
      .split('\n')
      .filter((line) => line && !line.startsWith('#'))
      .map((line) => line.slice(0, line.indexOf(':')).trim());
    const domains = [...new Set(index.entities.map((e) => e.domain))];
    const sample = [...new Set([...cases, ...domains.filter((_, n) => n % 25 === 0)])];
    expect(sample.length).toBeGreaterThan(600);
    const signal = new AbortController().signal;
    for (const domain of sample) {
      const a = await plain.research({ domain, limit: 100, signal });
      const b = await learning.research({ domain, limit: 100, signal });
      expect(JSON.stringify(b), domain).toBe(JSON.stringify(a));
    }
    expect(store.summaryReads).toBeGreaterThan(0); // the layer was asked, and had nothing to add
    expect(store.memberQueries).toEqual([]);
  }, 120_000);
});
