/** lib/report/graphs.ts: reconstructed-graph rows, the verdict summary in percent and its figure. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadDomainDir } from '../../lib/kst';
import { analyzeGraph, graphSummaryBy } from '../../lib/analysis/graphs';
import { graphRowsTable, graphSummaryTable, graphVerdictSpec, idSetCell } from '../../lib/report/graphs';

const ROOT = join(__dirname, '..', '..');
const fixture = join(ROOT, 'test', 'fixtures', 'analyze');

test('graph tables: flat per-response rows and the summary in percent', () => {
  const [domain] = loadDomainDir(join(fixture, 'domains')).filter((d) => d.id === 'tiny');
  // tiny: A→B, C free. State ∅, reference {A, C}; graph C→A→B implies {C}; recommendation {C}: (b).
  // direct {A>B, C>A} vs cover {A>B}: P 1/2, R 1; closure {A>B, C>A, C>B} vs surmise {A>B}: P 1/3, R 1.
  const row = analyzeGraph(domain!, { runId: 'r', model: 'm', order: 1, state: [], recommended: ['C'], reference: ['A', 'C'], pairs: [['C', 'A'], ['A', 'B']] });
  assert.deepEqual(graphRowsTable([row])[0], {
    run_id: 'r',
    model: 'm',
    domain: 'tiny',
    order: 1,
    state: '∅',
    returned_pairs: 'A>B C>A',
    self_pairs: 0,
    cyclic: false,
    recommended: 'C',
    reference_fringe: 'A C',
    own_graph_fringe: 'C',
    verdict: 'wrong-structure',
    follows_own_graph: true,
    direct_precision: 1 / 2,
    direct_recall: 1,
    closure_precision: 1 / 3,
    closure_recall: 1,
  });
  const summary = graphSummaryBy([row, { ...row, verdict: 'correct', consistent: false }], 'model');
  const table = graphSummaryTable(summary, 'model', { m: 'model m' })[0]!;
  assert.deepEqual([table['model'], table['(a) %'], table['(b) %'], table['(c) %'], table['follows own graph %']], ['model m', 50, 50, 0, 50]);
  const spec = graphVerdictSpec(summary, { title: 'P1' });
  assert.deepEqual(spec.data.map((t) => t['x']), [[50], [50], [0]]);
  // The (c) segment is 0 wide: its count is named right of the bar, where the stack ends.
  assert.deepEqual(spec.layout!['annotations'], [{ x: 100, y: 'm', xref: 'x', yref: 'y', xanchor: 'left', showarrow: false, text: '(c) 0', font: { size: 11 } }]);
  assert.equal((spec.layout!['margin'] as { r?: number }).r, 120);
  const noZero = graphVerdictSpec(graphSummaryBy([row, { ...row, verdict: 'correct', consistent: false }, { ...row, verdict: 'inconsistent' }], 'model'), { title: 'P1' });
  assert.equal(noZero.layout!['annotations'], undefined);
  assert.equal(graphRowsTable([{ ...row, pairs: [], recommended: [] }])[0]!.returned_pairs, '∅');
});

test('idSetCell: IDs space-separated, the empty set as ∅', () => {
  assert.equal(idSetCell([]), '∅');
  assert.equal(idSetCell(['A']), 'A');
  assert.equal(idSetCell(['A', 'C']), 'A C');
});
