// engine: the ResearchEngine adapter. A known domain is profiled from the knowledge base; an unknown one from its
// homepage (cached), classified into categories by text, then ranked the same way.
import { UNKNOWN_FIRMOGRAPHICS, type CompetitorType } from '@rivals/contracts';
import {
  DEFAULT_DISCOVERIES_PER_HOUR,
  detectLanguage,
  normalizeDomain,
  registrableDomain,
  type Clock,
  type DiscoveredCandidate,
  type DiscoveredCompany,
  type DiscoveredStore,
  type DiscoveredVia,
  type HomepageProfile,
  type HomepageReader,
  type KbImportStore,
  type LearnedEdge,
  type ProfileCache,
  type RateLimiter,
  type ResearchedCompetitor,
  type ResearchEngine,
  type ResearchOutcome,
  type ResearchRequest,
} from '@rivals/core';
import { CompanySpec, loadKnowledgeBase, mergeImports, tokenize, type KbIndex } from '@rivals/kb';
import { flatName, junkReason, learnedText, MAX_LEARNED_TERMS, shortDescription } from './discovery.js';
import { KnowledgeModel } from './model.js';
import { languageByLexicon, toEnglish } from './multilingual.js';
import type { TargetProfile } from './profile.js';
import { Ranker, type DiscoveredInput, type ExternalSignal, type LearnedSignal, type RankOptions } from './ranker.js';
import { cosine, type SparseVector } from './text.js';

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
  /** The discovered layer (companies learned from homepages read, relations learned from providers). Without it,
   * the knowledge base alone. */
  discovered?: DiscoveredStore;
  /** Caps the new discovered companies one account adds an hour; none: no cap (tools and tests). */
  discoveryLimiter?: RateLimiter;
  /** Default DEFAULT_DISCOVERIES_PER_HOUR. */
  discoveriesPerHour?: number;
  /** How long a category's discovered members and a domain's learned relations are kept in memory. Default 30 s. */
  discoveredCacheMs?: number;
  /** What "now" is for a profile's age. Default the system clock. */
  clock?: Clock;
  /** Companies the deployment's team imported: merged into the knowledge base as curated entries, live. */
  imports?: KbImportStore;
  /** How often the import version is checked. Default 30 s. */
  importCheckMs?: number;
}

/** How often a process asks whether the team imported companies since it last looked. */
const IMPORT_CHECK_MS = 30_000;

/**
 * The discovered layer's cost per search (see docs/learning.md): at most this many of the target's categories are
 * read (its heaviest), each with one Query of at most MEMBERS_PER_CATEGORY items, plus one Query of learned relations.
 */
const DISCOVERED_CATEGORIES_READ = 3;
export const MEMBERS_PER_CATEGORY = 150;
const EDGES_READ = 50;
/** A discovered company's profile older than this is read again when a search returns it (at most a few a search). */
export const STALE_AFTER_DAYS = 30;
const MAX_REFRESHES_PER_SEARCH = 3;
/** A read started by prepare() is kept at least this long, for the research that follows it. */
const PREPARED_HOLD_MS = 5_000;
/** The summary changes rarely (a category's first member, a new learned relation): every search of the process
 * shares one read for this long, whatever the cache setting of the reads it guides. */
const SUMMARY_HOLD_MS = 30_000;
/** A learned relation's strength: a single provider's verified vote 0.8, two or more 1. */
const learnedStrength = (votes: number) => Math.min(1, 0.6 + 0.2 * votes);
/** Names this short say too little to claim an identity ("AI", "Go"). */
const MIN_IDENTITY_NAME = 3;

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
/** A page at least this close (cosine of analysed terms) to a discovered peer is learned in that peer's categories. */
export const CONSENSUS_SIMILARITY = 0.25;
/** The page's own placement votes with this weight beside its peers' similarity (a close peer outvotes it). */
const OWN_PLACEMENT_VOTE = 0.5;

