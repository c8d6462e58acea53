// engine: candidate generation and scoring. Relations first (both directions, then two hops), categories second,
// text similarity third (the signals docs/search.md names). Every returned row shares a category or a relation with the target.
import { UNKNOWN_FIRMOGRAPHICS, type CompetitorType, type Firmographics, type SearchFilters } from '@rivals/contracts';
import type { DiscoveredCandidate, ResearchedCompetitor } from '@rivals/core';
import type { KnowledgeModel } from './model.js';
import { marketsOf } from './multilingual.js';
import type { TargetProfile } from './profile.js';
import { cosine, type SparseVector } from './text.js';

/** How much each kind of authored relation says about rivalry. */
const KIND_WEIGHT = { competes: 1, alternative: 0.85, substitute: 0.6, complement: 0.2, parent: 0, subsidiary: 0 } as const;
const RIVALRY_KINDS = new Set(['competes', 'alternative', 'substitute']);

/**
 * Categories whose members are not companies a buyer weighs (review sites, social networks, news, search engines):
 * one is returned only when the target is in that category too, or when a curated relation names it as a rival.
 */
const NOISE_CATEGORIES = new Set(['review-platforms', 'social-networks', 'news-publishers', 'web-search']);


const SIZE_PRIOR: Record<string, number> = {
  '1-10': 0, '11-50': 0.01, '51-200': 0.03, '201-500': 0.05, '501-1000': 0.07, '1001-5000': 0.09, '5001-10000': 0.11, '10001+': 0.13,
};

/** The year the "Emerging" rule measures from; fixed so that results do not drift with the calendar. */
export const EMERGING_SINCE = 2017;

/**
 * Raw score -> matchScore 0-100: a logistic curve centred where a company that only shares the target's primary
 * category sits (about 50), so that a curated head-to-head rival in the same category lands in the 90s and a
 * neighbour reached only through a secondary category or two hops in the 20s and 30s.
 */
const SCORE_CENTRE = 1.7;
const SCORE_SPREAD = 0.6;
export const matchScoreOf = (raw: number) => Math.max(1, Math.min(99, Math.round(100 / (1 + Math.exp(-(raw - SCORE_CENTRE) / SCORE_SPREAD)))));

/** Without relations (a target known only from its homepage), categories and text carry all the evidence. */
const HOMEPAGE_EVIDENCE_BOOST = 1.5;

/**
 * A homepage written in German, French, Spanish, Portuguese, Italian or Dutch is of a company selling first where that
 * language is spoken: candidates headquartered there get this much (a tenth of a shared primary category).
 */
const HOME_MARKET_WEIGHT = 0.15;

/** likelyCompetitor: a Direct or Emerging match at or above the first bar, an Indirect one at or above the second. */
export const LIKELY_DIRECT = 60;
export const LIKELY_INDIRECT = 75;

interface Features {
  relation: number;
  relationKind: string | null;
  reverse: number;
  reverseKind: string | null;
  twoHop: number;
  via: number;
  category: number;
  sharedCategories: number[];
  primaryMatch: boolean;
  relatedCategory: number;
  text: number;
  sharedKeywords: string[];
  external: ExternalSignal | null;
  /** A learned relation (a provider's verified proposal): strength out (the target named it) and in. */
  learned: number;
  learnedReverse: number;
}

const emptyFeatures = (): Features => ({
  relation: 0, relationKind: null, reverse: 0, reverseKind: null, twoHop: 0, via: -1, category: 0, sharedCategories: [],
  primaryMatch: false, relatedCategory: 0, text: 0, sharedKeywords: [], external: null, learned: 0, learnedReverse: 0,
});

/**
 * A learned relation counts this share of a curated one of the same strength: enough to bring a provider's verified
 * rival into the list, never enough to pass a rival an analyst named.
 */
export const LEARNED_SHARE = 0.4;

/**
 * A discovered company enters a known company's top 10 only from the same primary category and with at least this
 * text similarity (cosine of their analysed terms). Measured on the fixture web (bench:longtail): two companies of one
 * niche score 0.43 at the median and 0.25 at the 10th percentile; two of different niches 0.05 at the 90th
 * percentile, 0.16 at the 99th and 0.24 at most.
 */
