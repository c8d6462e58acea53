// core: reading a bulk CSV, streamed. csv-parse does the CSV (BOM, quotes, CRLF); this picks the separator, finds the
// header and the domain column, normalises, dedupes and validates the domains, and lists the rows it rejects.
import { parse, CsvError } from 'csv-parse';
import { BULK_MAX_REJECTED_ROWS, type RejectedRow } from '@rivals/contracts';
import { normalizeDomain } from '../domain.js';
import { ApiError, invalidRequest } from '../errors.js';

export const DOMAIN_HEADERS = ['domain', 'website', 'url', 'homepage', 'company_domain', 'company_website'];
const SEPARATORS = [',', ';', '\t'] as const;

export interface ParsedDomains {
  /** Unique valid domains, normalised, in file order. */
  domains: string[];
  /** Invalid rows (at most BULK_MAX_REJECTED_ROWS kept), each with its 1-based line number. */
  rejectedRows: RejectedRow[];
  rejectedTotal: number;
}

const validDomain = (value: string): string | null => {
  try {
    return normalizeDomain(value);
  } catch {
    return null;
  }
};

/** The separator of the first line: the most frequent of `,` `;` and tab outside quotes (`,` when none). */
export function sniffSeparator(text: string): string {
  const counts = new Map<string, number>(SEPARATORS.map((s) => [s, 0]));
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
  }
  let best = ',';
  for (const [s, n] of counts) if (n > counts.get(best)!) best = s;
  return best;
}

const tooMany = (max: number) => new ApiError('payload_too_large', `A job holds at most ${max} domains.`);
const notCsv = () => new ApiError('unsupported_media_type', 'The file is not a CSV text file.');

/**
 * Parses a CSV of domains from a stream of bytes. Throws 400 invalid_request for an empty or malformed file or one with
 * no valid domain, 413 payload_too_large past `maxDomains` unique domains, 415 unsupported_media_type for binary data.
 */
export async function parseDomainsCsv(input: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>, options: { maxDomains: number }): Promise<ParsedDomains> {
  const iterator =
    Symbol.asyncIterator in input ? input[Symbol.asyncIterator]() : (async function* () { yield* input as Iterable<Uint8Array | string>; })()[Symbol.asyncIterator]();
  // Read until the first line is complete (or the input ends) to pick the separator.
  const head: Buffer[] = [];
  let headText = '';
  for (;;) {
    const next = await iterator.next();
    if (next.done) break;
    const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : Buffer.from(next.value);
    head.push(chunk);
    headText += chunk.toString('utf8');
    if (/[\r\n]/.test(headText) || headText.length > 64 * 1024) break;
  }
  if (head.some((c) => c.includes(0))) throw notCsv();

  const parser = parse({
    bom: true,
    delimiter: sniffSeparator(headText.replace(/^\uFEFF/, '')),
    relax_column_count: true,
    skip_empty_lines: true,
    trim: true,
    info: true,
  });
  const feed = (async () => {
    try {
      for (const chunk of head) if (!parser.write(chunk)) await new Promise((r) => parser.once('drain', r));
      for (;;) {
        const next = await iterator.next();
        if (next.done) break;
        const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : Buffer.from(next.value);
        if (chunk.includes(0)) throw notCsv();
        if (!parser.write(chunk)) await new Promise((r) => parser.once('drain', r));
      }
      parser.end();
    } catch (error) {
      parser.destroy(error as Error);
    }
  })();

  const seen = new Set<string>();
  const result: ParsedDomains = { domains: [], rejectedRows: [], rejectedTotal: 0 };
  let column: number | null = null;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (record.every((cell) => cell === '')) continue;
      if (column === null) {
        const isHeader = record.every((cell) => validDomain(cell) === null);
        if (isHeader) {
          const named = record.findIndex((cell) => DOMAIN_HEADERS.includes(cell.toLowerCase()));
          column = named >= 0 ? named : 0;
          continue;
        }
        column = 0;
      }
      const value = record[column] ?? '';
      const domain = value === '' ? null : validDomain(value);
      if (domain === null) {
        result.rejectedTotal++;
        if (result.rejectedRows.length < BULK_MAX_REJECTED_ROWS)
          result.rejectedRows.push({ row: info.lines, value: value.slice(0, 200), reason: value === '' ? 'empty domain cell' : 'not a public company domain' });
        continue;
      }
      if (seen.has(domain)) continue;
      seen.add(domain);
      if (seen.size > options.maxDomains) throw tooMany(options.maxDomains);
      result.domains.push(domain);
    }
  } catch (error) {
    parser.destroy();
    await iterator.return?.();
    if (error instanceof ApiError) throw error;
    if (error instanceof CsvError) throw invalidRequest(`The file is not valid CSV: ${error.message}`, [{ field: 'file', problem: error.code }]);
    throw error;
  }
  await feed;
  if (result.domains.length === 0 && result.rejectedTotal === 0 && column === null) throw invalidRequest('The file is empty.', [{ field: 'file', problem: 'empty' }]);
  if (result.domains.length === 0) throw invalidRequest('The file holds no valid domain.', [{ field: 'file', problem: 'no valid domain' }]);
  return result;
}
