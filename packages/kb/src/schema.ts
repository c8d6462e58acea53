// kb: the schema of the authored sector files (README.md) and of the compiled index the engine loads.
import { z } from 'zod';

export const SEGMENTS = ['consumer', 'smb', 'mid-market', 'enterprise', 'developer', 'public-sector'] as const;
export const SIZE_BANDS = ['1-10', '11-50', '51-200', '201-500', '501-1000', '1001-5000', '5001-10000', '10001+'] as const;
export const BUSINESS_MODELS = [
  'saas', 'usage-based', 'open-source', 'marketplace', 'ecommerce', 'retail', 'subscription', 'advertising', 'transaction-fees',
  'hardware', 'manufacturing', 'licensing', 'services', 'franchise', 'insurance', 'lending', 'brokerage', 'freemium', 'media', 'nonprofit',
] as const;
/** Who owns a company: listed on an exchange, owned by another entry (`parent:`), or neither. */
export const OWNERSHIPS = ['public', 'private', 'subsidiary'] as const;
export type Ownership = (typeof OWNERSHIPS)[number];
export const RELATION_KINDS = ['competes', 'alternative', 'substitute', 'complement', 'parent', 'subsidiary'] as const;
export type RelationKind = (typeof RELATION_KINDS)[number];
export const AUTHORED_RELATIONS = ['competes', 'alternative', 'substitute', 'complement'] as const;

const host = z
  .string()
  .regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'a lower-case host name without www or scheme')
  .refine((d) => !d.startsWith('www.'), 'drop the www.');
const id = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'a kebab-case id');
const strengths = z.record(host, z.number().gt(0).lte(1)).nullish();
const list = <T extends z.ZodType>(item: T) => z.array(item).nullish().transform((v) => v ?? []);
/** A calendar date, YYYY-MM-DD (the date facts were last reviewed). */
const isoDate = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, 'a date as YYYY-MM-DD');

export const CategorySpec = z.strictObject({
  id,
  name: z.string().min(2),
  description: z.string().min(10).refine((d) => d !== 'TODO', 'write the description'),
  terms: z.array(z.string().min(2)).min(3),
  related: list(id),
  members: list(host),
});

export const CompanySpec = z.strictObject({
  name: z.coerce.string().min(1),
  domain: host,
  domains: list(host),
  aliases: list(z.coerce.string().min(1)),
  parent: host.nullish(),
  product: z.boolean().nullish(),
  description: z.string().min(10).max(300),
  categories: z.array(id).min(1),
  keywords: z.array(z.coerce.string().min(1)).min(1),
  segment: z.union([z.enum(SEGMENTS), z.array(z.enum(SEGMENTS)).min(1)]).transform((s) => (Array.isArray(s) ? s : [s])),
  model: z.enum(BUSINESS_MODELS),
  founded: z.number().int().min(1000).max(2026),
  hq: z.string().regex(/^[A-Z]{2}$/, 'ISO 3166-1 alpha-2'),
  size: z.enum(SIZE_BANDS),
  competes: strengths,
  alternative: strengths,
  substitute: strengths,
  complement: strengths,
  /** When this entry's facts were last reviewed, if later than its file's `reviewed`. */
  reviewed: isoDate.nullish(),
  /** The company no longer exists: kept so its domain is recognised, never returned as a rival. */
  defunct: z.boolean().nullish(),
  /** Listed on an exchange although no coverage list names it (a coverage list of an index says so by itself). */
  listed: z.strictObject({ exchange: z.string().min(2), ticker: z.string().regex(/^[A-Z0-9.\-]{1,12}$/).nullish() }).nullish(),
});
export type CompanySpec = z.output<typeof CompanySpec>;

export const SectorFile = z.strictObject({
  sector: id,
  name: z.string().min(2),
  /** When the facts of this file were last reviewed; an entry may carry a later date of its own. */
  reviewed: isoDate,
  categories: z.array(CategorySpec).min(1),
  companies: z.array(CompanySpec).nullish().transform((v) => v ?? []),
});
export type SectorFile = z.output<typeof SectorFile>;

/** The compiled index: arrays and numeric references, so that the engine loads it with one JSON.parse. */
export interface KbIndex {
  version: string;
  sectors: { id: string; name: string }[];
  categories: { id: string; name: string; sector: number; description: string; terms: string[]; related: number[] }[];
  entities: KbEntity[];
  /** [from, to, kind (index of RELATION_KINDS), strength] */
  relations: [number, number, number, number][];
  /** Documents analysed at build time (text.ts), as term ids into `vocabulary`, repeats kept for term frequency. */
  text: { vocabulary: string[]; entities: number[][]; categories: number[][] };
}

/** A coverage list (an index's constituents, a set of leaders): every domain it names must be an entry. */
export interface KbList {
  id: string;
  name: string;
  asOf: string;
  /** Entity indices, in the list's order. */
  entities: number[];
  /** For a list of an index's constituents: where they are listed (null when they trade on several exchanges). */
  exchange?: { name: string | null; country: string | null };
}

export interface KbEntity {
  name: string;
  /** The key host (a product line's own host, such as teams.microsoft.com). */
  host: string;
  /** Registrable domain reported to users: the company's (a product line reports its parent company's). */
  domain: string;
  otherDomains: string[];
  aliases: string[];
  parent: number;
  product: boolean;
  description: string;
  categories: number[];
  keywords: string[];
  segments: string[];
  model: string;
  founded: number;
  hq: string;
  size: string;
  /** YYYY-MM-DD: when its facts were last reviewed. */
  reviewed: string;
  /** No longer exists: recognised as a target, never returned as a rival. */
  defunct: boolean;
  /** public (listed), subsidiary (has a parent and is not listed itself) or private; a product line takes its company's. */
  ownership: Ownership;
  /** Where a public company is listed and under which symbol, when known. */
  exchange: string | null;
  ticker: string | null;
}