export const DISCOVERED_TOP10_SIMILARITY = 0.25;
/** Confidence of a discovered company's row: thinner evidence (one homepage, no analyst), so lower and capped. */
const DISCOVERED_CONFIDENCE_PENALTY = 10;
const DISCOVERED_CONFIDENCE_CAP = 80;

/** A learned relation as the ranker weighs it: each direction's strength in (0, 1]. */
export interface LearnedSignal {
  out: number;
  in: number;
  verifiedAt: string;
}

/** A discovered company of the target's categories, prepared by the engine (see engine.ts). */
export interface DiscoveredInput {
  candidate: DiscoveredCandidate;
  /** Its categories as knowledge-base indices, primary first (unknown ids dropped). */
  categories: number[];
  vector: SparseVector;
  learned: LearnedSignal | null;
}

/** An outside opinion about a known candidate (an optional LLM or web-search provider), already verified. */
export interface ExternalSignal {
  /** How many providers proposed it. */
  votes: number;
  sources: string[];
}

export interface RankOptions {
  /** At most this many rows, counted after the filters. */
  limit: number;
  filters?: SearchFilters;
  external?: Map<number, ExternalSignal>;
  /** Verified candidates the knowledge base does not hold, already scored; merged by score. */
  extraRows?: ResearchedCompetitor[];
  /** Discovered companies of the target's categories; none gives exactly the knowledge base's ranking. */
  discovered?: DiscoveredInput[];
  /** The target's vector over its analysed terms, unseen words included: what discovered companies are compared with. */
  openVector?: SparseVector;
  /** Learned relations of the target with knowledge-base entries. */
  learned?: Map<number, LearnedSignal>;
}

/** A curated relation between the row and the target, as a sentence. */
function relationSentence(kind: string, target: string): string {
  switch (kind) {
    case 'competes':
      return `Competes head-on with ${target} (a known rivalry)`;
    case 'alternative':
      return `A known alternative to ${target}`;
    case 'substitute':
      return `Meets the same need as ${target}, another way`;
    case 'complement':
      return `Often used alongside ${target}`;
    default:
      return `Related to ${target} (${kind})`;
  }
}

interface Scored {
  i: number;
  raw: number;
  f: Features;
}

/** Look-alikes: a candidate is close to a seed when it would score about 40 or more in that seed's own search. */
const CLOSE_TO_SEED = 1.45;
/** One seed's head-to-head rival must not outweigh closeness to the others: a seed's score counts up to this much. */
const SEED_RAW_CAP = 3;
/** How much the closest seed counts beside the mean over all seeds (the rest). */
const SEED_BEST_WEIGHT = 0.5;
/** Added per seed a candidate is close to (over the number of seeds), and confidence added per further close seed. */
const SEED_COVERAGE_BONUS = 1;
const SEED_AGREEMENT_CONFIDENCE = 4;

/** Whether any screening filter (on facts only the knowledge base knows) is set. */
export const screening = (filters: SearchFilters | undefined) =>
  Boolean(filters?.countries || filters?.sizes || filters?.foundedFrom !== undefined || filters?.foundedTo !== undefined || filters?.ownership);

/** Whether a company's firmographics pass the screening filters; an unknown fact fails a filter set on it. */
export function screens(f: Firmographics, filters: SearchFilters | undefined): boolean {
  if (!filters) return true;
  if (filters.countries && (f.hq === null || !filters.countries.includes(f.hq))) return false;
  if (filters.sizes && (f.size === null || !filters.sizes.includes(f.size))) return false;
  if (filters.foundedFrom !== undefined && (f.founded === null || f.founded < filters.foundedFrom)) return false;
  if (filters.foundedTo !== undefined && (f.founded === null || f.founded > filters.foundedTo)) return false;
  if (filters.ownership && (f.ownership === null || !filters.ownership.includes(f.ownership))) return false;
  return true;
}

export class Ranker {
  constructor(private readonly kb: KnowledgeModel) {}

