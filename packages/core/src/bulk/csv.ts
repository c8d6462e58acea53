// core: reading a bulk CSV, streamed. csv-parse does the CSV (BOM, quotes, CRLF); this picks the separator, finds the
// header and the domain column, normalises, dedupes and validates the domains, and lists the rows it rejects. A file
// is hostile until read: records are capped in cells and characters, so that no file costs more than a moment of CPU
// (docs/bulk.md "Limits").
import { parse, CsvError } from 'csv-parse';
import { BULK_CSV_MAX_COLUMNS, BULK_CSV_MAX_RECORD_CHARS, BULK_CSV_MAX_ROWS, BULK_MAX_REJECTED_ROWS, type RejectedRow } from '@rivals/contracts';
import { hostnameOf, isPublicHostname, registrableDomain } from '../domain.js';
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

/** normalizeDomain's answer without its error: a file may hold millions of invalid cells, and building an error for
 * each (a stack trace apiece) would be most of its cost. */
const validDomain = (value: string): string | null => {
  if (value.length > 2048) return null;
  const host = hostnameOf(value);
  return host && isPublicHostname(host) ? registrableDomain(host) : null;
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

/** Only this many leading cells of the first record are read to tell a header (and its domain column) from data. */
export const HEADER_CELLS = 20;

const tooWide = (line: number) =>
  invalidRequest(`The file is not a CSV of domains: line ${line} holds more than ${BULK_CSV_MAX_COLUMNS} cells.`, [{ field: 'file', problem: 'too many columns' }]);

/**
 * Counts the cells of each record and the lines of the file as bytes stream by, before csv-parse builds anything: a
 * record of more than BULK_CSV_MAX_COLUMNS cells is refused (csv-parse caps a record's characters, max_record_size,
 * but not its cells, and a line of 5 million bare separators holds no character at all), and so is a file of more
 * than BULK_CSV_MAX_ROWS lines, blank ones included (csv-parse skips those at a cost). Quotes are followed as
 * csv-parse reads them (a doubled quote inside a quoted cell toggles twice), so a quoted separator or line break is
 * not counted. A line ends at LF, CRLF or a lone CR.
 */
function shapeGuard(separator: string) {
  const sep = separator.charCodeAt(0);
  let quoted = false;
  let cells = 1;
  let line = 1;
  let afterCr = false;
  const newLine = () => {
    cells = 1;
    if (++line > BULK_CSV_MAX_ROWS) throw tooManyRows();
  };
  return (chunk: Buffer) => {
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      const crlf = afterCr && byte === 0x0a;
      afterCr = false;
      if (byte === 0x22) quoted = !quoted;
      else if (quoted) continue;
      else if (byte === sep) {
        if (++cells > BULK_CSV_MAX_COLUMNS) throw tooWide(line);
      } else if (byte === 0x0d) {
        afterCr = true;
        newLine();
      } else if (byte === 0x0a && !crlf) newLine();
    }
  };
}

const tooManyRows = () => new ApiError('payload_too_large', `A file holds at most ${BULK_CSV_MAX_ROWS} lines.`);
/** Records read between two turns of the event loop, so that other requests of the process are served meanwhile. */
const RECORDS_PER_TURN = 1_000;
const WRITE_SLICE_BYTES = 16 * 1024;

const tooMany = (max: number) => new ApiError('payload_too_large', `A job holds at most ${max} domains.`);
const notCsv = () => new ApiError('unsupported_media_type', 'The file is not a CSV text file.');

/**
 * Parses a CSV of domains from a stream of bytes. Throws 400 invalid_request for an empty or malformed file, one with
 * no valid domain, or a record past BULK_CSV_MAX_COLUMNS cells or BULK_CSV_MAX_RECORD_CHARS characters; 413
 * payload_too_large past `maxDomains` unique domains or BULK_CSV_MAX_ROWS rows; 415 unsupported_media_type for binary
 * data.
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

  const delimiter = sniffSeparator(headText.slice(0, BULK_CSV_MAX_RECORD_CHARS).replace(/^\uFEFF/, ''));
  const guard = shapeGuard(delimiter);
  const parser = parse({
    bom: true,
    delimiter,
    relax_column_count: true,
    skip_empty_lines: true,
    trim: true,
    info: true,
    // Characters a record may hold (its cells together, quotes unfolded): one giant cell, or a deep run of quotes, is
    // refused once it passes this, not read to its end.
    max_record_size: BULK_CSV_MAX_RECORD_CHARS,
  });
  // In slices: csv-parse parses all of a chunk it is given at once, so a 5 MB chunk would be read to its end (millions
  // of records) before the row cap below could stop it. A slice at a time, with backpressure, reads only what is needed.
  const write = async (chunk: Buffer) => {
    for (let at = 0; at < chunk.length; at += WRITE_SLICE_BYTES) {
      const slice = chunk.subarray(at, at + WRITE_SLICE_BYTES);
      guard(slice);
      if (!parser.write(slice)) await new Promise((r) => parser.once('drain', r));
    }
  };
  const feed = (async () => {
    try {
      for (const chunk of head) await write(chunk);
      for (;;) {
        const next = await iterator.next();
        if (next.done) break;
        const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : Buffer.from(next.value);
        if (chunk.includes(0)) throw notCsv();
        await write(chunk);
      }
      parser.end();
    } catch (error) {
      parser.destroy(error as Error);
    }
  })();

  const seen = new Set<string>();
  const result: ParsedDomains = { domains: [], rejectedRows: [], rejectedTotal: 0 };
  let column: number | null = null;
  let records = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (++records % RECORDS_PER_TURN === 0) await new Promise((r) => setImmediate(r));
      if (record.every((cell) => cell === '')) continue;
      if (column === null) {
        const leading = record.slice(0, HEADER_CELLS);
        const isHeader = leading.every((cell) => validDomain(cell) === null);
        if (isHeader) {
          const named = leading.findIndex((cell) => DOMAIN_HEADERS.includes(cell.toLowerCase()));
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
    if (error instanceof CsvError && error.code === 'CSV_MAX_RECORD_SIZE')
      throw invalidRequest(`The file is not a CSV of domains: a record holds more than ${BULK_CSV_MAX_RECORD_CHARS} characters.`, [{ field: 'file', problem: 'record too large' }]);
    if (error instanceof CsvError) throw invalidRequest(`The file is not valid CSV: ${error.message}`, [{ field: 'file', problem: error.code }]);
    throw error;
  }
  await feed;
  if (result.domains.length === 0 && result.rejectedTotal === 0 && column === null) throw invalidRequest('The file is empty.', [{ field: 'file', problem: 'empty' }]);
  if (result.domains.length === 0) throw invalidRequest('The file holds no valid domain.', [{ field: 'file', problem: 'no valid domain' }]);
  return result;
}
