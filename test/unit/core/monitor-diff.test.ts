// What counts as a change between two competitor sets of a watched company: entries, exits, type changes and score
// moves of 10 points or more; equal sets (in any order) give none.
import { describe, expect, it } from 'vitest';
import { diffCompetitors, watchedSet } from '@rivals/core';
import type { WatchedCompetitor } from '@rivals/contracts';
import { competitor } from '../../fakes.js';

const c = (domain: string, matchScore: number, type: WatchedCompetitor['type'] = 'Direct'): WatchedCompetitor => ({ domain, company: domain, matchScore, type });

describe('diffCompetitors', () => {
  it('finds nothing in equal sets, whatever their order', () => {
    const set = [c('a.com', 90), c('b.com', 80)];
    expect(diffCompetitors(set, [...set].reverse())).toEqual([]);
  });

  it('reports entries, exits, type changes and score moves of 10 points or more (not 9)', () => {
    const before = [c('a.com', 90), c('b.com', 80), c('c.com', 70), c('d.com', 60)];
    const after = [c('a.com', 81), c('b.com', 70, 'Indirect'), c('c.com', 70, 'Adjacent'), c('e.com', 55)];
    expect(diffCompetitors(before, after)).toEqual([
      { kind: 'type_changed', competitor: c('b.com', 70, 'Indirect'), previous: c('b.com', 80) },
      { kind: 'score_changed', competitor: c('b.com', 70, 'Indirect'), previous: c('b.com', 80) },
      { kind: 'type_changed', competitor: c('c.com', 70, 'Adjacent'), previous: c('c.com', 70) },
      { kind: 'new_competitor', competitor: c('e.com', 55) },
      { kind: 'dropped', competitor: c('d.com', 60) },
    ]);
  });

  it('keeps the top 25 of a research outcome, four fields each', () => {
    const set = watchedSet(Array.from({ length: 30 }, (_, i) => competitor(i + 1)));
    expect(set).toHaveLength(25);
    expect(set[0]).toEqual({ domain: 'rival1.com', company: 'Rival 1', matchScore: 89, type: 'Direct' });
  });
});