  /** Entries never returned for this target: itself, its alias entries, its parent and its subsidiaries. */
  private exclusions(profile: TargetProfile): { entities: Set<number>; domains: Set<string> } {
    const entities = new Set<number>();
    const domains = new Set<string>([profile.domain]);
    const t = profile.entity;
    if (t !== null) {
      const target = this.kb.entity(t);
      entities.add(t);
      for (const d of [target.domain, ...target.otherDomains]) domains.add(d);
      if (target.parent >= 0) {
        entities.add(target.parent);
        domains.add(this.kb.entity(target.parent).domain);
      }
      const stack = [t];
      while (stack.length) {
        for (const child of this.kb.children[stack.pop()!]!) {
          if (entities.has(child)) continue;
          entities.add(child);
          if (!this.kb.entity(child).product) domains.add(this.kb.entity(child).domain);
          stack.push(child);
        }
      }
    }
    for (const i of this.kb.byDomain.get(profile.domain) ?? []) entities.add(i);
    return { entities, domains };
  }

  /** Registrable domains a filter excludes: each named domain, and the reported and other domains of its entry. */
  private filteredDomains(filters: SearchFilters | undefined): Set<string> {
    const domains = new Set<string>();
    for (const d of filters?.exclude ?? []) {
      domains.add(d);
      const i = this.kb.resolve(d);
      if (i === undefined) continue;
      const e = this.kb.entity(i);
      for (const other of [e.domain, ...e.otherDomains]) domains.add(other);
    }
    return domains;
  }

  rank(profile: TargetProfile, { limit, filters, external, extraRows = [], discovered = [], openVector, learned }: RankOptions): ResearchedCompetitor[] {
    const kb = this.kb;
    const { scored, excludedDomains, relatedOfTarget } = this.score(profile, external, learned);
    // Deterministic order: score, then the host name.
    scored.sort((a, b) => b.raw - a.raw || (kb.entity(a.i).host < kb.entity(b.i).host ? -1 : 1));
    const selected = this.select(scored, filters, limit, ({ i, raw, f }) => this.row(profile, i, raw, f));
    const { seenDomains, keeps } = selected;
    let rows = selected.rows;
    if (discovered.length) {
      // A discovered company's only known fact is the country its page states: a filter on any other leaves it out.
      const learnedRows = this.discoveredRows(profile, discovered, openVector ?? profile.vector, excludedDomains, seenDomains, relatedOfTarget);
      const kept = learnedRows.filter(({ row }) => keeps(row) && screens(row.firmographics, filters));
      rows = mergeDiscovered(rows, selected.raws, kept, limit, profile.entity !== null);
      for (const row of rows) seenDomains.add(row.domain);
    }
    // Rows from outside the knowledge base have no known headquarters, size, age or ownership, so a filter on any of
    // those leaves them out.
    const extras = screening(filters) ? [] : extraRows.filter((r) => !seenDomains.has(r.domain) && !excludedDomains.has(r.domain) && keeps(r));
    if (extras.length === 0) return rows;
    // Stable merge by score: knowledge-base rows keep their order among themselves, and so do the extra rows.
    const merged: ResearchedCompetitor[] = [];
    let a = 0;
    let b = 0;
    while (merged.length < limit && (a < rows.length || b < extras.length)) {
      if (b >= extras.length || (a < rows.length && rows[a]!.matchScore >= extras[b]!.matchScore)) merged.push(rows[a++]!);
      else merged.push(extras[b++]!);
    }
    return merged;
  }

