/**
 * Formats rows as RFC 4180 CSV with a header line. Numbers are written at full precision (JavaScript's
 * shortest round-trip form), null/undefined as an empty field; text is quoted only when it must be.
 */
export function toCsv<T extends object>(columns: ReadonlyArray<keyof T & string>, rows: readonly T[]): string {
  const lines = [columns.join(',')];
  for (const row of rows) {
    lines.push(columns.map((c) => csvField((row as Record<string, unknown>)[c])).join(','));
  }
  return `${lines.join('\n')}\n`;
}

function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
