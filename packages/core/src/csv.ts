// core: CSV as exports write it: RFC 4180 quoting (CRLF rows, a header row), and every cell that a spreadsheet would
// read as a formula (starting with = + - @ tab or CR) prefixed with ' (csv-stringify's escape_formulas).
import { stringify } from 'csv-stringify/sync';

export function toCsv(columns: readonly string[], rows: readonly (readonly unknown[])[]): string {
  return stringify([columns, ...rows] as unknown[][], { escape_formulas: true, record_delimiter: 'windows' });
}
