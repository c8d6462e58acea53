// core: CSV as exports write it, with the one cell writer every CSV of Rivals uses (packages/contracts/src/csv.ts:
// formula leads neutralised with ', cells with separators or line breaks quoted, CRLF rows).
export { csvCell, csvRow, toCsv } from '@rivals/contracts';
