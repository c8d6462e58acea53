// mcp-server: the Rivals tools for agents (Model Context Protocol). Each tool calls the SDK and answers with
// structured content plus a short text table; an API error is a tool error carrying the API's code.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import {
  Balance,
  BulkJob,
  BulkJobList,
  BulkUploadAccepted,
  ChangesPage,
  COMPANY_SIZES,
  COMPETITOR_TYPES,
  HistoryPage,
  LookalikesResult,
  MyCompanies,
  OWNERSHIPS,
  SavedCompaniesPage,
  SavedCompany,
  SearchResult,
  ShareLink,
  StoredSearch,
} from '@rivals/contracts';
import { Rivals, RivalsError, SDK_VERSION } from '@rivals/sdk';

type Cell = string | number | boolean | null | undefined;

/** A short plain-text table (the first rows) for the text part of an answer. */
export const textTable = (headers: string[], rows: Cell[][], max = 25): string => {
  const shown = rows.slice(0, max).map((row) => row.map((cell) => (cell === null || cell === undefined ? '' : String(cell))));
  const widths = headers.map((header, i) => Math.max(header.length, ...shown.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ').trimEnd();
  const more = rows.length > max ? [`... ${rows.length - max} more rows in the structured content`] : [];
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('-|-'), ...shown.map(line), ...more].join('\n');
};

const answer = (structured: Record<string, unknown>, text: string): CallToolResult => ({ structuredContent: structured, content: [{ type: 'text', text }] });

/**
 * A tool error: the API's code, status and request id, in the text and in `_meta.error`. Not as structured content:
 * clients check structured content against the tool's output schema, errors included.
 */
export const toolError = (error: unknown): CallToolResult => {
  const e =
    error instanceof RivalsError
      ? { code: error.code, status: error.status, message: error.message, requestId: error.requestId, ...(error.retryAfterSeconds !== null ? { retryAfterSeconds: error.retryAfterSeconds } : {}), ...(error.creditsRemaining !== null ? { creditsRemaining: error.creditsRemaining } : {}) }
      : { code: 'internal_error', status: null, message: (error as Error)?.message ?? String(error), requestId: null };
  return { isError: true, _meta: { error: e }, content: [{ type: 'text', text: `Error ${e.code}${e.status ? ` (HTTP ${e.status})` : ''}: ${e.message}${e.requestId ? ` [request ${e.requestId}]` : ''}` }] };
};

const guard =
  <A>(run: (args: A) => Promise<CallToolResult>) =>
  async (args: A): Promise<CallToolResult> => {
    try {
      return await run(args);
    } catch (error) {
      return toolError(error);
    }
  };

/** The search filters, for a search and for every domain of a bulk job. */
const filters = {
  exclude: z.array(z.string()).max(100).optional().describe('Domains never to return.'),
  types: z.array(z.enum(COMPETITOR_TYPES)).min(1).optional().describe('Only these competitor types.'),
  minMatchScore: z.number().int().min(0).max(100).optional().describe('Only competitors scoring at least this.'),
  countries: z.array(z.string().length(2)).min(1).optional().describe('Only competitors headquartered in these ISO 3166-1 alpha-2 countries.'),
  sizes: z.array(z.enum(COMPANY_SIZES)).min(1).optional().describe('Only companies of these size bands (people employed).'),
  foundedFrom: z.number().int().min(1000).max(2100).optional().describe('Only companies founded in or after this year.'),
  foundedTo: z.number().int().min(1000).max(2100).optional().describe('Only companies founded in or before this year.'),
  ownership: z.array(z.enum(OWNERSHIPS)).min(1).optional().describe('Only public (listed), private or subsidiary companies.'),
};

/**
 * A contract's schema (@rivals/contracts: what the API answers) as the shape of a tool's structured content (MCP
 * `outputSchema`), every object loose: a field the API adds later passes through rather than failing the call. A
 * transformed field is checked as the API sends it (its input).
 */
export function loose(schema: z.ZodType): z.ZodType {
  let result: z.ZodType;
  if (schema instanceof z.ZodObject) result = z.looseObject(Object.fromEntries(Object.entries(schema.shape as Record<string, z.ZodType>).map(([key, value]) => [key, loose(value)])));
  else if (schema instanceof z.ZodArray) result = z.array(loose(schema.element as z.ZodType));
  else if (schema instanceof z.ZodOptional) result = loose(schema.unwrap() as z.ZodType).optional();
  else if (schema instanceof z.ZodNullable) result = loose(schema.unwrap() as z.ZodType).nullable();
  else if (schema instanceof z.ZodPipe) result = loose(schema.in as z.ZodType);
  else return schema;
  return schema.description ? result.describe(schema.description) : result;
}

/** The stored search's id, which the API sends in a header, is part of a search's structured content. */
const withSearchId = { searchId: z.string().nullable().describe('The stored search (srch_...): get_search reads it again, free.') };
const OUTPUT = {
  search: loose(SearchResult.extend(withSearchId)),
  lookalikes: loose(LookalikesResult.extend(withSearchId)),
  balance: loose(Balance),
  history: loose(HistoryPage),
  storedSearch: loose(StoredSearch),
  myCompanies: loose(MyCompanies),
  saved: loose(SavedCompany),
  savedList: loose(SavedCompaniesPage),
  changes: loose(ChangesPage),
  bulkAccepted: loose(BulkUploadAccepted),
  bulkJob: loose(BulkJob),
  bulkJobs: loose(BulkJobList),
  bulkResults: z.looseObject({ jobId: z.string(), rows: z.number().int().describe('Data rows in the CSV (after its header).'), csv: z.string() }),
  // Sharing answers the link; revoking answers { revoked: true }.
  share: loose(ShareLink.partial().extend({ revoked: z.boolean().optional() })),
};

const page = { limit: z.number().int().min(1).max(200).optional().describe('Items per page, 1..200 (default 50).'), cursor: z.string().optional().describe('nextCursor of the previous page.') };

export function createServer(rivals: Rivals): McpServer {
  const server = new McpServer({ name: 'rivals', version: SDK_VERSION });
  const free = { readOnlyHint: true, openWorldHint: false } as const;

  server.registerTool(
    'search_competitors',
    {
      title: 'Search competitors',
      description:
        'Research the competitors of a company by its domain (e.g. "stripe.com" or a URL): up to 100 ranked competitors with match score (0-100), type (Direct, Indirect, Adjacent, Emerging), confidence and a likely-competitor flag. COSTS 1 CREDIT per call (refunded if the search fails or finds nothing); check get_balance first when credits are scarce, and reuse get_search / list_history for past results, which are free.',
      inputSchema: {
        domain: z.string().min(1).max(2048).describe('The company\'s domain or website URL.'),
        limit: z.number().int().min(1).max(100).optional().describe('Competitors to return, 1..100 (default 100).'),
        ...filters,
      },
      outputSchema: OUTPUT.search,
      annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: true },
    },
    guard(async (args) => {
      const result = await rivals.search(args);
      const rows = result.competitors.map((c) => [c.rank, c.company, c.domain, c.matchScore, c.type, c.likelyCompetitor ? 'yes' : '']);
      return answer(
        { searchId: result.searchId, ...stripClientFields(result) },
        `${result.domain}: ${result.totalCompetitors} competitors (${result.likelyCompetitors} likely); 1 credit used, ${result.creditsRemaining} left; searchId ${result.searchId}\n${textTable(['#', 'company', 'domain', 'score', 'type', 'likely'], rows)}`,
      );
    }),
  );

  server.registerTool(
    'find_lookalikes',
    {
      title: 'Find look-alike companies',
      description:
        'Companies like a group of 1 to 20 seed companies at once (e.g. your best customers, a portfolio): up to 100 ranked companies with match score, type, confidence, a likely-competitor flag and similarTo (the seeds each is close to). Screening filters (sizes, foundedFrom, foundedTo, ownership, countries) narrow the list. COSTS 1 CREDIT per call whatever the number of seeds (refunded if nothing is found); get_search reads the stored result, with firmographics, for free.',
      inputSchema: {
        domains: z.array(z.string().min(1).max(2048)).min(1).max(20).describe('The seed companies\' domains or website URLs.'),
        limit: z.number().int().min(1).max(100).optional().describe('Companies to return, 1..100 (default 100).'),
        ...filters,
      },
      outputSchema: OUTPUT.lookalikes,
      annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: true },
    },
    guard(async (args) => {
      const result = await rivals.lookalikes(args);
      const rows = result.companies.map((c) => [c.rank, c.company, c.domain, c.matchScore, c.type, c.similarTo.join(', ')]);
      return answer(
        { searchId: result.searchId, ...stripClientFields(result) },
        `${result.domains.join(', ')}: ${result.totalCompanies} look-alikes; 1 credit used, ${result.creditsRemaining} left; searchId ${result.searchId}\n${textTable(['#', 'company', 'domain', 'score', 'type', 'similar to'], rows)}`,
      );
    }),
  );

  server.registerTool(
    'get_balance',
    { title: 'Credit balance', description: 'Credits left on the account (1 credit = 1 search; bulk jobs reserve 1 credit per domain). Free.', inputSchema: {}, outputSchema: OUTPUT.balance, annotations: free },
    guard(async () => {
      const balance = await rivals.balance();
      return answer({ ...balance }, `${balance.creditsRemaining} credits left`);
    }),
  );

  server.registerTool(
    'list_history',
    { title: 'Search history', description: 'Past searches of the account, newest first, one page at a time (pass nextCursor for the next). Free.', inputSchema: page, outputSchema: OUTPUT.history, annotations: free },
    guard(async (args) => {
      const history = await rivals.history.list(args);
      return answer(
        { ...history },
        `${textTable(['searchId', 'domain', 'status', 'createdAt', 'competitors', 'source'], history.items.map((s) => [s.id, s.domain, s.status, s.createdAt, s.totalCompetitors, s.source]))}${history.nextCursor ? `\nnextCursor: ${history.nextCursor}` : ''}`,
      );
    }),
  );

  server.registerTool(
    'get_search',
    { title: 'Get a past search', description: 'A stored search by its id (srch_...), each competitor with the evidence behind it, in plain words (signals), and what is known of it (description, headquarters, size); a failed search says why (reason). Free.', inputSchema: { searchId: z.string().min(1) }, outputSchema: OUTPUT.storedSearch, annotations: free },
    guard(async ({ searchId }) => {
      const search = await rivals.searches.get(searchId);
      return answer(
        { ...search },
        `${search.domain} (${search.status}, ${search.createdAt}): ${search.totalCompetitors} competitors\n${textTable(['#', 'company', 'domain', 'score', 'type', 'why'], search.competitors.map((c) => [c.rank, c.company, c.domain, c.matchScore, c.type, c.evidence.signals[0]]))}`,
      );
    }),
  );

  server.registerTool(
    'list_my_companies',
    { title: 'Companies found so far', description: 'Every company found across the account\'s searches, most often found first (up to 5,000), with times found (distinct targets), best match score and the domains it was found for; a product line is named beside its company (product, company). Free.', inputSchema: {}, outputSchema: OUTPUT.myCompanies, annotations: free },
    guard(async () => {
      const companies = await rivals.myCompanies.list();
      return answer({ ...companies }, `${companies.total} companies\n${textTable(['company', 'product', 'domain', 'found', 'best', 'types'], companies.items.map((c) => [c.company, c.product ?? '', c.domain, c.timesFound, c.bestMatchScore, c.types.join(',')]))}`);
    }),
  );

  server.registerTool(
    'save_company',
    {
      title: 'Save a company',
      description: 'Add a company to the account\'s saved list (watchlist); saving the same domain again updates its note. Without a company name, Rivals names it. Free.',
      inputSchema: { domain: z.string().min(1), company: z.string().optional(), note: z.string().optional(), searchId: z.string().optional().describe('The search it was found in.') },
      outputSchema: OUTPUT.saved,
      annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
    },
    guard(async (args) => {
      const saved = await rivals.saved.add(args);
      return answer({ ...saved }, `saved ${saved.domain}`);
    }),
  );

  server.registerTool(
    'list_saved_companies',
    { title: 'Saved companies', description: 'The account\'s saved companies, one page at a time. Free.', inputSchema: page, outputSchema: OUTPUT.savedList, annotations: free },
    guard(async (args) => {
      const saved = await rivals.saved.list(args);
      return answer({ ...saved }, `${textTable(['domain', 'company', 'note'], saved.items.map((s) => [s.domain, s.company, s.note]))}${saved.nextCursor ? `\nnextCursor: ${saved.nextCursor}` : ''}`);
    }),
  );

  server.registerTool(
    'get_watchlist_changes',
    {
      title: 'Watchlist changes',
      description:
        "What the monitor found in the saved companies' competitor sets, newest first: new_competitor (entered the top 25), dropped (left it), type_changed, score_changed (10 points or more), each with the competitor now and, for the last two, before. Every saved company is re-researched daily. Asking with a domain marks that company's changes seen. Free.",
      inputSchema: {
        domain: z.string().min(1).optional().describe('One saved company.'),
        since: z.string().optional().describe('Only changes detected at or after this ISO 8601 time.'),
        ...page,
      },
      outputSchema: OUTPUT.changes,
      annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
    },
    guard(async (args) => {
      const changes = await rivals.changes.list(args);
      return answer(
        { ...changes },
        `${textTable(['detectedAt', 'watched', 'kind', 'competitor', 'score', 'type', 'before'], changes.items.map((c) => [c.detectedAt, c.domain, c.kind, c.competitor.domain, c.competitor.matchScore, c.competitor.type, c.previous ? `${c.previous.type}, ${c.previous.matchScore}` : '']))}${changes.nextCursor ? `\nnextCursor: ${changes.nextCursor}` : ''}`,
      );
    }),
  );

  server.registerTool(
    'start_bulk_research',
    {
      title: 'Start a bulk job',
      description:
        'Research many domains in the background. COSTS 1 CREDIT PER UNIQUE VALID DOMAIN, all reserved up front (fails with insufficient_credits if the balance is short); domains that fail or find nothing are refunded. Returns a jobId: poll get_bulk_job until status is completed.',
      inputSchema: {
        domains: z.array(z.string().min(1)).min(1).max(10_000).describe('The domains to research (duplicates are researched once).'),
        limit: z.number().int().min(1).max(100).optional().describe('Competitors per domain, 1..100.'),
        ...filters,
        webhookUrl: z.string().url().optional().describe('An https URL told when the job ends.'),
      },
      outputSchema: OUTPUT.bulkAccepted,
      annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: true },
    },
    guard(async ({ domains, ...options }) => {
      const accepted = await rivals.bulk.upload(`domain\n${domains.join('\n')}\n`, options);
      const rejected = accepted.rejectedRows.map((r) => `\n  rejected (not charged): ${JSON.stringify(r.value)}: ${r.reason}`).join('');
      return answer({ ...accepted }, `job ${accepted.jobId}: ${accepted.status}, ${accepted.totalDomains} domains, ${accepted.creditsReserved} credits reserved, ${accepted.creditsRemaining} left${rejected}`);
    }),
  );

  server.registerTool(
    'get_bulk_job',
    { title: 'Bulk job status', description: 'A bulk job\'s status, progress, credits charged and refunded, and a page of its per-domain results (each with a searchId for get_search). Free.', inputSchema: { jobId: z.string().min(1), ...page }, outputSchema: OUTPUT.bulkJob, annotations: free },
    guard(async ({ jobId, ...params }) => {
      const job = await rivals.bulk.get(jobId, params);
      return answer(
        { ...job },
        `job ${job.jobId}: ${job.status}, ${job.completedDomains}/${job.totalDomains} done, ${job.failedDomains} failed\n${textTable(['domain', 'status', 'competitors', 'searchId', 'error'], job.results.map((r) => [r.domain, r.status, r.totalCompetitors, r.searchId, [r.error, r.reason].filter(Boolean).join(': ')]))}`,
      );
    }),
  );

  server.registerTool(
    'list_bulk_jobs',
    { title: 'Bulk jobs', description: 'The account\'s bulk jobs, newest first, one page at a time, with their status and credits. Free.', inputSchema: page, outputSchema: OUTPUT.bulkJobs, annotations: free },
    guard(async (args) => {
      const jobs = await rivals.bulk.list(args);
      return answer(
        { ...jobs },
        `${textTable(['jobId', 'status', 'domains', 'done', 'failed', 'file', 'createdAt'], jobs.items.map((j) => [j.jobId, j.status, j.totalDomains, j.completedDomains, j.failedDomains, j.filename, j.createdAt]))}${jobs.nextCursor ? `\nnextCursor: ${jobs.nextCursor}` : ''}`,
      );
    }),
  );

  server.registerTool(
    'download_bulk_results',
    {
      title: 'Bulk job results (CSV)',
      description: 'The results of a bulk job as CSV: one row per competitor (sourceDomain, rank, company, product, domain, matchScore, type, confidence, likelyCompetitor) and one row per failed domain (error, reason). Free.',
      inputSchema: { jobId: z.string().min(1) },
      outputSchema: OUTPUT.bulkResults,
      annotations: free,
    },
    guard(async ({ jobId }) => {
      const csv = await rivals.bulk.download(jobId);
      const rows = Math.max(0, csv.split(/\r?\n/).filter(Boolean).length - 1);
      return answer({ jobId, rows, csv }, `${rows} rows\n${csv.split(/\r?\n/).slice(0, 26).join('\n')}`);
    }),
  );

  server.registerTool(
    'share_search',
    {
      title: 'Share a search',
      description: 'A public, read-only link to a search that succeeded (anyone with the link can open it, without a key; it shows nothing else of the account). Sharing again returns the same link; revoke: true takes it back. Free.',
      inputSchema: { searchId: z.string().min(1), revoke: z.boolean().optional().describe('Take the link back instead.') },
      outputSchema: OUTPUT.share,
      annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
    },
    guard(async ({ searchId, revoke }) => {
      if (revoke) {
        await rivals.searches.unshare(searchId);
        return answer({ revoked: true }, `the link to ${searchId} is revoked`);
      }
      const share = await rivals.searches.share(searchId);
      return answer({ ...share }, share.url);
    }),
  );

  return server;
}

/** The search result without the SDK's own fields (request id, replay flag). */
const stripClientFields = <T extends { requestId?: unknown; replayed?: unknown; searchId?: unknown }>({ requestId: _r, replayed: _p, searchId: _s, ...rest }: T) => rest;