  /**
   * Look-alikes of several seeds at once. Each seed's candidates are scored as a single search scores them; a
   * candidate's score then blends its (capped) score against its closest seed with the mean over every seed, plus a
   * bonus for each seed it is close to. So a company near most seeds (their shared categories, relations and text)
   * outranks one that is a head-to-head rival of a single seed: not the union of single searches. One seed ranks as
   * its search does.
   */
  lookalikes(profiles: TargetProfile[], { limit, filters }: Pick<RankOptions, 'limit' | 'filters'>): ResearchedCompetitor[] {
    const kb = this.kb;
    const n = profiles.length;
    const perSeed = profiles.map((p) => this.score(p));
    // Never returned: any seed, its aliases, parent and subsidiaries (the exclusions of every seed's own search).
    const excluded = new Set(perSeed.flatMap((s) => [...s.excluded]));
    const excludedDomains = new Set(perSeed.flatMap((s) => [...s.excludedDomains]));
    const bySeed = new Map<number, ({ raw: number; f: Features } | undefined)[]>();
    perSeed.forEach(({ scored }, k) => {
      for (const { i, raw, f } of scored) {
        if (excluded.has(i) || excludedDomains.has(kb.entity(i).domain)) continue;
        let seen = bySeed.get(i);
        if (!seen) bySeed.set(i, (seen = new Array(n)));
        seen[k] = { raw, f };
      }
    });
    const combined: (Scored & { best: number; close: number[] })[] = [];
    for (const [i, seen] of bySeed) {
      const raws = profiles.map((_, k) => seen[k]?.raw ?? 0);
      const order = raws.map((_, k) => k).sort((a, b) => raws[b]! - raws[a]! || a - b);
      const best = order[0]!;
      const close = order.filter((k) => raws[k]! >= CLOSE_TO_SEED);
      const mean = raws.reduce((sum, r) => sum + Math.min(r, SEED_RAW_CAP), 0) / n;
      const raw = n === 1 ? raws[0]! : SEED_BEST_WEIGHT * Math.min(raws[best]!, SEED_RAW_CAP) + (1 - SEED_BEST_WEIGHT) * mean + (SEED_COVERAGE_BONUS * close.length) / n;
      combined.push({ i, raw, f: seen[best]!.f, best, close: close.length ? close : [best] });
    }
    combined.sort((a, b) => b.raw - a.raw || (kb.entity(a.i).host < kb.entity(b.i).host ? -1 : 1));
    const byIndex = new Map(combined.map((c) => [c.i, c]));
    return this.select(combined, filters, limit, ({ i, raw }) => {
      const c = byIndex.get(i)!;
      const seed = profiles[c.best]!;
      const row = this.row(seed, i, bySeed.get(i)![c.best]!.raw, c.f);
      if (n === 1) return { ...row, similarTo: [seed.domain] };
      const matchScore = matchScoreOf(raw);
      const others = c.close.length - 1;
      return {
        ...row,
        matchScore,
        confidence: Math.min(98, row.confidence + SEED_AGREEMENT_CONFIDENCE * others),
        likelyCompetitor: row.type === 'Indirect' ? matchScore >= LIKELY_INDIRECT : row.type !== 'Adjacent' && matchScore >= LIKELY_DIRECT,
        evidence: { ...row.evidence, signals: [...row.evidence.signals, `close to ${c.close.length} of ${n} seeds`] },
        similarTo: c.close.map((k) => profiles[k]!.domain),
      };
    }).rows;
  }

  /**
   * Rows of a ranking (best first) that pass the filters, one per registrable domain (the best-scoring entry speaks for
   * it), at most `limit`. Filters keep a subset of the unfiltered ranking: each domain is judged by the row that would
   * stand for it.
   */
  private select(
    ranking: Scored[],
    filters: SearchFilters | undefined,
    limit: number,
    rowOf: (s: Scored) => ResearchedCompetitor,
  ): { rows: ResearchedCompetitor[]; raws: number[]; seenDomains: Set<string>; keeps: (row: ResearchedCompetitor) => boolean } {
    const kb = this.kb;
    const filteredOut = this.filteredDomains(filters);
    const keeps = (row: ResearchedCompetitor) =>
      !filteredOut.has(row.domain) && (!filters?.types || filters.types.includes(row.type)) && row.matchScore >= (filters?.minMatchScore ?? 0);
    const seenDomains = new Set<string>();
    const rows: ResearchedCompetitor[] = [];
    const raws: number[] = [];
    for (const scored of ranking) {
      const e = kb.entity(scored.i);
      if (seenDomains.has(e.domain)) continue;
      seenDomains.add(e.domain);
      if (!screens(kb.firmographics(scored.i), filters)) continue;
      const row = rowOf(scored);
      if (!keeps(row)) continue;
      rows.push(row);
      raws.push(scored.raw);
      if (rows.length >= limit) break;
    }
    return { rows, raws, seenDomains, keeps };
  }

