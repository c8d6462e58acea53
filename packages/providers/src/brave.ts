// providers adapter (secondary): Brave Search API; the domains that keep turning up in "X competitors" searches.
import { hostnameOf } from '@rivals/core';
import { DEFAULT_TIMEOUT_MS, withDeadline } from './deadline.js';
import { candidateDomain, isNonCompetitorHost } from './domains.js';
import { fetchText } from './http.js';
import { clampLimit, nameFromDomain } from './prompt.js';
import type { CandidateProvider, ProposeOptions, ProposedCandidate, ProviderTarget } from './types.js';

export interface BraveSearchOptions {
  apiKey: string;
  /** Default https://api.search.brave.com. */
  baseUrl?: string;
  timeoutMs?: number;
  /** Results asked for per query (the API allows at most 20). */
  count?: number;
  /** More hosts to ignore, on top of NON_COMPETITOR_DOMAINS. */
  exclude?: string[];
  name?: string;
}

interface SearchResult {
  url: string;
  title: string;
  siteName: string | null;
}

/** Domain-like words in a title: "Monday.com vs Asana" names monday.com. Checked against the public suffix list later. */
const DOMAIN_WORD = /\b[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.[a-z]{2,24}\b/gi;

/**
 * Numbered list articles ("Top 10 Asana alternatives", "The 6 best ...", "15 Trello competitors"). Their site is a
 * publisher, even when it is a real company's blog, so only the names in their title count, not their own domain.
 */
const LISTICLE = /\b(?:top|best)\s+\d{1,3}\b|\b\d{1,3}\s+(?:top|best)\b|\b\d{1,3}\s+(?:\S+\s+){0,3}(?:alternatives|competitors)\b/i;

export class BraveSearchProvider implements CandidateProvider {
  readonly name: string;
  private readonly baseUrl: string;

  constructor(private readonly options: BraveSearchOptions) {
    this.name = options.name ?? 'web-search:brave';
    this.baseUrl = (options.baseUrl ?? 'https://api.search.brave.com').replace(/\/+$/, '');
  }

  /** The search phrasings whose results are tallied; exposed for tests and logs. */
  queries(target: ProviderTarget): string[] {
    // Quotes inside the name would end the phrase early.
    const name = (target.name.replace(/"/g, ' ').replace(/\s+/g, ' ').trim() || nameFromDomain(target.domain)).slice(0, 100);
    return [`"${name}" competitors alternatives`, `${name} vs`];
  }

  async propose(target: ProviderTarget, { limit, signal }: ProposeOptions): Promise<ProposedCandidate[]> {
    const queries = this.queries(target);
    const settled = await withDeadline(this.name, signal, this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS, (deadline) =>
      Promise.allSettled(queries.map((q) => this.search(q, deadline))),
    );
    // One failed query (a rate limit, commonly) still leaves the other's results worth tallying.
    const pages = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (pages.length === 0 && failed) throw failed.reason;
    return this.tally(pages.flat(), target, limit);
  }

  /**
   * Counts, per registrable domain, the results that point at it or name it in their title, once per result; most
   * mentioned first, then earliest seen. Drops the target, its subdomains, the non-competitor hosts and the sites of
   * list articles.
   */
  private tally(results: SearchResult[], target: ProviderTarget, limit: number): ProposedCandidate[] {
    const own = candidateDomain(target.domain) ?? target.domain.toLowerCase();
    const counts = new Map<string, { name: string | null; count: number; first: number }>();
    results.forEach((result, position) => {
      const found = new Map<string, string | null>();
      const host = hostnameOf(result.url);
      const urlDomain = host && !this.ignored(host) && !LISTICLE.test(result.title) ? candidateDomain(host) : null;
      if (urlDomain) found.set(urlDomain, result.siteName);
      for (const [word] of result.title.matchAll(DOMAIN_WORD)) {
        const domain = this.ignored(word.toLowerCase()) ? null : candidateDomain(word);
        if (domain && !found.get(domain)) found.set(domain, word);
      }
      for (const [domain, name] of found) {
        if (domain === own) continue;
        const entry = counts.get(domain) ?? { name: null, count: 0, first: position };
        entry.count += 1;
        entry.name ??= name;
        counts.set(domain, entry);
      }
    });
    return [...counts]
      .sort(([, a], [, b]) => b.count - a.count || a.first - b.first)
      .slice(0, clampLimit(limit))
      .map(([domain, { name, count }]) => ({
        name: name?.trim() || nameFromDomain(domain),
        domain,
        reason: `In ${count} of ${results.length} web results for competitor searches.`,
      }));
  }

  private ignored(host: string): boolean {
    return isNonCompetitorHost(host, this.options.exclude);
  }

  private async search(query: string, signal: AbortSignal): Promise<SearchResult[]> {
    const params = new URLSearchParams({ q: query, count: String(Math.min(20, Math.max(1, this.options.count ?? 20))) });
    const url = `${this.baseUrl}/res/v1/web/search?${params}`;
    const text = await fetchText(this.name, url, {
      headers: { accept: 'application/json', 'x-subscription-token': this.options.apiKey },
      signal,
    });
    return resultsOf(text);
  }
}

/** The web results of a Brave answer; [] for a body of any other shape, which is as good as no results. */
function resultsOf(body: string): SearchResult[] {
  let json: { web?: { results?: unknown } } | null;
  try {
    json = JSON.parse(body) as typeof json;
  } catch {
    return [];
  }
  const results = json?.web?.results;
  if (!Array.isArray(results)) return [];
  return results.flatMap((r: unknown): SearchResult[] => {
    const item = r as { url?: unknown; title?: unknown; profile?: { name?: unknown } } | null;
    if (!item || typeof item.url !== 'string') return [];
    const siteName = typeof item.profile?.name === 'string' ? item.profile.name.slice(0, 120) : null;
    // Titles may carry highlighting markup (<strong>), which would glue words together.
    const title = typeof item.title === 'string' ? item.title.replace(/<[^>]*>/g, ' ') : '';
    return [{ url: item.url, title, siteName }];
  });
}