export class KnowledgeBaseEngine implements ResearchEngine {
  /** The compiled knowledge base, with the team's imported companies merged in (rebuilt when they change). */
  model: KnowledgeModel;
  private ranker: Ranker;
  private readonly base: KbIndex;
  private importVersion: string | null = null;
  private importCheck: { until: number; done: Promise<void> } | null = null;
  private readonly categoryIds: Map<string, number>;
  /** Flat names and aliases of every entry: a page claiming one of them is not learned (see learnPage). */
  private knownNames: Set<string> | undefined;
  private readonly layerCache = new Map<string, { until: number; value: Promise<unknown> }>();

  constructor(private readonly options: EngineOptions = {}) {
    this.base = options.index ?? loadKnowledgeBase();
    this.model = new KnowledgeModel(this.base);
    this.ranker = new Ranker(this.model);
    this.categoryIds = new Map(this.model.index.categories.map((c, i) => [c.id, i]));
  }

  async research({ domain, seeds, limit, filters, signal, accountId, via = 'search' }: ResearchRequest): Promise<ResearchOutcome> {
    if (this.options.imports) await this.refreshImports();
    if (seeds?.length) return this.lookalikes(seeds, limit, filters, signal, accountId, via);
    const { profile, page } = await this.targetProfile(domain, signal, accountId, via);
    if (!profile) return { targetSource: 'none', competitors: [], failureReason: page ? 'homepage_too_thin' : 'homepage_unreachable' };
    const layer = await this.discoveredLayer(profile, page);
    if (!this.options.providers?.length) return this.outcome(profile, await this.cleanDiscovered(profile, this.ranker.rank(profile, { limit, filters, ...layer }), signal), filters, layer);

    const proposals = await this.consultProviders(profile, page, limit, signal);
    const external = new Map<number, ExternalSignal>();
    const unknown: Proposal[] = [];
    for (const p of proposals) {
      const i = this.model.resolve(p.domain);
      if (i !== undefined) {
        external.set(i, { votes: p.sources.length, sources: p.sources });
        // Known to the knowledge base: verified. Kept as a learned relation for later searches, both ways.
        await this.learnRelation(profile, page, this.model.entity(i).domain, p.sources.length, null);
      } else unknown.push(p);
    }
    const extraRows = await this.verifyUnknown(profile, page, unknown.slice(0, MAX_UNKNOWN_PROPOSALS), signal, accountId);
    const ranked = this.ranker.rank(profile, { limit, filters, external, extraRows, ...layer });
    return this.outcome(profile, await this.cleanDiscovered(profile, ranked, signal), filters, { external, extraRows, ...layer });
  }

  /** The outcome, saying why when nothing was found: filters that removed every rival, or no rival at all. */
  private outcome(profile: TargetProfile, competitors: ResearchedCompetitor[], filters: ResearchRequest['filters'], extra: Omit<RankOptions, 'limit' | 'filters'> = {}): ResearchOutcome {
    if (competitors.length) return { targetSource: profile.source, competitors };
    const unfiltered = filters ? this.ranker.rank(profile, { limit: 1, ...extra }) : [];
    return { targetSource: profile.source, competitors, failureReason: unfiltered.length ? 'filters_excluded_all' : 'no_rivals_known' };
  }

  /**
   * The profile of a target: its knowledge-base entry, else what its homepage says (the page is returned too), and a
   * page read fresh is learned. The one way a search and a look-alike seed are profiled.
   */
  private async targetProfile(
    domain: string,
    signal: AbortSignal,
    accountId: string | undefined,
    via: DiscoveredVia,
  ): Promise<{ profile: TargetProfile | null; page: HomepageProfile | null }> {
    const known = this.knownProfile(domain);
    if (known) return { profile: known, page: null };
    const read = await this.readHomepage(domain, signal);
    const page = read?.page ?? null;
    // A domain the knowledge base does not list may still land on a site it knows (an old brand, a country
    // domain, a marketing domain): then the company is known after all.
    const landed = page && this.landedProfile(domain, page);
    let profile = page && (landed ?? this.homepageProfile(page));
    if (page && read?.fresh) {
      // Learned with the categories of its closest discovered peer, if it has one (a niche's consensus).
      const peers = profile && !landed ? await this.discoveredLayer(profile, page) : {};
      await this.learnPage(page, via, accountId, landed, undefined, peers);
    }
    // A company the layer holds is searched in the categories it was learned in, so that a niche's members, once
    // placed together, keep finding each other whatever a single reading of one page would say.
    if (profile && profile.entity === null && this.options.discovered) profile = await this.asLearned(profile);
    return { profile, page };
  }