  /** Every eligible candidate of one target with its raw score (unsorted), and what the target never returns. */
  private score(
    profile: TargetProfile,
    external?: Map<number, ExternalSignal>,
    learned?: Map<number, LearnedSignal>,
  ): { scored: Scored[]; excluded: Set<number>; excludedDomains: Set<string>; relatedOfTarget: Set<number> } {
    const kb = this.kb;
    const features = new Map<number, Features>();
    const at = (i: number) => {
      let f = features.get(i);
      if (!f) features.set(i, (f = emptyFeatures()));
      return f;
    };
    const t = profile.entity;

    if (t !== null) {
      // The target speaks for itself at full weight, and through its product lines and subsidiaries at a share.
      const speakers: [number, number][] = [[t, 1], ...kb.children[t]!.map((c): [number, number] => [c, kb.childShare(t, c)])];
      for (const [speaker, share] of speakers) {
        for (const edge of kb.outgoing[speaker]!) {
          const w = KIND_WEIGHT[edge.kind] * edge.strength * share;
          const f = at(edge.other);
          if (w > f.relation) Object.assign(f, { relation: w, relationKind: edge.kind });
        }
        for (const edge of kb.incoming[speaker]!) {
          const w = KIND_WEIGHT[edge.kind] * edge.strength * share;
          const f = at(edge.other);
          if (w > f.reverse) Object.assign(f, { reverse: w, reverseKind: edge.kind });
        }
      }
      // Two hops through rivals: the rivals of my rivals, and those who name the same rivals I name.
      const firstHop = [...kb.outgoing[t]!, ...kb.incoming[t]!].filter((e) => RIVALRY_KINDS.has(e.kind));
      for (const hop of firstHop) {
        const w1 = KIND_WEIGHT[hop.kind] * hop.strength;
        for (const next of [...kb.outgoing[hop.other]!, ...kb.incoming[hop.other]!]) {
          if (!RIVALRY_KINDS.has(next.kind) || next.other === t) continue;
          const w = w1 * KIND_WEIGHT[next.kind] * next.strength;
          // A two-hop path only ranks a candidate that qualifies otherwise (a relation, a shared category).
          const f = features.get(next.other) ?? (this.sharesCategory(profile, next.other) ? at(next.other) : undefined);
          if (f && w > f.twoHop) Object.assign(f, { twoHop: w, via: hop.other });
        }
      }
    }

    for (const [i, signal] of external ?? []) at(i).external = signal;
    for (const [i, signal] of learned ?? []) Object.assign(at(i), { learned: signal.out, learnedReverse: signal.in });

    const relatedOfTarget = new Set<number>();
    for (const [c] of profile.categories) for (const r of kb.index.categories[c]!.related) relatedOfTarget.add(r);
    for (const [c, weight] of profile.categories) {
      for (const member of kb.members[c]!) {
        const f = at(member);
        const primaryOfMember = kb.entity(member).categories[0] === c;
        const isPrimary = c === profile.primaryCategory;
        const w = weight * (isPrimary && primaryOfMember ? 1 : isPrimary || primaryOfMember ? 0.75 : 0.5);
        f.category += w;
        f.sharedCategories.push(c);
        if (isPrimary && primaryOfMember) f.primaryMatch = true;
      }
    }

    const { entities: excluded, domains: excludedDomains } = this.exclusions(profile);
    const targetCategories = profile.categories;
    const homeMarket = marketsOf(profile.language);
    const scored: Scored[] = [];
    for (const [i, f] of features) {
      if (excluded.has(i)) continue;
      const e = kb.entity(i);
      // A company that no longer exists is never a rival; nor is the target under another of its domains.
      if (e.defunct || excludedDomains.has(e.domain)) continue;
      // Eligible: a shared category, a curated rivalry (a complement is a partner, not a rival), or a verified proposal.
      const curatedRival = (f.relation > 0 && RIVALRY_KINDS.has(f.relationKind ?? '')) || (f.reverse > 0 && RIVALRY_KINDS.has(f.reverseKind ?? ''));
      if (f.sharedCategories.length === 0 && !curatedRival && f.external === null && f.learned === 0 && f.learnedReverse === 0) continue;
      const primary = e.categories[0];
      if (primary !== undefined && NOISE_CATEGORIES.has(kb.index.categories[primary]!.id) && !targetCategories.has(primary) && !curatedRival) continue;
      f.relatedCategory = e.categories.some((c) => relatedOfTarget.has(c)) ? 1 : 0;
      f.text = cosine(profile.vector, kb.vector(i));
      f.sharedKeywords = e.keywords.filter((k) => profile.keywords.has(k));
      const segmentOverlap = profile.segments.some((s) => e.segments.includes(s)) ? 1 : 0;
      const boost = profile.entity === null ? HOMEPAGE_EVIDENCE_BOOST : 1;
      const raw = rawScore(f, boost) + 0.06 * segmentOverlap + (SIZE_PRIOR[e.size] ?? 0) + kb.prominence[i]! + (homeMarket?.has(e.hq) ? HOME_MARKET_WEIGHT : 0);
      scored.push({ i, raw, f });
    }
    return { scored, excluded, excludedDomains, relatedOfTarget };
  }

