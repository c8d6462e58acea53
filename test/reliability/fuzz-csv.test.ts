// Reliability: property-based fuzzing (fast-check) of the bulk CSV reader and of the CSV writers. Any file (binary
// bytes, formula cells, odd quoting, huge fields, any separator, any chunking) is read or refused with a documented
// 4xx, never a crash; every domain it yields is a normalised public domain; every cell written (downloads, exports)
// reads back as written, with cells a spreadsheet would run as a formula neutralised. FUZZ_RUNS inputs in all
// (default 600), FUZZ_SEED replays a run.
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '@rivals/contracts';
import { ApiError, csvCell, normalizeDomain, parseDomainsCsv, toCsv } from '@rivals/core';
import { anyText, csvFile, FUZZ_SEED } from './arbitraries.js';

const TOTAL = Number(process.env.FUZZ_RUNS ?? 600);
const SEED = FUZZ_SEED; // fixed in npm test, fresh in npm run fuzz (arbitraries.ts)
// What the writer neutralises: the four formula leads, their fullwidth forms, and the control characters a
// spreadsheet skips before reading a formula (tab, CR, LF).
const FORMULA = /^[=+\-@\uFF1D\uFF0B\uFF0D\uFF20\t\r\n]/;
const inputs: Record<string, number> = {};
afterAll(() => console.log(`[reliability] CSV fuzz: ${JSON.stringify(inputs)}, seed ${SEED} (FUZZ_RUNS=${TOTAL})`));

describe('CSV fuzz', () => {
  it('reads any file or refuses it with a documented 4xx; every domain it yields is normalised and public', async () => {
    inputs.files = 0;
    await fc.assert(
      fc.asyncProperty(csvFile, fc.integer({ min: 1, max: 4_096 }), async (file, chunk) => {
        inputs.files!++;
        const chunks = Array.from({ length: Math.ceil(file.length / chunk) }, (_, i) => file.subarray(i * chunk, (i + 1) * chunk));
        try {
          const result = await parseDomainsCsv(chunks, { maxDomains: 1_000 });
          for (const domain of result.domains) {
            expect(normalizeDomain(domain)).toBe(domain);
            expect(domain).not.toMatch(FORMULA);
          }
          expect(new Set(result.domains).size).toBe(result.domains.length);
          for (const row of result.rejectedRows) expect(Number.isInteger(row.row) && row.row >= 1).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(ApiError);
          const status = ERROR_STATUS[(error as ApiError).code];
          expect([400, 413, 415]).toContain(status);
        }
      }),
      { numRuns: Math.ceil(TOTAL / 2), seed: SEED },
    );
  }, 300_000);

  it('writes every cell so that it reads back as written, formulas neutralised with a leading quote', () => {
    inputs.cells = 0;
    fc.assert(
      fc.property(fc.oneof(anyText, fc.constantFrom('=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx', "'x", '"', 'a,b', 'a\r\nb')), (raw) => {
        inputs.cells!++;
        const text = raw.replace(/[\ud800-\udfff]/g, '?');
        const expected = FORMULA.test(text) ? `'${text}` : text;
        // The bulk download's cell writer, and the exports' (csv-stringify with escape_formulas).
        const fromCell = (parse(`${csvCell(text)}\r\n`, { relax_quotes: false, record_delimiter: '\r\n' }) as string[][])[0]?.[0];
        const fromExport = (parse(toCsv(['value'], [[text]]), { record_delimiter: '\r\n' }) as string[][])[1]?.[0];
        expect(fromCell ?? '').toBe(expected);
        expect(fromExport ?? '').toBe(expected);
        expect(fromCell ?? '').not.toMatch(FORMULA);
      }),
      { numRuns: Math.floor(TOTAL / 2), seed: SEED + 1 },
    );
  }, 300_000);
});
