// engine: the ResearchEngine adapter. A known domain is profiled from the knowledge base; an unknown one from its
// homepage (cached), classified into categories by text, then ranked the same way.
import { UNKNOWN_FIRMOGRAPHICS, type CompetitorType } from '@rivals/contracts';
import { detectLanguage, normalizeDomain, registrableDomain, type HomepageProfile, type HomepageReader, type ProfileCache, type ResearchedCompetitor, type ResearchEngine, type ResearchOutcome, type ResearchRequest } from '@rivals/core';
import { loadKnowledgeBase, type KbIndex } from '@rivals/kb';
import { KnowledgeModel } from './model.js';
import { languageByLexicon, toEnglish } from './multilingual.js';
import type { TargetProfile } from './profile.js';
import { Ranker, type ExternalSignal } from './ranker.js';
import { cosine } from './text.js';

/** An optional outside source of candidates (an LLM, a web-search API); see @rivals/providers. */
export interface CandidateSource {
  readonly name: string;
  propose(
    target: { domain: string; name: string; description: string; categories: string[] },
    options: { limit: number; signal: AbortSignal },
  ): Promise<{ name: string; domain: string; type?: CompetitorType; reason?: string }[]>;
}

export interface EngineOptions {
  index?: KbIndex;
  homepage?: HomepageReader;
  profileCache?: ProfileCache;
  /** Off by default. Their proposals are verified (known to the knowledge base, or homepage read) before use. */
  providers?: CandidateSource[];
  providerDeadlineMs?: number;
}

/** How many proposals unknown to the knowledge base are verified by reading their homepage, per search. */
const MAX_UNKNOWN_PROPOSALS = 10;

interface Proposal {
  domain: string;
  name: string;
  type?: CompetitorType;
  sources: string[];
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

  async research({ domain, seeds, limit, filters, signal }: ResearchRequest): Promise<ResearchOutcome> {
    if (seeds?.length) return this.lookalikes(seeds, limit, filters, signal);
    const { profile, page } = await this.targetProfile(domain, signal);
    if (!profile) return { targetSource: 'none', competitors: [] };
    const targetSource = profile.source;
    if (!this.options.providers?.length) return { targetSource, competitors: this.ranker.rank(profile, { limit, filters }) };

    const proposals = await this.consultProviders(profile, page, limit, signal);
    const external = new Map<number, ExternalSignal>();
    const unknown: Proposal[] = [];
    for (const p of proposals) {
      const i = this.model.resolve(p.domain);
      if (i !== undefined) external.set(i, { votes: p.sources.length, sources: p.sources });
      else unknown.push(p);
    }
    const extraRows = await this.verifyUnknown(profile, unknown.slice(0, MAX_UNKNOWN_PROPOSALS), signal);
    return { targetSource, competitors: this.ranker.rank(profile, { limit, filters, external, extraRows }) };
  }

  /**
   * The profile of a target: its knowledge-base entry, else what its homepage says (the page is returned too). The
   * one way a search and a look-alike seed are profiled.
   */
  private async targetProfile(domain: string, signal: AbortSignal): Promise<{ profile: TargetProfile | null; page: HomepageProfile | null }> {
    const known = this.knownProfile(domain);
    if (known) return { profile: known, page: null };
    const page = await this.homepage(domain, signal);
    // A domain the knowledge base does not list may still land on a site it knows (an old brand, a country
    // domain, a marketing domain): then the company is known after all.
    return { profile: page && (this.landedProfile(domain, page) ?? this.homepageProfile(page)), page };
  }

