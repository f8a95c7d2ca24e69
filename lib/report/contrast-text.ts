/**
 * Plain-language readings of the condition contrasts ([KST-2026] §4.5.1), generated from the numbers of a
 * ContrastRow so that the words in a notebook can never contradict the table above them.
 */
import type { ContrastRow } from '../analysis';
import { percent } from '../stats/prints-as';
import { significantAt } from '../stats/holm';

const METRIC_NAMES: Record<ContrastRow['metric'], string> = { exact: 'exact-set accuracy', f1: 'macro F1' };

/** Percentage points with one decimal, rounded as the tables round (lib/stats `percent`): 0.3354 → "33.5". */
function points(x: number): string {
  return percent(Math.abs(x)).toFixed(1);
}

/**
 * A p value as the paper prints it: four decimals without the leading zero, "< .0001" below that.
 * @example
 * formatP(0.60221); // => '= .6022'
 * formatP(0.00001); // => '< .0001'
 * formatP(1); // => '= 1.0000'
 */
export function formatP(p: number): string {
  if (p < 0.0001) return '< .0001';
  const text = p.toFixed(4);
  return `= ${text.startsWith('0') ? text.slice(1) : text}`;
}

/**
 * One paragraph reading a contrast row `later − earlier`:
 * 1. direction and size: "P2 was 33.5 percentage points higher than P1 in exact-set accuracy, averaged
 *    over 50 knowledge states" (a difference that rounds to 0.0 says so);
 * 2. interval: whether the 95 % bootstrap interval lies above zero, below zero, or includes zero;
 * 3. test (exact-set contrasts only): the Holm-adjusted randomization p against `alpha` (default .05),
 *    and a warning when interval and test point different ways; F1 contrasts are called descriptive.
 *
 * @example
 * const row = { contrast: 'P1-P0', metric: 'exact' as const, states: 50, estimate: 0.015, ci_low: -0.032, ci_high: 0.063, p: 0.3, p_holm: 0.6022, seed: 's' };
 * describeContrast(row); // => 'P1 was 1.5 percentage points higher than P0 in exact-set accuracy, averaged over 50 knowledge states. The 95 % bootstrap interval [-3.2, 6.3] includes zero: the states are compatible with no difference. The Holm-adjusted randomization p = .6022 is not below .05: no clear evidence of a difference.'
 * describeContrast({ ...row, estimate: null }); // => 'P1 − P0 (exact-set accuracy): no knowledge state has responses under both conditions, so there is nothing to compare.'
 */
export function describeContrast(row: ContrastRow, options: { alpha?: number } = {}): string {
  const alpha = options.alpha ?? 0.05;
  const [later, earlier] = row.contrast.split('-') as [string, string];
  const metric = METRIC_NAMES[row.metric];
  if (row.estimate === null || row.ci_low === null || row.ci_high === null) {
    return `${later} − ${earlier} (${metric}): no knowledge state has responses under both conditions, so there is nothing to compare.`;
  }
  const where = `averaged over ${row.states} knowledge state${row.states === 1 ? '' : 's'}`;
  const size = points(row.estimate);
  let sentence: string;
  if (row.estimate === 0) sentence = `${later} and ${earlier} had the same ${metric}, ${where}.`;
  else if (size === '0.0') sentence = `${later} and ${earlier} differed by less than 0.05 percentage points in ${metric} (${later} ${row.estimate > 0 ? 'higher' : 'lower'}), ${where}.`;
  else sentence = `${later} was ${size} percentage points ${row.estimate > 0 ? 'higher' : 'lower'} than ${earlier} in ${metric}, ${where}.`;
  const interval = `[${percent(row.ci_low).toFixed(1)}, ${percent(row.ci_high).toFixed(1)}]`;
  const excludesZero = row.ci_low > 0 || row.ci_high < 0;
  const parts = [sentence];
  if (row.ci_low > 0) parts.push(`The 95 % bootstrap interval ${interval} lies entirely above zero.`);
  else if (row.ci_high < 0) parts.push(`The 95 % bootstrap interval ${interval} lies entirely below zero.`);
  else parts.push(`The 95 % bootstrap interval ${interval} includes zero: the states are compatible with no difference.`);
  if (row.metric === 'f1' || row.p_holm === null) {
    parts.push('This contrast is descriptive: no adjusted test is reported for it.');
    return parts.join(' ');
  }
  const significant = significantAt(row.p_holm, alpha);
  const level = String(alpha).replace(/^0\./, '.');
  parts.push(
    significant
      ? `The Holm-adjusted randomization p ${formatP(row.p_holm)} is below ${level}: evidence of a difference (read descriptively, as in the paper).`
      : `The Holm-adjusted randomization p ${formatP(row.p_holm)} is not below ${level}: no clear evidence of a difference.`,
  );
  if (excludesZero !== significant) {
    parts.push(
      'Interval and adjusted test point different ways here: they are different procedures (the test is also adjusted for three contrasts) summarising the same small difference, and neither shows that the conditions are equivalent.',
    );
  }
  return parts.join(' ');
}
