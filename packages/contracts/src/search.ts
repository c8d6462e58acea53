// contracts: search and balance (SPEC.md "Search result", "Competitor"; docs/api.md "Search").
import { z } from 'zod';

export const COMPETITOR_TYPES = ['Direct', 'Indirect', 'Adjacent', 'Emerging'] as const;
export const CompetitorType = z.enum(COMPETITOR_TYPES);
export type CompetitorType = z.infer<typeof CompetitorType>;

export const SEARCH_LIMIT_MAX = 100;

export const EXCLUDE_MAX = 100;

/** The knowledge base's size bands (people employed). */
export const COMPANY_SIZES = ['1-10', '11-50', '51-200', '201-500', '501-1000', '1001-5000', '5001-10000', '10001+'] as const;
export const CompanySize = z.enum(COMPANY_SIZES);
/** public: listed on an exchange; subsidiary: owned by another company; private: neither. */
export const OWNERSHIPS = ['public', 'private', 'subsidiary'] as const;
export const Ownership = z.enum(OWNERSHIPS);
export type Ownership = z.infer<typeof Ownership>;
const year = z.number().int().min(1000).max(2100);

/**
 * Optional filters of a search; all may combine, and `limit` applies after them. Without them a search answers
 * exactly as it would otherwise.
 */
export const SearchFilters = z.strictObject({
  /** Domains never returned (normalised as the target is; a company's other domains are excluded with it). */
  exclude: z.array(z.string().trim().min(1).max(2048)).max(EXCLUDE_MAX).optional(),
  /** Only competitors of these types. */
  types: z.array(CompetitorType).min(1).max(COMPETITOR_TYPES.length).optional(),
  /** Only competitors scoring at least this. */
  minMatchScore: z.number().int().min(0).max(100).optional(),
  /** Only competitors headquartered in these countries (ISO 3166-1 alpha-2, e.g. "US", "DE"). */
  countries: z
    .array(z.string().regex(/^[A-Za-z]{2}$/, 'an ISO 3166-1 alpha-2 country code').transform((c) => c.toUpperCase()))
    .min(1)
    .max(250)
    .optional(),
  /**
   * Screening filters: only companies of these size bands, founded in these years, of this ownership. A row whose fact
   * is unknown (a company from outside the knowledge base) is left out when a filter on that fact is set.
   */
  sizes: z.array(CompanySize).min(1).max(COMPANY_SIZES.length).optional(),
  foundedFrom: year.optional(),
  foundedTo: year.optional(),
  ownership: z.array(Ownership).min(1).max(OWNERSHIPS.length).optional(),
});
export type SearchFilters = z.output<typeof SearchFilters>;

export const SearchRequest = z.strictObject({
  domain: z.string().trim().min(1, 'domain is required').max(2048),
  limit: z.number().int().min(1).max(SEARCH_LIMIT_MAX).default(SEARCH_LIMIT_MAX),
  ...SearchFilters.shape,
});
export type SearchRequest = z.input<typeof SearchRequest>;

const score = z.number().int().min(0).max(100);

export const Competitor = z.strictObject({
  rank: z.number().int().min(1),
  company: z.string(),
  domain: z.string(),
  matchScore: score,
  type: CompetitorType,
  confidence: score,
  likelyCompetitor: z.boolean(),
});
export type Competitor = z.infer<typeof Competitor>;

/** Exactly the documented Search result (docs/search.md): nothing more. */
export const SearchResult = z.strictObject({
  domain: z.string(),
  totalCompetitors: z.number().int().min(0).max(SEARCH_LIMIT_MAX),
  likelyCompetitors: z.number().int().min(0),
  elapsedSeconds: z.number().min(0),
  creditsRemaining: z.number().int().min(0),
  competitors: z.array(Competitor),
});
export type SearchResult = z.infer<typeof SearchResult>;

/** Who a company is, from the knowledge base; each field null when unknown (a company found outside it). */
export const Firmographics = z.strictObject({
  founded: z.number().int().nullable(),
  size: CompanySize.nullable(),
  /** Country of the headquarters, ISO 3166-1 alpha-2. */
  hq: z.string().nullable(),
  ownership: Ownership.nullable(),
  /** Where a public company is listed (null when unknown or not public). */
  exchange: z.string().nullable(),
  ticker: z.string().nullable(),
});
export type Firmographics = z.infer<typeof Firmographics>;
/** The firmographics columns every CSV export carries after its own. */
export const FIRMOGRAPHICS_CSV_COLUMNS = ['founded', 'size', 'hq', 'ownership', 'exchange', 'ticker'] as const;
export const firmographicsCells = (f: Firmographics | undefined): (string | number | null)[] =>
  FIRMOGRAPHICS_CSV_COLUMNS.map((column) => f?.[column] ?? null);
export const UNKNOWN_FIRMOGRAPHICS: Firmographics = { founded: null, size: null, hq: null, ownership: null, exchange: null, ticker: null };

