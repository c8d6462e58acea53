// test helper: the discovered layer in memory, with the same observable behaviour as DynamoDiscoveredStore (members
// sorted by weight then domain, bans refusing saves, relations at both ends). The DynamoDB adapter has its own tests.
import type { BannedDomain, DiscoveredCandidate, DiscoveredCompany, DiscoveredStore, DiscoveredSummary, LearnedEdge, LearnedRelation, Page, PageRequest, SaveOutcome } from '@rivals/core';

const project = (c: DiscoveredCompany): DiscoveredCandidate => ({
  domain: c.domain, name: c.name, categories: c.categories, terms: c.terms, fetchedAt: c.fetchedAt, language: c.language, country: c.country,
});

export class MemoryDiscoveredStore implements DiscoveredStore {
  readonly companies = new Map<string, DiscoveredCompany>();
  readonly edges = new Map<string, LearnedEdge[]>();
  readonly banned = new Map<string, BannedDomain>();
  /** Queries of category members, in order: what a search cost. */
  readonly memberQueries: string[] = [];
  readonly edgeQueries: string[] = [];
  summaryReads = 0;

  async summary(): Promise<DiscoveredSummary> {
    this.summaryReads++;
    const categories = new Set([...this.companies.values()].filter((c) => !c.aliasOf).flatMap((c) => c.categories.map((x) => x.id)));
    return { categories, related: new Set(this.edges.keys()) };
  }

  async membersOf(category: string, limit: number): Promise<DiscoveredCandidate[]> {
    this.memberQueries.push(category);
    const weight = (c: DiscoveredCompany) => c.categories.find((x) => x.id === category)?.weight ?? 0;
    return [...this.companies.values()]
      .filter((c) => !c.aliasOf && weight(c) > 0)
      .sort((a, b) => weight(b) - weight(a) || (a.domain < b.domain ? -1 : 1))
      .slice(0, limit)
      .map(project);
  }
  async get(domain: string) {
    return this.companies.get(domain) ?? null;
  }
  async save(company: DiscoveredCompany): Promise<SaveOutcome> {
    if (this.banned.has(company.domain)) return 'banned';
    this.companies.set(company.domain, company);
    return 'saved';
  }
  async remove(domain: string) {
    this.companies.delete(domain);
  }
  async edgesOf(domain: string, limit: number) {
    this.edgeQueries.push(domain);
    return (this.edges.get(domain) ?? []).slice(0, limit);
  }
  async saveRelation(r: LearnedRelation, ends: { from?: DiscoveredCandidate; to?: DiscoveredCandidate } = {}) {
    const put = (at: string, edge: LearnedEdge) => this.edges.set(at, [...(this.edges.get(at) ?? []).filter((e) => e.other !== edge.other), edge]);
    put(r.from, { other: r.to, direction: 'out', votes: r.votes, verifiedAt: r.verifiedAt, ...(ends.to ? { company: ends.to } : {}) });
    put(r.to, { other: r.from, direction: 'in', votes: r.votes, verifiedAt: r.verifiedAt, ...(ends.from ? { company: ends.from } : {}) });
  }
  async ban(entry: BannedDomain) {
    this.banned.set(entry.domain, entry);
    this.companies.delete(entry.domain);
  }
  async unban(domain: string) {
    return this.banned.delete(domain);
  }
  async isBanned(domain: string) {
    return this.banned.has(domain);
  }
  async bannedAmong(domains: string[]) {
    return new Set(domains.filter((d) => this.banned.has(d)));
  }
  async list({ limit, cursor }: PageRequest): Promise<Page<DiscoveredCompany>> {
    const all = [...this.companies.values()].filter((c) => !cursor || c.domain > cursor).sort((a, b) => (a.domain < b.domain ? -1 : 1));
    const items = all.slice(0, limit);
    return { items, nextCursor: all.length > limit ? items[items.length - 1]!.domain : null };
  }
  async bans() {
    return [...this.banned.values()];
  }
}
