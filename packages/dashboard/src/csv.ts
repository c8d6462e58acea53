// dashboard: CSV files made in the browser and handed to the user as downloads.

/** One CSV field: quoted when needed; a leading = + - @ is defused so that a spreadsheet never runs it as a formula. */
const field = (value: unknown): string => {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

export const toCsv = (columns: readonly string[], rows: readonly Record<string, unknown>[]): string =>
  [columns.join(','), ...rows.map((row) => columns.map((c) => field(row[c])).join(','))].join('\r\n') + '\r\n';

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
