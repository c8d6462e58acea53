// engine: the ResearchEngine adapter. A known domain is profiled from the knowledge base; an unknown one from its
// homepage (cached), classified into categories by text, then ranked the same way.
import type { HomepageProfile, HomepageReader, ProfileCache, ResearchEngine, ResearchOutcome, ResearchRequest } from '@rivals/core';
import { loadKnowledgeBase, type KbIndex } from '@rivals/kb';
import { KnowledgeModel } from './model.js';
import type { TargetProfile } from './profile.js';
import { Ranker } from './ranker.js';
import { cosine, tokenize } from './text.js';

export interface EngineOptions {
  index?: KbIndex;
  homepage?: HomepageReader;
  profileCache?: ProfileCache;
}

/** Categories a homepage is placed in: at most this many, and only those scoring this share of the best. */
const MAX_INFERRED_CATEGORIES = 3;
const INFERRED_CATEGORY_RATIO = 0.6;
const MIN_TEXT_EVIDENCE = 0.08;

export class KnowledgeBaseEngine implements ResearchEngine {
  readonly model: KnowledgeModel;
  private readonly ranker: Ranker;

  constructor(private readonly options: EngineOptions = {}) {
    this.model = new KnowledgeModel(options.index ?? loadKnowledgeBase());
    this.ranker = new Ranker(this.model);
  }

  async research({ domain, limit, signal }: ResearchRequest): Promise<ResearchOutcome> {
    const known = this.knownProfile(domain);
    if (known) return { targetSource: 'knowledge-base', competitors: this.ranker.rank(known, { limit }) };
    const homepage = await this.homepage(domain, signal);
    const profile = homepage && this.homepageProfile(homepage);
    if (!profile) return { targetSource: 'none', competitors: [] };
    return { targetSource: 'homepage', competitors: this.ranker.rank(profile, { limit }) };
  }

  knownProfile(domain: string): TargetProfile | null {
    const i = this.model.resolve(domain);
    if (i === undefined) return null;
    const e = this.model.entity(i);
    const categories = new Map<number, number>(e.categories.map((c, n) => [c, n === 0 ? 1 : 0.8]));
    return {
      source: 'knowledge-base',
      domain,
      name: e.name,
      entity: i,
      categories,
      primaryCategory: e.categories[0] ?? null,
      vector: this.model.vectors[i]!,
      keywords: this.model.keywordSets[i]!,
      segments: e.segments,
      model: e.model,
    };
  }

  private async homepage(domain: string, signal: AbortSignal): Promise<HomepageProfile | null> {
    const cached = await this.options.profileCache?.get(domain).catch(() => null);
    if (cached) return cached;
    const fresh = (await this.options.homepage?.read(domain, signal)) ?? null;
    if (fresh) await this.options.profileCache?.put(fresh).catch(() => undefined);
    return fresh;
  }

  /** Places a homepage in categories: similarity to each category's text, plus the votes of its nearest entries. */
  homepageProfile(page: HomepageProfile): TargetProfile | null {
    const text = [page.title, page.description, page.description, ...page.headings, ...page.keywords].join(' ');
    const vector = this.model.text.vectorize(tokenize(text));
    if (vector.size === 0) return null;
    const scores = new Map<number, number>();
    this.model.categoryVectors.forEach((cv, c) => scores.set(c, cosine(vector, cv)));
    const neighbours = this.model.vectors
      .map((v, i) => ({ i, s: cosine(vector, v) }))
      .filter((n) => n.s > 0)
      .sort((a, b) => b.s - a.s || a.i - b.i)
      .slice(0, 15);
    for (const { i, s } of neighbours) {
      this.model.entity(i).categories.forEach((c, n) => scores.set(c, (scores.get(c) ?? 0) + s * (n === 0 ? 0.5 : 0.25)));
    }
    const ranked = [...scores].filter(([, s]) => s > 0).sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    const best = ranked[0];
    if (!best || best[1] < MIN_TEXT_EVIDENCE) return null;
    const chosen = ranked.filter(([, s]) => s >= best[1] * INFERRED_CATEGORY_RATIO).slice(0, MAX_INFERRED_CATEGORIES);
    return {
      source: 'homepage',
      domain: page.domain,
      name: page.organizationName ?? page.title,
      entity: null,
      categories: new Map(chosen.map(([c, s]) => [c, s / best[1]])),
      primaryCategory: best[0],
      vector,
      keywords: new Set(page.keywords.map((k) => k.toLowerCase())),
      segments: [],
      model: null,
    };
  }
}

let shared: KnowledgeBaseEngine | undefined;
/** The engine of this process; the knowledge base is loaded once, on first use. */
export function createEngine(options: EngineOptions = {}): KnowledgeBaseEngine {
  if (options.index || options.homepage || options.profileCache) return new KnowledgeBaseEngine(options);
  return (shared ??= new KnowledgeBaseEngine());
}
