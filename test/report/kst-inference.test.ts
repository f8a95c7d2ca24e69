/** lib/report/kst-inference.ts: state-level differences, the bootstrap distribution behind an interval, the seeds, the contrast display table. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadDomainDir } from '../../lib/kst';
import { contrasts, loadResponses, scoreKstResponses } from '../../lib/analysis';
import { percentileLinear } from '../../lib/stats';
import { bootstrapDistribution, bootstrapHistogramSpec, contrastDifferences, contrastRow, contrastTable, inferenceSeeds } from '../../lib/report/kst-inference';
import { InputError } from '../../lib/errors';
import { contrastRowWith as row } from './contrast-fixtures';

const ROOT = join(__dirname, '..', '..');
const published = JSON.parse(readFileSync(join(ROOT, 'data', 'published', 'kst-benchmark-2026.json'), 'utf8'));
const fixture = join(ROOT, 'test', 'fixtures', 'analyze');
const records = loadResponses(join(fixture, 'responses.jsonl'), loadDomainDir(join(fixture, 'domains')));
const { scored } = scoreKstResponses(records);

test('contrastDifferences reproduces the fixture\'s hand-worked state-level differences', () => {
  const { states, differences } = contrastDifferences(scored, 'P1-P0', 'exact');
  const expected: Record<string, number> = {
    'tiny:{}': 0.5,
    'tiny:{A}': 0.25,
    'tiny:{C}': -0.25,
    'tiny:{A,B}': 0,
    'tiny:{A,C}': 0.25,
    'tiny:{A,B,C}': 0.25,
    'pair:{}': 0.25,
    'pair:{X}': 0,
    'pair:{X,Y}': 0,
  };
  assert.deepEqual(Object.fromEntries(states.map((s, i) => [s, differences[i]])), expected);
  assert.deepEqual(contrastDifferences(scored, 'P2-P1', 'exact'), { states: [], differences: [] });
  assert.throws(() => contrastDifferences(scored, 'P3-P0', 'exact'), RangeError);
});

test('bootstrapDistribution re-draws the analysis\'s resamples: its percentiles are the reported interval', () => {
  const options = { resamples: 2000, flips: 1000, seed: '7' };
  const rows = contrasts(scored, options);
  const exact = rows.find((r) => r.contrast === 'P1-P0' && r.metric === 'exact')!;
  const means = bootstrapDistribution(scored, exact, options.resamples);
  assert.equal(means.length, 2000);
  const sorted = Float64Array.from(means).sort();
  assert.equal(percentileLinear(sorted, 0.025), exact.ci_low);
  assert.equal(percentileLinear(sorted, 0.975), exact.ci_high);
  const seeds = inferenceSeeds(rows, options);
  assert.equal(seeds[0]!['bootstrap seed'], '7:P1-P0:exact:bootstrap');
  assert.equal(seeds[0]!['sign-flip seed'], '7:P1-P0:exact:signflip');
  const spec = bootstrapHistogramSpec(means, exact, { published: { estimate: 1.5, ci_low: -3.2, ci_high: 6.3 } });
  assert.equal((spec.data[0]!['x'] as number[]).length, 2000);
  assert.equal((spec.layout!['shapes'] as unknown[]).length, 6);
  assert.match((spec.layout!['title'] as { text: string }).text, /^Bootstrap distribution of P1-P0 \(exact-set accuracy\), 2,000 resamples$/);
  // Estimate line at the estimate in percentage points.
  assert.equal((spec.layout!['shapes'] as Array<{ x0: number }>)[0]!.x0, exact.estimate! * 100);
});

test('contrast display table prints p values as the paper does', () => {
  const [r] = contrastTable([row({ contrast: 'P2-P1', p: 0.00001, p_holm: 0.00003 })], published);
  assert.deepEqual([r!.p, r!.p_holm, r!['p_holm (paper)'], r!.estimate], ['< .0001', '< .0001', '< .0001', 1.5]);
  const [e] = contrastTable([row({})], published);
  assert.equal(e!['p_holm (paper)'], '.6022');
  const [f] = contrastTable([row({ metric: 'f1', p: 0.60221, p_holm: null })], published);
  assert.deepEqual([f!.p, f!.p_holm, f!['p_holm (paper)']], ['.6022', null, null]);
});

test('contrastRow finds a contrast and metric, and refuses an unknown one in one line naming what there is', () => {
  const rows = [row({}), row({ metric: 'f1' }), row({ contrast: 'P2-P1' })];
  assert.equal(contrastRow(rows, 'P1-P0', 'f1'), rows[1]);
  assert.throws(
    () => contrastRow(rows, 'P2-P0', 'exact'),
    (e: unknown) => e instanceof InputError && e.message === 'no contrast P2-P0 / exact: the contrasts are P1-P0, P2-P1, the metrics exact, f1',
  );
  assert.throws(() => contrastRow(rows, 'P2-P1', 'F1'), /no contrast P2-P1 \/ F1/);
});
