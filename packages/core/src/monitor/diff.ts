// core: what changed between two competitor sets of one watched company. Pure: the same sets always give the same
// changes, and equal sets give none.
import { SCORE_CHANGE_MIN, WATCH_TOP, type ChangeKind, type WatchedCompetitor } from '@rivals/contracts';
import type { ResearchedCompetitor } from '../ports.js';

export interface ChangeDraft {
  kind: ChangeKind;
  competitor: WatchedCompetitor;
  previous?: WatchedCompetitor;
}

/** The top of a research outcome as the monitor keeps it. */
export const watchedSet = (competitors: readonly Pick<ResearchedCompetitor, 'domain' | 'company' | 'matchScore' | 'type'>[]): WatchedCompetitor[] =>
  competitors.slice(0, WATCH_TOP).map(({ domain, company, matchScore, type }) => ({ domain, company, matchScore, type }));

/**
 * new_competitor (in `current`, not in `baseline`), dropped (the reverse; the competitor as last seen),
 * type_changed, score_changed (by SCORE_CHANGE_MIN points or more); in `current`'s order, then dropped ones.
 */
export function diffCompetitors(baseline: readonly WatchedCompetitor[], current: readonly WatchedCompetitor[]): ChangeDraft[] {
  const before = new Map(baseline.map((c) => [c.domain, c]));
  const now = new Set(current.map((c) => c.domain));
  const changes: ChangeDraft[] = [];
  for (const competitor of current) {
    const previous = before.get(competitor.domain);
    if (!previous) {
      changes.push({ kind: 'new_competitor', competitor });
      continue;
    }
    if (previous.type !== competitor.type) changes.push({ kind: 'type_changed', competitor, previous });
    if (Math.abs(previous.matchScore - competitor.matchScore) >= SCORE_CHANGE_MIN) changes.push({ kind: 'score_changed', competitor, previous });
  }
  for (const competitor of baseline) if (!now.has(competitor.domain)) changes.push({ kind: 'dropped', competitor });
  return changes;
}
