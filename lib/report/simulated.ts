/**
 * Saying plainly when results come from simulated responses (records carrying `simulated: true`).
 */

/**
 * A Markdown notice for the top of a notebook section: how many of the records are simulated.
 * Examples: all simulated → "**Simulated data.** All 2,400 responses …"; none → "" (nothing to say);
 * some → "**Partly simulated data.** 10 of 2,400 responses …".
 */
export function simulatedNotice(records: ReadonlyArray<{ simulated: boolean }>, what = 'responses'): string {
  const n = records.length;
  const k = records.filter((r) => r.simulated).length;
  const fmt = (x: number) => x.toLocaleString('en-US');
  if (k === 0) return '';
  if (k === n) {
    return `**Simulated data.** All ${fmt(n)} ${what} in this input come from the seeded simulated respondent, not from a language model. Every number, table and figure below describes that simulation; the paper's published values are set beside them for comparison only.`;
  }
  return `**Partly simulated data.** ${fmt(k)} of ${fmt(n)} ${what} come from the seeded simulated respondent, not from a language model; the tables and figures below mix them with the others.`;
}

/** True when any record is simulated (then figures get the watermark and titles say so). */
export function anySimulated(records: ReadonlyArray<{ simulated: boolean }>): boolean {
  return records.some((r) => r.simulated);
}

/** A table or figure title marked for simulated input: "Table 3" → "Table 3 — SIMULATED data". */
export function markSimulated(title: string, simulated: boolean): string {
  return simulated ? `${title} — SIMULATED data` : title;
}
