// cli: output: aligned tables, CSV, and colour only on a terminal (and never with NO_COLOR).
import { csvRow } from '@rivals/sdk';
export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
}

export const styleFor = (stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): Style => {
  const on = Boolean(stream.isTTY) && !env.NO_COLOR && env.TERM !== 'dumb';
  const wrap = (open: number, close: number) => (text: string) => (on ? `\u001b[${open}m${text}\u001b[${close}m` : text);
  return { bold: wrap(1, 22), dim: wrap(2, 22), red: wrap(31, 39), green: wrap(32, 39) };
};

export type Cell = string | number | boolean | null | undefined;

const text = (cell: Cell) => (cell === null || cell === undefined ? '' : String(cell));

/** A plain aligned table; number columns right-aligned, their headers too. */
export function table(headers: string[], rows: Cell[][], style?: Style): string {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => text(row[i]).length)));
  const numeric = headers.map((_, i) => rows.length > 0 && rows.every((row) => typeof row[i] === 'number' || row[i] === null || row[i] === undefined));
  const line = (cells: Cell[]) =>
    cells
      .map((cell, i) => (numeric[i] ? text(cell).padStart(widths[i]!) : text(cell).padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const head = line(headers);
  return [style ? style.bold(head) : head, ...rows.map(line)].join('\n');
}

/**
 * CSV as the API writes it, by the same cell writer (@rivals/contracts through the SDK): formula leads neutralised,
 * cells with separators or line breaks quoted; rows end in LF here, as terminal output does.
 */
export const csv = (headers: string[], rows: Cell[][]) => [headers, ...rows].map((row) => csvRow(row.map(text))).join('\n');
