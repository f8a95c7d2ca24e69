/** lib/report/contrast-text.ts: p values as the paper prints them and the plain-language reading of a contrast row. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeContrast, formatP } from '../../lib/report/contrast-text';
import { contrastRowWith as row } from './contrast-fixtures';
import { contrastComparison } from '../../lib/report/kst-tables';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

test('formatP prints four decimals without the leading zero, and "< .0001" below', () => {
  assert.equal(formatP(0.60221), '= .6022');
  assert.equal(formatP(0.0505), '= .0505');
  assert.equal(formatP(0.00001), '< .0001');
  assert.equal(formatP(1), '= 1.0000');
});

test('describeContrast: a small difference whose interval includes zero', () => {
  const text = describeContrast(row({}));
  assert.match(text, /^P1 was 1\.5 percentage points higher than P0 in exact-set accuracy, averaged over 50 knowledge states\./);
  assert.match(text, /interval \[-3\.2, 6\.3\] includes zero/);
  assert.match(text, /p = \.6022 is not below \.05: no clear evidence/);
  assert.doesNotMatch(text, /different ways/);
});

test('describeContrast: a large difference, interval above zero, p below .05', () => {
  const text = describeContrast(row({ contrast: 'P2-P1', estimate: 0.335, ci_low: 0.227, ci_high: 0.447, p_holm: 0.00003 }));
  assert.match(text, /^P2 was 33\.5 percentage points higher than P1/);
  assert.match(text, /\[22\.7, 44\.7\] lies entirely above zero/);
  assert.match(text, /p < \.0001 is below \.05: evidence of a difference/);
});

test('describeContrast: interval and test pointing different ways are flagged (the paper\'s P3−P2)', () => {
  const text = describeContrast(row({ contrast: 'P3-P2', estimate: 0.018, ci_low: 0.005, ci_high: 0.032, p_holm: 0.0505 }));
  assert.match(text, /lies entirely above zero/);
  assert.match(text, /is not below \.05/);
  assert.match(text, /point different ways/);
});

test('describeContrast: negative F1 contrast is descriptive; null and zero estimates', () => {
  const f1 = describeContrast(row({ metric: 'f1', estimate: -0.012, ci_low: -0.03, ci_high: -0.001, p_holm: null }));
  assert.match(f1, /^P1 was 1\.2 percentage points lower than P0 in macro F1/);
  assert.match(f1, /lies entirely below zero/);
  assert.match(f1, /descriptive: no adjusted test/);
  assert.match(describeContrast(row({ estimate: null, ci_low: null, ci_high: null, states: 0 })), /nothing to compare/);
  assert.match(describeContrast(row({ estimate: 0, ci_low: 0, ci_high: 0, states: 1 })), /P1 and P0 had the same exact-set accuracy, averaged over 1 knowledge state\./);
  assert.match(describeContrast(row({ estimate: -0.0001 })), /less than 0\.05 percentage points .*\(P1 lower\)/);
});

test('describeContrast: the alpha option moves the line, and is printed as the paper prints it', () => {
  // p_holm = .03: below .05, not below .01.
  assert.match(describeContrast(row({ p_holm: 0.03 })), /p = \.0300 is below \.05: evidence/);
  assert.match(describeContrast(row({ p_holm: 0.03 }), { alpha: 0.01 }), /p = \.0300 is not below \.01: no clear evidence/);
  // The interval [-3.2, 6.3] includes zero while p < .05: flagged as pointing different ways.
  assert.match(describeContrast(row({ p_holm: 0.03 })), /point different ways/);
});

// −1/80 = −1.25 points and −3/80 = −3.75 points are halves: the table (contrastComparison) used to round
// them toward +∞ (−1.2, −3.7) while the sentence rounded |x| up (1.3 lower, −3.8). Worked by hand:
// half away from zero gives −1.3, [−3.8, 1.3].
test('describeContrast rounds as the contrast table does, halves of negative differences included', () => {
  const published = JSON.parse(readFileSync(join(__dirname, '..', '..', 'data', 'published', 'kst-benchmark-2026.json'), 'utf8'));
  const r = row({ contrast: 'P3-P2', estimate: -1 / 80, ci_low: -3 / 80, ci_high: 1 / 80 });
  const [table] = contrastComparison([r], published);
  assert.equal(table!.estimate, -1.3);
  assert.equal(table!['95% CI'], '[-3.8, 1.3]');
  const text = describeContrast(r);
  assert.match(text, /^P3 was 1\.3 percentage points lower than P2/);
  assert.match(text, /interval \[-3\.8, 1\.3\] includes zero/);
});