  /** Rows of discovered companies, scored by the same features as knowledge-base entries, best first. */
  private discoveredRows(
    profile: TargetProfile,
    discovered: DiscoveredInput[],
    openVector: SparseVector,
    excludedDomains: Set<string>,
    seenDomains: Set<string>,
    relatedOfTarget: Set<number>,
  ): DiscoveredRow[] {
    const kb = this.kb;
    const out: DiscoveredRow[] = [];
    for (const d of discovered) {
      const { candidate } = d;
      if (excludedDomains.has(candidate.domain) || seenDomains.has(candidate.domain)) continue;
      const f = emptyFeatures();
      const primaryOfMember = d.categories[0];
      for (const c of d.categories) {
        const weight = profile.categories.get(c);
        if (weight === undefined) continue;
        const isPrimary = c === profile.primaryCategory;
        const isMemberPrimary = c === primaryOfMember;
        f.category += weight * (isPrimary && isMemberPrimary ? 1 : isPrimary || isMemberPrimary ? 0.75 : 0.5);
        f.sharedCategories.push(c);
        if (isPrimary && isMemberPrimary) f.primaryMatch = true;
      }
      if (d.learned) Object.assign(f, { learned: d.learned.out, learnedReverse: d.learned.in });
      if (f.sharedCategories.length === 0 && f.learned === 0 && f.learnedReverse === 0) continue;
      if (primaryOfMember !== undefined && NOISE_CATEGORIES.has(kb.index.categories[primaryOfMember]!.id) && !profile.categories.has(primaryOfMember)) continue;
      f.relatedCategory = d.categories.some((c) => relatedOfTarget.has(c)) ? 1 : 0;
      f.text = cosine(openVector, d.vector);
      const raw = rawScore(f, profile.entity === null ? HOMEPAGE_EVIDENCE_BOOST : 1);
      const matchScore = matchScoreOf(raw);
      const type: CompetitorType = f.primaryMatch ? 'Direct' : f.sharedCategories.length > 0 || Math.max(f.learned, f.learnedReverse) > 0.3 ? 'Indirect' : 'Adjacent';
      const target = profile.name;
      const signals: string[] = [`Learned from its own homepage (read ${candidate.fetchedAt.slice(0, 10)})`];
      if (f.learned > 0 || f.learnedReverse > 0) signals.push(`Named as a rival of ${target} by outside research, then checked (${d.learned!.verifiedAt.slice(0, 10)})`);
      if (f.primaryMatch) signals.push(`Same main market as ${target}: ${kb.index.categories[profile.primaryCategory!]!.name}`);
      else if (f.sharedCategories.length) signals.push(`Also in ${target}'s market${f.sharedCategories.length > 1 ? 's' : ''}: ${f.sharedCategories.slice(0, 3).map((c) => kb.index.categories[c]!.name).join(', ')}`);
      if (f.text >= 0.15) signals.push(`Describes what it does much as ${target} does`);
      const independent = [f.learned > 0 || f.learnedReverse > 0, f.primaryMatch, f.sharedCategories.length >= 2, f.text >= 0.15].filter(Boolean).length;
      const base = (profile.source === 'knowledge-base' ? 40 : 25) - DISCOVERED_CONFIDENCE_PENALTY;
      const confidence = Math.max(1, Math.min(DISCOVERED_CONFIDENCE_CAP, Math.round(base + 9 * independent + (10 * Math.min(raw, 2)) / 2)));
      const likelyCompetitor = type === 'Indirect' ? matchScore >= LIKELY_INDIRECT : type !== 'Adjacent' && matchScore >= LIKELY_DIRECT;
      out.push({
        raw,
        // The top 10 of a known company is an analyst's list: a discovered company enters it only as a close peer.
        top10: f.primaryMatch && f.text >= DISCOVERED_TOP10_SIMILARITY,
        country: candidate.country,
        row: {
          company: candidate.name,
          domain: candidate.domain,
          firmographics: { ...UNKNOWN_FIRMOGRAPHICS, hq: candidate.country },
          matchScore,
          type,
          confidence,
          likelyCompetitor,
          evidence: {
            signals,
            sharedCategories: f.sharedCategories.map((c) => kb.index.categories[c]!.id),
            sharedKeywords: [],
            relation: f.learned > 0 || f.learnedReverse > 0 ? 'competes' : null,
            source: 'discovered',
            fetchedAt: candidate.fetchedAt,
          },
        },
      });
    }
    return out.sort((a, b) => b.raw - a.raw || (a.row.domain < b.row.domain ? -1 : 1));
  }

