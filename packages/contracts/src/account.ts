// contracts: the account's own data (docs/api.md "Search" history, "Account data"): history, companies found, share links
// and the watchlist. Strict schemas: the handlers validate with them and the OpenAPI document is generated from them.
import { z } from 'zod';
import { pageOf, PageQuery } from './pages.js';
import { CompetitorType, FIRMOGRAPHICS_CSV_COLUMNS, Firmographics, SEARCH_STATUSES, StoredCompetitor } from './search.js';

/** GET /api/my-companies answers at most this many rows, most often found first. */
export const MY_COMPANIES_MAX = 5_000;
/** A company row keeps the most recent target domains it was found for, at most this many. */
export const FOUND_FOR_MAX = 20;
/** A watchlist holds at most this many companies. */
export const WATCHLIST_MAX = 1_000;
export const NOTE_MAX = 500;

export const SEARCH_SOURCES = ['api', 'bulk'] as const;

/** `?limit=&cursor=` and nothing else: an unknown parameter is 400 (it catches typos). */
export const StrictPageQuery = z.strictObject(PageQuery.shape);

export const HistoryQuery = z.strictObject({
  ...PageQuery.shape,
  source: z.enum(SEARCH_SOURCES).optional(),
  status: z.enum(SEARCH_STATUSES).optional(),
});
export type HistoryQuery = z.output<typeof HistoryQuery>;

export const HistoryItem = z.strictObject({
  id: z.string(),
  domain: z.string(),
  status: z.enum(SEARCH_STATUSES),
  createdAt: z.string(),
  totalCompetitors: z.number().int(),
  likelyCompetitors: z.number().int(),
  source: z.enum(SEARCH_SOURCES),
  /** Only for searches of a bulk job. */
  jobId: z.string().optional(),
  /** Only for look-alike searches: every seed (`domain` is the first). */
  seeds: z.array(z.string()).optional(),
});
export type HistoryItem = z.infer<typeof HistoryItem>;
export const HistoryPage = pageOf(HistoryItem);
export type HistoryPage = z.infer<typeof HistoryPage>;

export const MyCompaniesQuery = z.strictObject({ format: z.enum(['json', 'csv']).default('json') });

export const MyCompany = z.strictObject({
  /** The company (for a product line, the company that makes it: Microsoft for Teams). */
  company: z.string(),
  /** The product line, when the row is one (Teams); null for a company found as itself. */
  product: z.string().nullable(),
  /** The company's website domain (microsoft.com for Teams): the same for a company and its product lines. */
  domain: z.string(),
  timesFound: z.number().int().min(1),
  bestMatchScore: z.number().int().min(0).max(100),
  types: z.array(CompetitorType),
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
  /** The target domains it was found for, most recent first, at most FOUND_FOR_MAX. */
  foundFor: z.array(z.string()),
  /** As the most recent search that found it stored them. */
  firmographics: Firmographics,
});
export type MyCompany = z.infer<typeof MyCompany>;
export const MyCompanies = z.strictObject({
  items: z.array(MyCompany),
  /** How many companies the account has found in all; more than items.length when the list is capped. */
  total: z.number().int().min(0),
});
export type MyCompanies = z.infer<typeof MyCompanies>;
export const MY_COMPANIES_CSV_COLUMNS = ['company', 'product', 'domain', 'timesFound', 'bestMatchScore', 'types', 'firstSeenAt', 'lastSeenAt', 'foundFor', ...FIRMOGRAPHICS_CSV_COLUMNS] as const;

export const ShareLink = z.strictObject({
  /** The secret of the link: whoever has it can read the search. */
  token: z.string(),
  /** `/share/<token>` on the dashboard's origin (absolute when the service knows its public base URL). */
  url: z.string(),
  createdAt: z.string(),
});
export type ShareLink = z.infer<typeof ShareLink>;

/** GET /api/shared/:token: the search, read-only, with nothing about the account that owns it. */
export const SharedSearch = z.strictObject({
  domain: z.string(),
  /** A look-alike search's seeds. */
  seeds: z.array(z.string()).optional(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  totalCompetitors: z.number().int(),
  likelyCompetitors: z.number().int(),
  competitors: z.array(StoredCompetitor),
});
export type SharedSearch = z.infer<typeof SharedSearch>;

export const SaveCompanyRequest = z.strictObject({
  domain: z.string().trim().min(1, 'domain is required').max(2048),
  company: z.string().trim().min(1).max(200).optional(),
  note: z.string().max(NOTE_MAX).optional(),
  searchId: z.string().max(64).optional(),
});
export type SaveCompanyRequest = z.input<typeof SaveCompanyRequest>;

/** PATCH /api/saved-companies/:domain: the fields to change; null clears one. */
export const UpdateSavedCompanyRequest = z
  .strictObject({
    company: z.string().trim().min(1).max(200).nullable().optional(),
    note: z.string().max(NOTE_MAX).nullable().optional(),
  })
  .refine((body) => body.company !== undefined || body.note !== undefined, { message: 'give company or note (null clears it)' });
export type UpdateSavedCompanyRequest = z.input<typeof UpdateSavedCompanyRequest>;

export const SavedCompany = z.strictObject({
  domain: z.string(),
  company: z.string().nullable(),
  note: z.string().nullable(),
  searchId: z.string().nullable(),
  savedAt: z.string(),
  /** When the monitor last compared its competitors (docs/monitoring.md); null until it has. */
  lastCheckedAt: z.string().nullable(),
  /** Changes recorded since its changes were last read with GET /api/changes?domain=. */
  unseenChanges: z.number().int(),
});
export type SavedCompany = z.infer<typeof SavedCompany>;
export const SavedCompaniesPage = pageOf(SavedCompany);
export type SavedCompaniesPage = z.infer<typeof SavedCompaniesPage>;
