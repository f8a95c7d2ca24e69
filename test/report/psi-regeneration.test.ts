import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NOT_PRINTED } from '../../lib/report/psi-tables';
import { promptParts, promptPartsText, selectionComparison, selectionVsRegenerated, table4Comparison, table5Comparison } from '../../lib/report/psi-regeneration';
import { A, B, assertRowNear, mirrors, published } from './psi-fixtures';

test('selection comparison sets the paper counts beside the selected ones', () => {
  const rows = selectionComparison({ perModel: { [B]: 3, [A]: 1 }, considered: 60, selected: [1, 2, 3, 4] }, published, mirrors);
  assert.deepEqual(rows, [
    { model: A, 'paper model': 'ChatGPT', selected: 1, 'selected (paper)': 4, considered: null },
    { model: B, 'paper model': 'Gemini', selected: 3, 'selected (paper)': 23, considered: null },
    { model: 'total', 'paper model': 'total', selected: 4, 'selected (paper)': 62, considered: 60 },
  ]);
  // with the per-model counts of selectWeakCases, each model row shows how many cases it had
  const withCounts = selectionComparison({ perModel: { [B]: 3, [A]: 1 }, considered: 60, selected: [1, 2, 3, 4], consideredPerModel: { [A]: 30, [B]: 30 } }, published, mirrors);
  assert.deepEqual(withCounts.map((r) => r.considered), [30, 30, 60]);
});

test('Table IV: overall row beside 62 / 51 / 82.3 % / +0.049, per-model cases beside the paper selection', () => {
  const rows = table4Comparison(
    {
      overall: { cases: 6, improved: 5, rate: 5 / 6, meanGain: 0.04567 },
      perModel: [{ model: A, cases: 6, improved: 5, rate: 5 / 6, meanGain: 0.04567 }],
    },
    published,
    mirrors,
  );
  // rate 5/6 = 83.333…% at full precision (the HTML shows it rounded), mean gain as given
  assertRowNear(rows[0], {
    model: 'all models', 'paper model': 'all models', cases: 6, 'cases (paper)': 62, improved: 5, 'improved (paper)': 51,
    'rate %': 83.33333333333333, 'rate % (paper)': 82.3, 'mean gain': 0.04567, 'mean gain (paper)': 0.049,
  });
  assert.equal(rows[1]!['cases (paper)'], 4);
  assert.equal(rows[1]!['improved (paper)'], NOT_PRINTED);
});

test('promptParts splits the five parts of a regeneration prompt', () => {
  const user = '## (a) Student context\nweek 3\n\n## (b) Previous\nold answer\n## (c) PSI\n- 0.5\n## (d) Diagnosis\n- SD low\n## (e) Checklist\n- [ ] add example\n';
  const parts = promptParts(user);
  assert.deepEqual(parts.map((p) => [p.part, p.heading, p.text]), [
    ['a', 'Student context', 'week 3'],
    ['b', 'Previous', 'old answer'],
    ['c', 'PSI', '- 0.5'],
    ['d', 'Diagnosis', '- SD low'],
    ['e', 'Checklist', '- [ ] add example'],
  ]);
  assert.throws(() => promptParts('## (a) x\n## (c) y'), /found "ac"/);
});

test('selectionVsRegenerated lists the differences', () => {
  assert.deepEqual(selectionVsRegenerated(['a', 'b', 'c'], [{ parent_run_id: 'c' }, { parent_run_id: 'a' }, { parent_run_id: 'z' }, {}]), {
    selected: 3, regenerated: 3, both: 2, selectedOnly: ['b'], regeneratedOnly: ['z'],
  });
});

test('Table V carries the printed changes (from the regeneration pairs)', () => {
  const shift = (measure: 'psi' | 'kd' | 'tv' | 'sd' | 'ef' | 'cl' | 'ra', before: number, after: number) => ({ measure, before, after, change: after - before });
  const t5 = table5Comparison([shift('psi', 0.52, 0.57), shift('sd', 0.1, 0.4), shift('ef', 0.3, 0.3), shift('cl', 0.99, 1)], published);
  assertRowNear(t5[0], { measure: 'PSI', before: 0.52, 'before (paper)': NOT_PRINTED, after: 0.57, 'after (paper)': NOT_PRINTED, change: 0.05, 'change (paper)': 0.049 });
  assertRowNear(t5[1], { measure: 'SD', before: 0.1, 'before (paper)': 0.073, after: 0.4, 'after (paper)': 0.345, change: 0.3, 'change (paper)': 0.272 });
  assert.equal(t5[2]!['change (paper)'], 0);
  assert.equal(t5[3]!['change (paper)'], NOT_PRINTED);
});

test('promptPartsText prints each part under its heading, a blank line before each (notebook 12)', () => {
  const user = '## (a) Student context\nweek 3\n\n## (b) Previous\nold answer\n## (c) PSI\n- 0.5\n## (d) Diagnosis\n- SD low\n## (e) Checklist\n- [ ] add example\n';
  assert.equal(
    promptPartsText(user),
    '\n=== (a) Student context ===\nweek 3\n\n=== (b) Previous ===\nold answer\n\n=== (c) PSI ===\n- 0.5\n\n=== (d) Diagnosis ===\n- SD low\n\n=== (e) Checklist ===\n- [ ] add example',
  );
  assert.throws(() => promptPartsText('## (a) x\n## (c) y'), /found "ac"/);
});