  /**
   * Look-alikes of several seeds. Unknown seeds are read from their homepages (at once, and learned as a search
   * learns them); a seed that cannot be profiled is left out, and with no seed left nothing is found. Optional
   * providers are not consulted here.
   */
  private async lookalikes(
    seeds: string[],
    limit: number,
    filters: ResearchRequest['filters'],
    signal: AbortSignal,
    accountId: string | undefined,
    via: DiscoveredVia,
  ): Promise<ResearchOutcome> {
    const profiled = await Promise.all(
      seeds.map((seed) =>
        this.targetProfile(seed, signal, accountId, via).then(
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
    if (profiles.length === 0) return { targetSource: 'none', competitors: [], failureReason: 'homepage_unreachable' };
    const targetSource = profiles.some((p) => p.source === 'knowledge-base') ? 'knowledge-base' : 'homepage';
    return { targetSource, competitors: this.ranker.lookalikes(profiles, { limit, ...(filters ? { filters } : {}) }) };
  }

  /**
   * Starts reading the discovered layer for a known domain (see ResearchEngine.prepare): the search service calls it
   * before it reserves the credit, so the reads overlap the reservation. An unknown domain needs its homepage first.
   */
  prepare(domain: string): void {
    const profile = this.options.discovered ? this.knownProfile(domain) : null;
    if (profile) this.discoveredLayer(profile, null, PREPARED_HOLD_MS).catch(() => undefined);
  }

  /**
   * Merges the team's imported companies into the model when their version changed (checked at most every 30 s; a
   * failing check keeps the model as it is). Searches meanwhile use the model they started with.
   */
  private refreshImports(): Promise<void> {
    const store = this.options.imports!;
    const now = Date.now();
    if (this.importCheck && this.importCheck.until > now) return this.importCheck.done;
    const done = (async () => {
      try {
        const version = await store.version();
        if (version === this.importVersion) return;
        const companies = (await store.companies()).flatMap((raw) => {
          const parsed = CompanySpec.safeParse(raw);
          return parsed.success ? [parsed.data] : [];
        });
        this.model = new KnowledgeModel(mergeImports(this.base, companies));
        this.ranker = new Ranker(this.model);
        this.knownNames = undefined;
        this.importVersion = version;
      } catch {
        // the knowledge base as it was; the next check tries again
      }
    })();
    this.importCheck = { until: now + (this.options.importCheckMs ?? IMPORT_CHECK_MS), done };
    return done;
  }

  /** The domain a target's learned relations are kept under: its entry's domain when known. */
  private subjectDomain(profile: TargetProfile): string {
    return profile.entity === null ? profile.domain : this.model.entity(profile.entity).domain;
  }

  /** A read of the discovered layer, shared for a while by the searches of this process (see EngineOptions). */
  private cached<T>(key: string, read: () => Promise<T>, holdMs?: number): Promise<T> {
    const now = Date.now();
    const hit = this.layerCache.get(key);
    if (hit && hit.until > now) return hit.value as Promise<T>;
    if (this.layerCache.size >= 10_000) this.layerCache.clear();
    const value = read();
    this.layerCache.set(key, { until: now + Math.max(holdMs ?? 0, this.options.discoveredCacheMs ?? 30_000), value });
    value.catch(() => this.layerCache.delete(key));
    return value;
  }

  /**
   * Discovered members of the target's heaviest categories and its learned relations, ready for the ranker. Empty
   * (today's ranking, byte for byte) without a store or when it holds nothing for them; a failing store is skipped.
   */
  private async discoveredLayer(profile: TargetProfile, page: HomepageProfile | null, holdMs?: number): Promise<Pick<RankOptions, 'discovered' | 'openVector' | 'learned'>> {
    const store = this.options.discovered;
    if (!store) return {};
    const subject = this.subjectDomain(profile);
    const categories = [...profile.categories].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, DISCOVERED_CATEGORIES_READ);
    let lists: DiscoveredCandidate[][];
    let edges: LearnedEdge[];
    try {
      // Only categories (and a relation list) the summary names can answer: a search of a company whose categories
      // hold nothing discovered reads nothing but the summary, which every search of this process shares.
      const summary = await this.cached('summary', () => store.summary(), SUMMARY_HOLD_MS);
      const ids = categories.map(([c]) => this.model.index.categories[c]!.id).filter((id) => summary.categories.has(id));
      [lists, edges] = await Promise.all([
        Promise.all(ids.map((id) => this.cached(`c:${id}`, () => store.membersOf(id, MEMBERS_PER_CATEGORY), holdMs))),
        summary.related.has(subject) ? this.cached(`e:${subject}`, () => store.edgesOf(subject, EDGES_READ), holdMs) : [],
      ]);
    } catch {
      return {}; // the discovered layer adds to a search; it never fails one
    }
    const learned = new Map<number, LearnedSignal>();
    const byDomain = new Map<string, DiscoveredCandidate>();
    const learnedOf = new Map<string, LearnedSignal>();
    for (const edge of edges) {
      const strength = learnedStrength(edge.votes);
      const signal = { out: edge.direction === 'out' ? strength : 0, in: edge.direction === 'in' ? strength : 0, verifiedAt: edge.verifiedAt };
      const i = this.model.resolve(edge.other);
      if (i !== undefined) {
        const seen = learned.get(i);
        learned.set(i, seen ? { out: Math.max(seen.out, signal.out), in: Math.max(seen.in, signal.in), verifiedAt: signal.verifiedAt } : signal);
      } else {
        learnedOf.set(edge.other, signal);
        if (edge.company) byDomain.set(edge.other, edge.company);
      }
    }
    for (const list of lists) for (const c of list) if (!byDomain.has(c.domain)) byDomain.set(c.domain, c);
    const discovered: DiscoveredInput[] = [];
    for (const [domain, candidate] of byDomain) {
      // The knowledge base speaks for a domain it knows; the target is never its own rival.
      if (domain === subject || domain === profile.domain || this.model.resolve(domain) !== undefined) continue;
      const categoriesOf = candidate.categories.map((c) => this.categoryIds.get(c.id)).filter((c): c is number => c !== undefined);
      discovered.push({ candidate, categories: categoriesOf, vector: this.model.text.vectorizeOpen(candidate.terms), learned: learnedOf.get(domain) ?? null });
    }
    if (discovered.length === 0 && learned.size === 0) return {};
    return { discovered, learned, openVector: this.openVector(profile, page) };
  }

  /** The target's analysed terms, each once, unseen words included: what discovered companies are compared with. */
  private openVector(profile: TargetProfile, page: HomepageProfile | null): SparseVector {
    if (profile.entity !== null) return this.model.text.vectorize([...new Set(this.model.index.text.entities[profile.entity]!)]);
    return this.model.text.vectorizeOpen(page ? tokenize(learnedText(page)) : []);
  }

  /**
   * The last word on discovered rows: banned domains never return (a ban reaches this process's cache late, the ban
   * list at once), and a stale profile (older than STALE_AFTER_DAYS) is read again: a site that now fails, parks
   * or lands on a known company leaves the list (and the layer, or becomes that company's alias).
   */
  private async cleanDiscovered(profile: TargetProfile, rows: ResearchedCompetitor[], signal: AbortSignal): Promise<ResearchedCompetitor[]> {
    const store = this.options.discovered;
    const learned = rows.filter((r) => r.evidence.source === 'discovered');
    if (!store || learned.length === 0) return rows;
    const drop = await store.bannedAmong(learned.map((r) => r.domain)).catch(() => new Set<string>());
    const staleBefore = (this.options.clock?.now() ?? new Date()).getTime() - STALE_AFTER_DAYS * 86_400_000;
    const stale = learned.filter((r) => !drop.has(r.domain) && Date.parse(r.evidence.fetchedAt ?? '') < staleBefore).slice(0, MAX_REFRESHES_PER_SEARCH);
    const kept = await Promise.all(stale.map((r) => this.refresh(r.domain, signal)));
    stale.forEach((r, n) => {
      if (!kept[n]) drop.add(r.domain);
    });
    return drop.size ? rows.filter((r) => !drop.has(r.domain)) : rows;
  }

  /** Reads a discovered company's homepage again; false when it must no longer be returned. */
  private async refresh(domain: string, signal: AbortSignal): Promise<boolean> {
    const store = this.options.discovered!;
    try {
      const page = (await this.options.homepage?.read(domain, signal)) ?? null;
      const existing = await store.get(domain);
      if (!page || junkReason(page)) {
        await store.remove(domain);
        this.forget(existing);
        return false;
      }
      await this.options.profileCache?.put(page).catch(() => undefined);
      const landed = this.landedProfile(domain, page);
      await this.learnPage(page, existing?.via ?? 'search', undefined, landed, existing);
      return !landed && (await store.get(domain)) !== null;
    } catch {
      if (signal.aborted) throw signal.reason;
      return true; // a failing store or reader leaves the row as it was
    }
  }

  /** The profile of an unknown target in the categories its discovered record holds (unchanged without one). */
  private async asLearned(profile: TargetProfile): Promise<TargetProfile> {
    const record = await this.options.discovered!.get(profile.domain).catch(() => null);
    if (!record || record.aliasOf) return profile;
    const categories = new Map<number, number>();
    for (const c of record.categories) {
      const i = this.categoryIds.get(c.id);
      if (i !== undefined) categories.set(i, c.weight);
    }
    const primary = this.categoryIds.get(record.categories[0]?.id ?? '');
    if (primary === undefined || (primary === profile.primaryCategory && categories.size === profile.categories.size && [...categories.keys()].every((c) => profile.categories.has(c)))) return profile;
    return { ...profile, categories, primaryCategory: primary };
  }

  /** Drops what this process keeps of a company's categories and relations, after it changed. */
  private forget(company: Pick<DiscoveredCompany, 'domain' | 'categories'> | null): void {
    if (!company) return;
    for (const c of company.categories) this.layerCache.delete(`c:${c.id}`);
    this.layerCache.delete(`e:${company.domain}`);
    this.layerCache.delete('summary');
  }

  /**
   * Keeps a homepage read well as a discovered company (public facts, never who asked), unless the knowledge base
   * knows the domain, the page is junk or claims a known company's name, or the account has added its hourly share
   * of new companies. A page that lands on a known company makes a discovered domain that company's alias.
   */
  private async learnPage(
    page: HomepageProfile,
    via: DiscoveredVia,
    accountId: string | undefined,
    landed: TargetProfile | null,
    known?: DiscoveredCompany | null,
    peers: Pick<RankOptions, 'discovered'> = {},
  ): Promise<DiscoveredCompany | null> {
    const store = this.options.discovered;
    if (!store) return null;
    const domain = page.domain;
    if (this.model.resolve(domain) !== undefined) return null;
    try {
      const existing = known !== undefined ? known : await store.get(domain);
      if (landed) {
        if (existing && !existing.aliasOf) {
          await store.save({ ...existing, aliasOf: this.model.entity(landed.entity!).domain });
          this.forget(existing);
        }
        return null;
      }
      const company = this.discoveredCompany(page, existing?.via ?? via, peers.discovered);
      if (!company) {
        if (existing) {
          await store.remove(domain);
          this.forget(existing);
        }
        return null;
      }
      if (!existing && accountId && !(await this.mayDiscover(accountId))) return null;
      if ((await store.save(company)) !== 'saved') return null;
      this.forget(existing);
      this.forget(company);
      return company;
    } catch {
      return null; // learning never fails a search
    }
  }

  /** One token of the account's hourly allowance of new discovered companies. */
  private async mayDiscover(accountId: string): Promise<boolean> {
    const perHour = this.options.discoveriesPerHour ?? DEFAULT_DISCOVERIES_PER_HOUR;
    if (perHour <= 0) return false;
    const limiter = this.options.discoveryLimiter;
    if (!limiter) return true;
    const decision = await limiter.take([{ bucket: `discover:${accountId}`, rule: { perSecond: perHour / 3600, burst: perHour } }]);
    return decision?.allowed ?? true;
  }

  /** What is kept of a page, or null when it must not be kept (junk, a stolen identity, too little text). */
  discoveredCompany(page: HomepageProfile, via: DiscoveredVia, peers: DiscoveredInput[] = []): DiscoveredCompany | null {
    if (junkReason(page)) return null;
    const name = companyName(page);
    if (!name || this.claimsKnownIdentity(name)) return null;
    const text = learnedText(page);
    const language = languageOf(page, text);
    const placed = this.place(text, language);
    if (!placed) return null;
    const terms = [...new Set(tokenize(text))].slice(0, MAX_LEARNED_TERMS);
    // A niche's consensus: the discovered peers close to this page (rivals saying the same things) vote for their
    // categories, by similarity, beside the page's own placement, so that one niche is not scattered over the
    // categories each page's words happen to suggest.
    const vector = this.model.text.vectorizeOpen(terms);
    const votes = new Map<string, number>();
    for (const [c, weight] of placed.categories) votes.set(this.model.index.categories[c]!.id, OWN_PLACEMENT_VOTE * weight);
    let voted = false;
    for (const peer of peers) {
      const s = cosine(vector, peer.vector);
      if (s < CONSENSUS_SIMILARITY || peer.candidate.domain === page.domain) continue;
      voted = true;
      for (const c of peer.candidate.categories) votes.set(c.id, (votes.get(c.id) ?? 0) + s * c.weight);
    }
    const ranked = [...votes].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, MAX_INFERRED_CATEGORIES);
    const top = ranked[0]?.[1] ?? 1;
    const categories = voted
      ? ranked.map(([id, v]) => ({ id, weight: Math.round((v / top) * 1000) / 1000 }))
      : [...placed.categories].map(([c, weight]) => ({ id: this.model.index.categories[c]!.id, weight: Math.round(weight * 1000) / 1000 }));
    return {
      domain: page.domain,
      name,
      description: shortDescription(page),
      language,
      categories,
      terms,
      country: page.country ?? null,
      url: page.url,
      fetchedAt: page.fetchedAt,
      via,
    };
  }

  /** A page named as a known company (its name or an alias), on a domain the knowledge base does not give it. */
  private claimsKnownIdentity(name: string): boolean {
    if (!this.knownNames) {
      this.knownNames = new Set();
      for (const e of this.model.index.entities) for (const n of [e.name, ...e.aliases]) if (flatName(n).length >= MIN_IDENTITY_NAME) this.knownNames.add(flatName(n));
    }
    return this.knownNames.has(flatName(name));
  }

  /** Keeps a provider's verified proposal as a learned relation of the target (best effort). */
  private async learnRelation(profile: TargetProfile, page: HomepageProfile | null, to: string, votes: number, toCompany: DiscoveredCompany | null): Promise<void> {
    const store = this.options.discovered;
    if (!store) return;
    const from = this.subjectDomain(profile);
    const fromCompany = profile.entity === null && page ? this.discoveredCompany(page, 'search') : null;
    try {
      await store.saveRelation(
        { from, to, source: 'provider', votes, verifiedAt: (this.options.clock?.now() ?? new Date()).toISOString() },
        { ...(fromCompany ? { from: candidateOf(fromCompany) } : {}), ...(toCompany ? { to: candidateOf(toCompany) } : {}) },
      );
      this.layerCache.delete(`e:${from}`);
      this.layerCache.delete(`e:${to}`);
      this.layerCache.delete('summary');
    } catch {
      // best effort: the relation is learned again the next time a provider proposes it
    }
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
  private async verifyUnknown(profile: TargetProfile, target: HomepageProfile | null, proposals: Proposal[], signal: AbortSignal, accountId?: string): Promise<ResearchedCompetitor[]> {
    const reads = await Promise.all(proposals.map((p) => this.readHomepage(p.domain, signal).catch(() => null)));
    for (const [n, read] of reads.entries()) {
      if (!read) continue;
      // Verified: its homepage was read. Learned as a company (when new to the layer) and as the target's rival.
      const learned = read.fresh ? await this.learnPage(read.page, 'provider', accountId, null) : null;
      if (!junkReason(read.page)) await this.learnRelation(profile, target, proposals[n]!.domain, proposals[n]!.sources.length, learned ?? this.discoveredCompany(read.page, 'provider'));
    }
    const pages = reads.map((r) => r?.page ?? null);
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
          signals: [`Suggested by ${p.sources.join(' and ')}, then checked: its homepage was read`, ...(shared.length ? [`Its homepage places it in ${profile.name}'s market`] : [])],
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

  /** A homepage from the profile cache, or read now (`fresh`: the read this search made, which may be learned). */
  private async readHomepage(domain: string, signal: AbortSignal): Promise<{ page: HomepageProfile; fresh: boolean } | null> {
    const cached = await this.options.profileCache?.get(domain).catch(() => null);
    if (cached) return { page: cached, fresh: false };
    const fresh = (await this.options.homepage?.read(domain, signal)) ?? null;
    if (!fresh) return null;
    await this.options.profileCache?.put(fresh).catch(() => undefined);
    return { page: fresh, fresh: true };
  }

  /** Places a homepage in categories: similarity to each category's text, plus the votes of its nearest entries. */
  homepageProfile(page: HomepageProfile): TargetProfile | null {
    // The title is where a company says what it is; it counts twice, like the description it sums up.
    const text = [page.title, page.title, page.description, page.description, ...page.headings, ...page.keywords].join(' ');
    // A page in German, French, Spanish, Portuguese, Italian or Dutch is read in the knowledge base's English. The
    // crawler names the language; a profile cached before it did is judged from its text here, and a page too short
    // for either by the lexicon language that knows its words.
    const language = languageOf(page, text);
    const placed = this.place(text, language);
    if (!placed) return null;
    return {
      source: 'homepage',
      domain: page.domain,
      name: page.organizationName ?? page.title,
      entity: null,
      categories: placed.categories,
      primaryCategory: placed.primary,
      vector: placed.vector,
      keywords: new Set(page.keywords.map((k) => k.toLowerCase())),
      segments: [],
      model: null,
      language,
    };
  }

  /** Up to three categories for a text (in its language, read in English), primary (weight 1) first. */
  private place(text: string, language: string | null): { categories: Map<number, number>; primary: number; vector: SparseVector } | null {
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
    return { categories: new Map(chosen.map(([c, s]) => [c, s / best[1]])), primary: best[0], vector };
  }
}

/** A page's language: as the crawler read it, else judged from its text, else by the lexicon that knows its words. */
function languageOf(page: HomepageProfile, text: string): string | null {
  return (page.language !== undefined ? page.language : detectLanguage(text)) ?? languageByLexicon(text);
}

/** A page's company name: its JSON-LD Organization or og:site_name, else the title's first part ("Acme | CRM" -> Acme). */
function companyName(page: HomepageProfile): string {
  const name = page.organizationName ?? page.title.split(/\s+[|\-–—·•]\s+|:\s+/)[0] ?? '';
  return name.trim().slice(0, 120);
}

const candidateOf = (c: DiscoveredCompany): DiscoveredCandidate => ({
  domain: c.domain,
  name: c.name,
  categories: c.categories,
  terms: c.terms,
  fetchedAt: c.fetchedAt,
  language: c.language,
  country: c.country,
});

let shared: KnowledgeBaseEngine | undefined;
/** The engine of this process; the knowledge base is loaded once, on first use. */
export function createEngine(options: EngineOptions = {}): KnowledgeBaseEngine {
  if (Object.values(options).some((v) => v !== undefined)) return new KnowledgeBaseEngine(options);
  return (shared ??= new KnowledgeBaseEngine());
}