  private sharesCategory(profile: TargetProfile, i: number): boolean {
    return this.kb.entity(i).categories.some((c) => profile.categories.has(c));
  }

  private row(profile: TargetProfile, i: number, raw: number, f: Features): ResearchedCompetitor {
    const kb = this.kb;
    const e = kb.entity(i);
    const matchScore = matchScoreOf(raw);
    const type = this.classify(profile, i, f, matchScore);
    // In a reader's words: what ties this company to the target, strongest first.
    const target = profile.name;
    const signals: string[] = [];
    const relations = new Set([f.relation > 0 ? f.relationKind : null, f.reverse > 0 ? f.reverseKind : null].filter((k): k is string => k !== null));
    for (const kind of relations) signals.push(relationSentence(kind, target));
    if (f.twoHop > 0) signals.push(`Competes with ${kb.entity(f.via).name}, a rival of ${target}`);
    if (f.primaryMatch) signals.push(`Same main market as ${target}: ${kb.index.categories[profile.primaryCategory!]!.name}`);
    else if (f.sharedCategories.length) signals.push(`Also in ${target}'s market${f.sharedCategories.length > 1 ? 's' : ''}: ${f.sharedCategories.slice(0, 3).map((c) => kb.index.categories[c]!.name).join(', ')}`);
    if (f.text >= 0.15) signals.push(`Describes what it does much as ${target} does`);
    if (f.sharedKeywords.length) signals.push(`Shares keywords with ${target}: ${f.sharedKeywords.slice(0, 5).join(', ')}`);
    if (f.external) signals.push(`Suggested by ${f.external.sources.join(' and ')}, then checked`);
    if (f.learned > f.relation || f.learnedReverse > f.reverse) signals.push(`Named as a rival of ${target} by outside research, then checked`);
    const independent = [
      f.relation > 0 || f.reverse > 0 || f.learned > 0 || f.learnedReverse > 0,
      f.relation > 0 && f.reverse > 0,
      f.twoHop > 0.2,
      f.primaryMatch,
      f.sharedCategories.length >= 2,
      f.text >= 0.15,
      f.sharedKeywords.length >= 2,
      f.external !== null,
    ].filter(Boolean).length;
    const confidence = Math.min(98, Math.round((profile.source === 'knowledge-base' ? 40 : 25) + 9 * independent + 10 * Math.min(raw, 2) / 2));
    const likelyCompetitor = type === 'Indirect' ? matchScore >= LIKELY_INDIRECT : type !== 'Adjacent' && matchScore >= LIKELY_DIRECT;
    const relationKind = f.relation > 0 ? f.relationKind : f.reverse > 0 ? f.reverseKind : null;
    // A product line is reported under its company's domain: the company is named beside it.
    let owner = e;
    for (let hops = 0; owner.product && owner.parent >= 0 && hops < 10; hops++) owner = kb.entity(owner.parent);
    return {
      company: e.name,
      domain: e.domain,
      matchScore,
      type,
      confidence,
      likelyCompetitor,
      firmographics: kb.firmographics(i),
      evidence: {
        signals,
        sharedCategories: f.sharedCategories.map((c) => kb.index.categories[c]!.id),
        sharedKeywords: f.sharedKeywords.slice(0, 8),
        relation: relationKind,
        source: profile.source,
        ...(owner !== e ? { parentCompany: owner.name } : {}),
        entity: e.host,
        ...(e.description ? { description: e.description } : {}),
        ...(e.hq ? { headquarters: e.hq } : {}),
        ...(e.size ? { size: e.size } : {}),
      },
    };
  }

