/**
 * Saying plainly when results come from simulated responses (records carrying `simulated: true`): the
 * project's one notice for the top of a notebook section and one title mark, for both studies.
 */

/** Who writes the simulated records of each study. */
const SIMULATOR: Record<'kst' | 'psi', string> = {
  kst: 'the seeded simulated respondent',
  psi: "this project's seeded simulated tutors",
};

export interface SimulatedNoticeOptions {
  /**
   * What the records are, as the notice names them: plural for several (default "responses in this
   * input"; e.g. "records of data/raw/psi/round1.jsonl"), singular for one ("response (run x)").
   */
  what?: string;
  /** Whose simulator wrote them: the KST respondent (default) or the PSI tutors. */
  study?: 'kst' | 'psi';
}

/**
 * A Markdown notice for the top of a notebook section: whether the records are simulated. Nothing to
 * say ("") when none is; the notebook says where its data came from instead.
 *
 * @example
 * simulatedNotice([{ simulated: false }]); // => ""
 * simulatedNotice([{ simulated: true }, { simulated: false }]).slice(0, 44); // => "**Partly simulated data.** 1 of 2 responses "
 * simulatedNotice([{ simulated: true }], { what: "response (run r1)", study: "psi" }).slice(0, 55); // => "**Simulated data.** The response (run r1) comes from th"
 */
export function simulatedNotice(records: ReadonlyArray<{ simulated: boolean }>, options: SimulatedNoticeOptions = {}): string {
  const n = records.length;
  const k = records.filter((r) => r.simulated).length;
  const what = options.what ?? 'responses in this input';
  const source = SIMULATOR[options.study ?? 'kst'];
  const fmt = (x: number) => x.toLocaleString('en-US');
  const consequence =
    'Every number, table and figure below describes that simulation; the paper\'s published values are set beside them for comparison only.';
  if (k === 0) return '';
  if (n === 1) return `**Simulated data.** The ${what} comes from ${source}, not from a language model. ${consequence}`;
  if (k === n) return `**Simulated data.** All ${fmt(n)} ${what} come from ${source}, not from a language model. ${consequence}`;
  return `**Partly simulated data.** ${fmt(k)} of ${fmt(n)} ${what} come from ${source}, not from a language model; the tables and figures below mix them with the others.`;
}

/**
 * How many of the records are simulated, as a phrase for an inputs line.
 * @example
 * simulatedShare([{ simulated: true }, { simulated: false }]); // => "1 of 2 simulated"
 */
export function simulatedShare(records: ReadonlyArray<{ simulated: boolean }>): string {
  return `${records.filter((r) => r.simulated).length} of ${records.length} simulated`;
}

/** True when any record is simulated (then figures get the watermark and titles say so). */
export function anySimulated(records: ReadonlyArray<{ simulated: boolean }>): boolean {
  return records.some((r) => r.simulated);
}

/** The title mark lives with the figure and table writers, which apply it themselves (`simulated: true`). */
export { markSimulated } from '../figures/simulated';