  /**
   * Look-alikes of several seeds. Unknown seeds are read from their homepages (at once); a seed that cannot be
   * profiled is left out, and with no seed left nothing is found. Optional providers are not consulted here.
   */
  private async lookalikes(seeds: string[], limit: number, filters: ResearchRequest['filters'], signal: AbortSignal): Promise<ResearchOutcome> {
    const profiled = await Promise.all(
      seeds.map((seed) =>
        this.targetProfile(seed, signal).then(
          ({ profile }) => profile,
          (error: unknown) => {
            signal.throwIfAborted();
            if (seeds.length === 1) throw error;
            return null;
          },
        ),
      ),
    );
    const profiles = profiled.filter((p): p is TargetProfile => p !== null);
    if (profiles.length === 0) return { targetSource: 'none', competitors: [] };
    const targetSource = profiles.some((p) => p.source === 'knowledge-base') ? 'knowledge-base' : 'homepage';
    return { targetSource, competitors: this.ranker.lookalikes(profiles, { limit, ...(filters ? { filters } : {}) }) };
  }

  /** Every provider at once, within the provider deadline; a failing provider is skipped, an abort is not. */
  private async consultProviders(profile: TargetProfile, page: HomepageProfile | null, limit: number, signal: AbortSignal): Promise<Proposal[]> {
    const providers = this.options.providers ?? [];
    const deadline = AbortSignal.any([signal, AbortSignal.timeout(this.options.providerDeadlineMs ?? 8_000)]);
    const entity = profile.entity === null ? null : this.model.entity(profile.entity);
    const target = {
      domain: profile.domain,
      name: profile.name,
      description: entity?.description ?? page?.description ?? '',
      categories: [...profile.categories.keys()].map((c) => this.model.index.categories[c]!.name),
    };
    const answers = await Promise.allSettled(providers.map((p) => p.propose(target, { limit, signal: deadline })));
    signal.throwIfAborted();
    const byDomain = new Map<string, Proposal>();
    answers.forEach((answer, n) => {
      if (answer.status !== 'fulfilled') return;
      for (const candidate of answer.value) {
        let domain: string;
        try {
          domain = normalizeDomain(candidate.domain);
        } catch {
          continue;
        }
        if (domain === profile.domain) continue;
        const seen = byDomain.get(domain);
        if (seen) {
          if (!seen.sources.includes(providers[n]!.name)) seen.sources.push(providers[n]!.name);
        } else byDomain.set(domain, { domain, name: candidate.name, ...(candidate.type ? { type: candidate.type } : {}), sources: [providers[n]!.name] });
      }
    });
    return [...byDomain.values()].sort((a, b) => b.sources.length - a.sources.length || a.domain.localeCompare(b.domain));
  }

  /** Keeps only proposals whose homepage can be read, scored below strong knowledge-base matches. */
  private async verifyUnknown(profile: TargetProfile, proposals: Proposal[], signal: AbortSignal): Promise<ResearchedCompetitor[]> {
    const pages = await Promise.all(proposals.map((p) => this.homepage(p.domain, signal).catch(() => null)));
    const rows: ResearchedCompetitor[] = [];
    proposals.forEach((p, n) => {
      const page = pages[n];
      if (!page) return;
      const placed = this.homepageProfile(page);
      const shared = placed ? [...placed.categories.keys()].filter((c) => profile.categories.has(c)) : [];
      const matchScore = Math.min(75, 40 + 10 * p.sources.length + (shared.length ? 15 : 0));
      const type: CompetitorType = p.type ?? (shared.length ? 'Direct' : 'Indirect');
      rows.push({
        company: page.organizationName ?? p.name,
        domain: p.domain,
        firmographics: UNKNOWN_FIRMOGRAPHICS,
        matchScore,
        type,
        confidence: Math.min(80, 25 + 10 * p.sources.length + (shared.length ? 10 : 0)),
        likelyCompetitor: type !== 'Adjacent' && matchScore >= 55,
        evidence: {
          signals: [`proposed by ${p.sources.join(', ')}`, 'homepage read'],
          sharedCategories: shared.map((c) => this.model.index.categories[c]!.id),
          sharedKeywords: [],
          relation: null,
          source: p.sources.join(','),
        },
      });
    });
    return rows.sort((a, b) => b.matchScore - a.matchScore || a.domain.localeCompare(b.domain));
  }