  /**
   * Direct: same primary category or a strong competes relation. Indirect: same need met another way (alternative,
   * substitute, or a shared secondary category). Adjacent: only a weak rivalry, no shared category. Emerging:
   * a young company (founded since EMERGING_SINCE) that would otherwise be Direct or Indirect with a strong match.
   */
  private classify(profile: TargetProfile, i: number, f: Features, matchScore: number): CompetitorType {
    const e = this.kb.entity(i);
    const competes = f.relationKind === 'competes' ? f.relation : 0;
    const reverseCompetes = f.reverseKind === 'competes' ? f.reverse : 0;
    let type: CompetitorType;
    if (f.primaryMatch || competes >= 0.5 || reverseCompetes >= 0.6 || (f.sharedCategories.includes(profile.primaryCategory ?? -1) && (competes > 0 || reverseCompetes > 0)))
      type = 'Direct';
    else if (f.relation > 0.3 || f.reverse > 0.3 || f.sharedCategories.length > 0) type = 'Indirect';
    else type = 'Adjacent';
    if (type !== 'Adjacent' && e.founded >= EMERGING_SINCE && matchScore >= 40 && ['1-10', '11-50', '51-200', '201-500'].includes(e.size)) type = 'Emerging';
    return type;
  }
}

/** The score every candidate shares (knowledge-base entries add their size, segment and prominence priors). */
function rawScore(f: Features, boost: number): number {
  return (
    1.7 * Math.max(f.relation, LEARNED_SHARE * f.learned) +
    1.1 * Math.max(f.reverse, LEARNED_SHARE * f.learnedReverse) +
    0.9 * f.twoHop +
    boost * 0.55 * Math.min(f.category, 1.6) +
    (f.primaryMatch ? 0.25 : 0) +
    0.1 * f.relatedCategory +
    boost * 0.9 * f.text +
    0.05 * Math.min(f.sharedKeywords.length, 4) +
    (f.external ? Math.min(0.6, 0.3 * f.external.votes) : 0)
  );
}

interface DiscoveredRow {
  raw: number;
  /** May stand in a known company's top 10. */
  top10: boolean;
  country: string | null;
  row: ResearchedCompetitor;
}

/**
 * Knowledge-base rows and discovered rows merged by raw score (a tie goes to the knowledge base), at most `limit`.
 * For a known target, a discovered row not allowed in the top 10 waits below the tenth row.
 */
function mergeDiscovered(rows: ResearchedCompetitor[], raws: number[], discovered: DiscoveredRow[], limit: number, knownTarget: boolean): ResearchedCompetitor[] {
  const merged: ResearchedCompetitor[] = [];
  const waiting: DiscoveredRow[] = [];
  let a = 0;
  let b = 0;
  const TOP = 10;
  while (merged.length < limit && (a < rows.length || b < discovered.length || waiting.length)) {
    if (merged.length >= TOP && waiting.length && (a >= rows.length || waiting[0]!.raw > raws[a]!) && (b >= discovered.length || waiting[0]!.raw >= discovered[b]!.raw)) {
      merged.push(waiting.shift()!.row);
    } else if (b < discovered.length && (a >= rows.length || discovered[b]!.raw > raws[a]!)) {
      const d = discovered[b++]!;
      if (knownTarget && merged.length < TOP && !d.top10) waiting.push(d);
      else merged.push(d.row);
    } else if (a < rows.length) {
      merged.push(rows[a++]!);
    } else {
      merged.push(waiting.shift()!.row);
    }
  }
  return merged;
}
