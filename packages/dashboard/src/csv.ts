// dashboard: CSV files made in the browser and handed to the user as downloads.
import { toCsv as toCsvFile } from '@rivals/contracts';

/** The rows' values under `columns`, written by the one CSV cell writer of every Rivals CSV (@rivals/contracts). */
export const toCsv = (columns: readonly string[], rows: readonly Record<string, unknown>[]): string =>
  toCsvFile(
    columns,
    rows.map((row) => columns.map((c) => row[c])),
  );

/** Saves text as a file through a temporary object URL. */
export function downloadText(filename: string, text: string, type = 'text/csv;charset=utf-8') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export const formatDate = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—');