  /** The knowledge-base profile of the site a homepage redirected to, searched under the domain that was asked for. */
  private landedProfile(domain: string, page: HomepageProfile): TargetProfile | null {
    let host: string;
    try {
      host = new URL(page.url).hostname.replace(/^www\./, '');
    } catch {
      return null;
    }
    const i = this.model.byHost.get(host) ?? this.model.resolve(registrableDomain(host));
    if (i === undefined) return null;
    // The page must be the company's own (its name in the title or organisation), and must not present the searched
    // domain itself, as a parked domain's page on a domain marketplace does ("example.com is for sale").
    const flat = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
    const pageText = flat(`${page.title} ${page.organizationName ?? ''}`);
    const e = this.model.entity(i);
    const named = [e.name, ...e.aliases].some((n) => flat(n).length >= 2 && pageText.includes(flat(n)));
    return named && !pageText.includes(flat(domain)) ? this.profileOf(i, domain) : null;
  }

  knownProfile(domain: string): TargetProfile | null {
    const i = this.model.resolve(domain);
    return i === undefined ? null : this.profileOf(i, domain);
  }

  private profileOf(i: number, domain: string): TargetProfile {
    const e = this.model.entity(i);
    const categories = new Map<number, number>();
    // A parent is also in the categories of its product lines and subsidiaries, as much as each speaks for it.
    for (const child of this.model.children[i]!) {
      const share = this.model.childShare(i, child);
      for (const c of this.model.entity(child).categories) categories.set(c, Math.max(categories.get(c) ?? 0, share));
    }
    e.categories.forEach((c, n) => categories.set(c, n === 0 ? 1 : 0.8));
    return {
      source: 'knowledge-base',
      domain,
      name: e.name,
      entity: i,
      categories,
      primaryCategory: e.categories[0] ?? null,
      vector: this.model.vector(i),
      keywords: new Set(e.keywords),
      segments: e.segments,
      model: e.model,
      language: null,
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
    // The title is where a company says what it is; it counts twice, like the description it sums up.
    const text = [page.title, page.title, page.description, page.description, ...page.headings, ...page.keywords].join(' ');
    // A page in German, French, Spanish, Portuguese, Italian or Dutch is read in the knowledge base's English. The
    // crawler names the language; a profile cached before it did is judged from its text here, and a page too short
    // for either by the lexicon language that knows its words.
    const language = (page.language !== undefined ? page.language : detectLanguage(text)) ?? languageByLexicon(text);
    const vector = this.model.text.vectorize(this.model.text.termIds(toEnglish(text, language)));
    if (vector.size === 0) return null;
    const scores = new Map<number, number>();
    this.model.categoryVectors.forEach((cv, c) => scores.set(c, cosine(vector, cv)));
    const neighbours = this.model.index.entities
      .map((_, i) => ({ i, s: cosine(vector, this.model.vector(i)) }))
      .filter((n) => n.s > 0)
      .sort((a, b) => b.s - a.s || a.i - b.i)
      .slice(0, 15);
    // Each category counts its closest neighbour, not how many: a crowded category must not outvote a precise one.
    const nearest = new Map<number, number>();
    for (const { i, s } of neighbours) {
      this.model.entity(i).categories.forEach((c, n) => nearest.set(c, Math.max(nearest.get(c) ?? 0, s * (n === 0 ? 1 : 0.5))));
    }
    for (const [c, s] of nearest) scores.set(c, (scores.get(c) ?? 0) + s);
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
      language,
    };
  }
}

let shared: KnowledgeBaseEngine | undefined;
/** The engine of this process; the knowledge base is loaded once, on first use. */
export function createEngine(options: EngineOptions = {}): KnowledgeBaseEngine {
  if (Object.values(options).some((v) => v !== undefined)) return new KnowledgeBaseEngine(options);
  return (shared ??= new KnowledgeBaseEngine());
}