/** Why a competitor is on the list; kept with the stored search, never in the search response. */
export const Evidence = z.object({
  signals: z.array(z.string()),
  sharedCategories: z.array(z.string()),
  sharedKeywords: z.array(z.string()),
  relation: z.string().nullable(),
  source: z.string(),
  /** When the row's company was last read from its homepage (discovered companies only). */
  fetchedAt: z.string().optional(),
  /**
   * When the row is a product line reported under its company's domain (Teams under microsoft.com): the company's
   * name. The row's `company` is then the product's name.
   */
  parentCompany: z.string().optional(),
  /** The knowledge-base entry's own host (teams.microsoft.com), which tells product lines of one domain apart. */
  entity: z.string().optional(),
  /** What the company does, where it is headquartered (ISO country code) and its size (employees), where known. */
  description: z.string().optional(),
  headquarters: z.string().optional(),
  size: z.string().optional(),
});
export type Evidence = z.infer<typeof Evidence>;

export const StoredCompetitor = Competitor.extend({
  evidence: Evidence,
  firmographics: Firmographics,
  /** Look-alike searches only: the seeds this company is close to, closest first. */
  similarTo: z.array(z.string()).optional(),
});
export type StoredCompetitor = z.infer<typeof StoredCompetitor>;

export const Balance = z.strictObject({ creditsRemaining: z.number().int().min(0) });
export type Balance = z.infer<typeof Balance>;

/** 200 ok, or 503 degraded with the parts that do not answer (only where the environment names parts to probe). */
export const Health = z.strictObject({ status: z.enum(['ok', 'degraded']), version: z.string(), failing: z.array(z.string()).optional() });
export type Health = z.infer<typeof Health>;

export const SEARCH_STATUSES = ['running', 'succeeded', 'failed'] as const;

/**
 * Why a search that ran found nothing (422 `no_competitors_found`, and kept with the failed search):
 * - `homepage_unreachable`: the knowledge base does not know the company and its homepage could not be read (no
 *   answer, an error status, not an HTML page, robots.txt refuses, or too slow);
 * - `homepage_too_thin`: the homepage was read but says too little to tell what the company does;
 * - `no_rivals_known`: the company was placed (known, or from its homepage) but no company ranks against it;
 * - `filters_excluded_all`: rivals were found, but none passed the search's filters.
 */
export const FAILURE_REASONS = ['homepage_unreachable', 'homepage_too_thin', 'no_rivals_known', 'filters_excluded_all'] as const;
export const FailureReason = z.enum(FAILURE_REASONS);
export type FailureReason = z.infer<typeof FailureReason>;

/** GET /api/searches/:id: a past search as stored, each row with the evidence behind it. Free to read. */
export const StoredSearch = z.strictObject({
  id: z.string(),
  domain: z.string(),
  status: z.enum(SEARCH_STATUSES),
  source: z.enum(['api', 'bulk']),
  jobId: z.string().optional(),
  /** A look-alike search's seeds (normalised); `domain` is the first of them. */
  seeds: z.array(z.string()).optional(),
  /** The filters the search was asked for, when any. */
  filters: SearchFilters.optional(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  elapsedSeconds: z.number().nullable(),
  totalCompetitors: z.number().int(),
  likelyCompetitors: z.number().int(),
  /** Why a failed search failed (an error code); its credit was refunded. */
  error: z.string().nullable(),
  /** For `no_competitors_found`: why nothing was found (see FAILURE_REASONS); null otherwise. */
  reason: FailureReason.nullable(),
  competitors: z.array(StoredCompetitor),
});
export type StoredSearch = z.infer<typeof StoredSearch>;

/** Most seed companies a look-alike search takes. */
export const SEEDS_MAX = 20;

/** POST /api/v1/lookalikes: companies like a group of seed companies (a customer list, a portfolio). */
export const LookalikesRequest = z.strictObject({
  domains: z.array(z.string().trim().min(1).max(2048)).min(1, 'give at least one seed domain').max(SEEDS_MAX),
  limit: z.number().int().min(1).max(SEARCH_LIMIT_MAX).default(SEARCH_LIMIT_MAX),
  ...SearchFilters.shape,
});
export type LookalikesRequest = z.input<typeof LookalikesRequest>;

export const Lookalike = Competitor.extend({
  /** The seeds this company is close to, closest first. */
  similarTo: z.array(z.string()).min(1),
});
export type Lookalike = z.infer<typeof Lookalike>;

export const LookalikesResult = z.strictObject({
  /** The seeds, normalised to registrable domains, duplicates dropped. */
  domains: z.array(z.string()),
  totalCompanies: z.number().int().min(0).max(SEARCH_LIMIT_MAX),
  elapsedSeconds: z.number().min(0),
  creditsRemaining: z.number().int().min(0),
  companies: z.array(Lookalike),
});
export type LookalikesResult = z.infer<typeof LookalikesResult>;
