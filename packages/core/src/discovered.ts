// core: the discovered layer of the knowledge base. Every homepage the service reads well becomes a discovered company
// (public facts only, never who asked), so that small companies met in use become each other's candidates.
import type { Page, PageRequest } from './ports.js';

/** How the service came to read the homepage. Never who asked. */
export type DiscoveredVia = 'search' | 'bulk' | 'provider';

export interface DiscoveredCategory {
  /** A knowledge-base category id (stable across builds, unlike its index). */
  id: string;
  /** In (0, 1]; the first (primary) category has weight 1. */
  weight: number;
}

/** What the service keeps of a homepage it read: public facts only. */
export interface DiscoveredCompany {
  domain: string;
  name: string;
  /** A short description, from the page's own description. */
  description: string;
  /** ISO 639-1 code of the page's language, when the homepage profile says it. */
  language: string | null;
  /** At most 3, primary first. */
  categories: DiscoveredCategory[];
  /** The analysed terms the page is compared by, each once (repeats do not count). */
  terms: string[];
  /** ISO 3166-1 alpha-2, where the page states it. */
  country: string | null;
  url: string;
  fetchedAt: string;
  via: DiscoveredVia;
  /** Set when the site now lands on a known company: the domain is that company's alias, never a candidate. */
  aliasOf?: string;
}

/** The projection a search reads of each member of a category. */
export type DiscoveredCandidate = Pick<DiscoveredCompany, 'domain' | 'name' | 'categories' | 'terms' | 'fetchedAt' | 'language' | 'country'>;

/** A rivalry an outside provider proposed and the service verified (the homepage read, or the company known). */
export interface LearnedRelation {
  /** The company the search was about. */
  from: string;
  /** The company proposed as its rival. */
  to: string;
  source: 'provider';
  /** How many providers proposed it, at most. */
  votes: number;
  verifiedAt: string;
}

/** A learned relation as seen from one of its ends. */
export interface LearnedEdge {
  other: string;
  /** 'out': this end is the one the search was about; 'in': this end was proposed. */
  direction: 'out' | 'in';
  votes: number;
  verifiedAt: string;
  /** What a search reads of the other end, when it is a discovered company (saved with the relation). */
  company?: DiscoveredCandidate;
}

export interface BannedDomain {
  domain: string;
  reason: string;
  bannedAt: string;
}

export type SaveOutcome = 'saved' | 'banned';

/** A hint, never shrinking: a category or domain named here may have nothing left (a query finds out). */
export interface DiscoveredSummary {
  categories: Set<string>;
  related: Set<string>;
}

/** DynamoDB in production (packages/db/src/discovered.ts). Every read is one GetItem or one Query. */
export interface DiscoveredStore {
  /**
   * Which categories have ever held a discovered member, and which domains have learned relations: one small item,
   * read once in a while by each process, so that a search queries only categories (and relations) that can answer.
   */
  summary(): Promise<DiscoveredSummary>;
  /** Up to `limit` members of one category, highest weight first: one Query, projected attributes. */
  membersOf(category: string, limit: number): Promise<DiscoveredCandidate[]>;
  get(domain: string): Promise<DiscoveredCompany | null>;
  /** Stores or replaces a company and its category memberships; 'banned' (nothing written) for a banned domain. */
  save(company: DiscoveredCompany): Promise<SaveOutcome>;
  /** Removes a company and its memberships; nothing happens when there is none. */
  remove(domain: string): Promise<void>;
  /** The learned relations of a domain, both directions: one Query. */
  edgesOf(domain: string, limit: number): Promise<LearnedEdge[]>;
  /** Stores the relation at both ends, each with the other end's projection when that end is a discovered company. */
  saveRelation(relation: LearnedRelation, ends?: { from?: DiscoveredCandidate; to?: DiscoveredCandidate }): Promise<void>;
  ban(entry: BannedDomain): Promise<void>;
  /** Returns false when the domain was not banned. */
  unban(domain: string): Promise<boolean>;
  isBanned(domain: string): Promise<boolean>;
  /** Which of these domains are banned (batched reads). */
  bannedAmong(domains: string[]): Promise<Set<string>>;
  /** Every discovered company, by domain (the operator's list). */
  list(request: PageRequest): Promise<Page<DiscoveredCompany>>;
  bans(): Promise<BannedDomain[]>;
}

/**
 * New discovered companies an account may add an hour (searches and bulk jobs alike). Generous for real use (a bulk
 * job of a CRM's accounts teaches 1,000 new companies an hour, and every later hour as many), small next to what a
 * flood of made-up domains would need to drown a category.
 */
export const DEFAULT_DISCOVERIES_PER_HOUR = 1_000;

/**
 * Companies a team imported into its own deployment (`npm run admin -- kb import`): curated entries, merged into the
 * knowledge base by every process within a minute, without a redeploy. Entries are stored as validated sector-format
 * company objects (see @rivals/kb); `version` changes with every import.
 */
export interface KbImportStore {
  version(): Promise<string | null>;
  /** Every imported company, by domain. */
  companies(): Promise<unknown[]>;
  /** Adds or replaces these companies (by domain) and sets the version. */
  add(companies: { domain: string }[], version: string): Promise<void>;
}
