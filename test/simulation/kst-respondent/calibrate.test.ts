/**
 * Calibration magnitudes of the simulated respondent (lib/simulation/kst-respondent/calibrate.ts fits
 * the profiles so the shipped corpus lands near the published Table 4): the exact-set accuracy of every
 * model × condition cell of data/raw/kst (what `npm run corpus` writes) beside the paper's cell for the
 * model it stands in for. Published counts are read from the data file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadResponses, scoreKstResponses, table4 } from '../../../lib/analysis';
import { loadDomainDir } from '../../../lib/kst';
import { paperModelStoodInFor } from '../../../lib/simulation/paper-models';

const ROOT = join(__dirname, '..', '..', '..');

test('shipped corpus: every Table 4 cell within 8 points of the paper (100 responses each), 2.5 points on average', () => {
  const domains = loadDomainDir(join(ROOT, 'data', 'raw', 'domains'));
  const rows = table4(scoreKstResponses(loadResponses(join(ROOT, 'data', 'raw', 'kst', 'extracted.jsonl'), domains)).scored);
  const published = JSON.parse(readFileSync(join(ROOT, 'data', 'published', 'kst-benchmark-2026.json'), 'utf8')) as {
    table4: { rows: Array<Record<string, [number, number]> & { model: string }> };
  };
  assert.equal(rows.length, 24, 'six models × four conditions');
  const deviations: number[] = [];
  const misses: string[] = [];
  for (const r of rows) {
    assert.equal(r.n, 100, `${r.model} ${r.condition}: 100 responses`);
    const paperModel = paperModelStoodInFor(r.model)?.paperModel;
    const paperRow = published.table4.rows.find((p) => p.model === paperModel);
    assert.ok(paperRow, `${r.model} stands for no model of Table 4`);
    const paperCorrect = paperRow[r.condition]![0];
    const deviation = Math.abs(r.exact * 100 - paperCorrect);
    deviations.push(deviation);
    // 8 points is about 1.6 binomial standard deviations of a 100-response cell at 60 % accuracy.
    if (deviation > 8 + 1e-9) misses.push(`${r.model} ${r.condition}: ${r.exact * 100} vs paper ${paperCorrect}`);
  }
  assert.deepEqual(misses, []);
  const meanDeviation = deviations.reduce((a, b) => a + b, 0) / deviations.length;
  assert.ok(meanDeviation <= 2.5, `mean absolute deviation ${meanDeviation} points`);
});
