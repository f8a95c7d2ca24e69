/** A contrast row (lib/analysis ContrastRow) for the report tests of contrasts: P1−P0 on exact, 50 states, p .2, Holm .6022, with `fields` over it. */
import type { ContrastRow } from '../../lib/analysis';

export const contrastRowWith = (fields: Partial<ContrastRow>): ContrastRow => ({
  contrast: 'P1-P0',
  metric: 'exact',
  states: 50,
  estimate: 0.015,
  ci_low: -0.032,
  ci_high: 0.063,
  p: 0.2,
  p_holm: 0.6022,
  seed: 's',
  ...fields,
});
