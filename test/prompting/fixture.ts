import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDomain, type Domain, type Presentation } from '../../lib/kst';

/** The hand-made 5-component fixture domain (see fixtures/plotting.json). */
export function plottingDomain(): Domain {
  const file = join(__dirname, 'fixtures', 'plotting.json');
  return parseDomain(readFileSync(file, 'utf8'), file);
}

/**
 * A fixed, hand-chosen permutation of the fixture (independent of lib/kst's seeded orders, so the
 * snapshots only change when the prompt wording does):
 *   1 = FX-slope, 2 = FX-table, 3 = FX-intercept, 4 = FX-plot, 5 = FX-axes.
 */
export function handPresentation(positions: string[] = ['FX-slope', 'FX-table', 'FX-intercept', 'FX-plot', 'FX-axes'], domain = 'fx-plotting', order = 1): Presentation {
  return {
    domain,
    order,
    seed: '0'.repeat(64),
    positions,
    toPosition(id: string): number {
      const i = positions.indexOf(id);
      if (i < 0) throw new Error(`unknown id ${id}`);
      return i + 1;
    },
    toId(position: number): string {
      const id = positions[position - 1];
      if (id === undefined) throw new Error(`bad position ${position}`);
      return id;
    },
  };
}
