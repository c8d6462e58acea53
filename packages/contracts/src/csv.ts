// contracts: THE writer of CSV cells, for every CSV Rivals produces: the API's bulk download and my-companies export,
// the dashboard's exports and the CLI's --csv. Here, in the package every client already depends on, so that the
// browser and the command line share the server's one implementation (and none imports server code).
//
// A cell is hostile text (company names come from crawled pages). Two defences:
// - spreadsheet formulas (OWASP "CSV injection"): a cell that starts with = + - @, their fullwidth forms ＝ ＋ － ＠
//   (which spreadsheets fold to ASCII), a tab, CR or LF is prefixed with ' so that it is read as text;
// - cells that could be split elsewhere: any cell holding a quote, a comma, a semicolon (the separator of spreadsheets
//   in many locales), a tab, CR or LF is quoted, so that a line break inside a cell can never start a new row.

const FORMULA_LEAD = /^[=+\-@\uFF1D\uFF0B\uFF0D\uFF20\t\r\n]/;
const NEEDS_QUOTES = /[",;\t\r\n]/;

/** One CSV cell, neutralised and quoted as above; null and undefined are empty. */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (FORMULA_LEAD.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) || text.startsWith("'") ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV row, its cells written by csvCell, without its line end. */
export const csvRow = (cells: readonly unknown[]): string => cells.map(csvCell).join(',');

/** A CSV file: the header row, then the rows, each ended by CRLF (RFC 4180). */
export const toCsv = (columns: readonly string[], rows: readonly (readonly unknown[])[]): string =>
  [columns, ...rows].map((row) => `${csvRow(row)}\r\n`).join('');
