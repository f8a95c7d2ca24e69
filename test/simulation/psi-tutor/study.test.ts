import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simulatePsiStudy, simulatedModelSpec, summarisePsiStudy, type PsiStudySummary } from '../../../lib/simulation/psi-tutor/study';
import { course, mean, shippedTexts } from './helpers';

// The seeded studies and their summaries are made once for the file (no test changes them): the
// calibration checks read the same three seeds.
const studies = new Map<string, ReturnType<typeof simulatePsiStudy>>();
const studyOf = (seed: string) => studies.get(seed) ?? studies.set(seed, simulatePsiStudy(course, { seed })).get(seed)!;
const summaryBySeed = new Map<string, PsiStudySummary>();
const summaryOf = (seed: string) => summaryBySeed.get(seed) ?? summaryBySeed.set(seed, summarisePsiStudy(course, studyOf(seed))).get(seed)!;

test('simulatePsiStudy (seed 1) is the shipped corpus: same runs, same texts, same parents', () => {
  const study = studyOf('1');
  const r1 = shippedTexts('round1.jsonl');
  const r2 = shippedTexts('round2.jsonl');
  assert.deepEqual(study.round1.map((r) => [r.run_id, r.text]), r1.map((r) => [r.run_id, r.text]));
  const key = (rows: Array<{ run_id: string; text: string; parent_run_id?: string }>) =>
    rows.map((r) => [r.run_id, r.parent_run_id, r.text]).sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
  assert.deepEqual(key(study.round2), key(r2));
});

test('calibration (scored with lib/psi): the paper’s directions hold on the shipped seed and on the mean of seeds 1-3', () => {
  const summaries = ['1', '2', '3'].map(summaryOf);
  const avg = (f: (s: PsiStudySummary) => number) => mean(summaries.map(f));
  for (const [label, get] of [
    ['seed 1', (f: (s: PsiStudySummary) => number) => f(summaries[0]!)],
    ['mean of seeds 1-3', avg],
  ] as const) {
    // Table I: ChatGPT-like profile first, Gemini-like scaffolds least; markers almost never fire.
    assert.ok(get((s) => s.psi['ChatGPT']!) > get((s) => s.psi['Qwen 3']!), `${label} PSI a > d`);
    assert.ok(get((s) => s.psi['Qwen 3']!) > get((s) => Math.max(s.psi['Gemma 4']!, s.psi['Gemini']!)), `${label} PSI d > c, b`);
    assert.ok(get((s) => s.sd['ChatGPT']!) > 5 * get((s) => s.sd['Gemini']!), `${label} SD a > 5 b`);
    assert.ok(get((s) => s.clMin) >= 0.995, `${label} CL`);
    // Tables II-III: defective prompts lower KD and SD and raise TV; PSI nearly unchanged.
    assert.ok(get((s) => s.defectiveDelta.kd) < -0.02, `${label} defective KD falls`);
    assert.ok(get((s) => s.defectiveDelta.tv) > 0.02, `${label} defective TV rises`);
    assert.ok(get((s) => s.defectiveDelta.sd) < -0.02, `${label} defective SD falls`);
    assert.ok(Math.abs(get((s) => s.defectiveDelta.psi)) < 0.015, `${label} defective PSI about unchanged`);
    // Figure 1: Analyze lowest, below Remember.
    assert.ok(get((s) => s.bloom[4]!) < get((s) => Math.min(s.bloom[1]!, s.bloom[2]!, s.bloom[3]!)), `${label} Analyze lowest`);
    // Tables IV-V: about half the defective cases selected; most improve through scaffolding, at a cost in TV and RA.
    assert.ok(get((s) => s.selected) >= 50 && get((s) => s.selected) <= 70, `${label} selected`);
    assert.ok(get((s) => s.selectedPerModel['ChatGPT']!) < get((s) => s.selectedPerModel['Qwen 3']!), `${label} fewest from a`);
    assert.ok(get((s) => s.improvedRate) > 0.7, `${label} improved`);
    assert.ok(get((s) => s.regenerationDelta.sd) > 0.2, `${label} SD gain`);
    assert.ok(get((s) => s.regenerationDelta.kd) > 0.02, `${label} KD rises`);
    assert.ok(get((s) => s.regenerationDelta.tv) < 0, `${label} TV falls`);
    assert.ok(get((s) => s.regenerationDelta.ra) < -0.02, `${label} RA falls`);
  }
});

test('calibration magnitudes: seed 1 and the mean of seeds 1-3 land within stated distances of every number the paper prints', () => {
  // The published numbers are read from the data file; each tolerance is the calibration accuracy the
  // tutors reach (lib/simulation/psi-tutor/README.md, calibrate.ts), not a direction. Version 3's habits
  // are fitted on one objective over all 30 targets (fit.ts), which trades a little accuracy on some
  // targets for more on others; where its expected value (README fit table, 12 fresh seeds) or the
  // shipped draw sits further from the paper than version 2's hand tuning did, the tolerance says so.
  const p = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'data', 'published', 'psi-2026.json'), 'utf8'));
  const summaries = ['1', '2', '3'].map(summaryOf);
  const models = ['ChatGPT', 'Qwen 3', 'Gemma 4', 'Gemini'] as const;
  // [measure, published, tolerance, achieved of a summary]
  const rows: Array<[string, number, number, (s: PsiStudySummary) => number]> = [
    // ChatGPT's stand-in: expected +0.017 above the paper (z +2.3), the shipped draw +0.027.
    ...models.map((m) => [`T1 PSI ${m}`, p.table1.psi[m], m === 'ChatGPT' ? 0.03 : 0.025, (s: PsiStudySummary) => s.psi[m]!] as [string, number, number, (s: PsiStudySummary) => number]),
    // S_SD levels are matched loosely (the indicator lexicon is this project's); the ratio is checked above.
    ['T1 SD ChatGPT', p.table1.sd['ChatGPT'], 0.08, (s) => s.sd['ChatGPT']!],
    ['T1 SD Gemini', p.table1.sd['Gemini'], 0.035, (s) => s.sd['Gemini']!],
    ['T1 EF', p.table1.ef_all_models, 0.002, (s) => s.ef],
    ['F1 PSI Remember', p.figure1.cross_model_mean.remember, 0.01, (s) => s.bloom[1]!],
    ['F1 PSI Analyze', p.figure1.cross_model_mean.analyze, 0.01, (s) => s.bloom[4]!],
    ['T3 ΔPSI', p.table2_3.delta_psi, 0.006, (s) => s.defectiveDelta.psi],
    ['T3 ΔKD', p.table2_3.delta.kd, 0.006, (s) => s.defectiveDelta.kd],
    ['T3 ΔTV', p.table2_3.delta.tv, 0.012, (s) => s.defectiveDelta.tv],
    ['T3 ΔSD', p.table2_3.delta.sd, 0.02, (s) => s.defectiveDelta.sd], // expected −0.056 (sd 0.012)
    ['T4 selected', p.table4.selected, 3, (s) => s.selected],
    ...models.map((m) => [`T4 selected ${m}`, p.table4.selected_per_model[m], 5, (s: PsiStudySummary) => s.selectedPerModel[m] ?? 0] as [string, number, number, (s: PsiStudySummary) => number]),
    ['T4 improved', p.table4.improved, 4, (s) => s.improved],
    ['T4 improved %', p.table4.improved_rate, 6, (s) => 100 * s.improvedRate],
    ['T4 mean gain', p.table4.mean_gain, 0.008, (s) => s.meanGain], // expected 0.047 (sd 0.007), the shipped draw 0.042
    // Table V's S_SD levels sit higher than the paper's (0.13 → 0.43 against 0.073 → 0.345); the change is matched.
    ['T5 SD before', p.table5.sd_before, 0.07, (s) => s.sdBefore],
    ['T5 SD after', p.table5.sd_after, 0.1, (s) => s.sdAfter],
    ['T5 ΔSD', p.table5.delta.sd, 0.035, (s) => s.regenerationDelta.sd],
    ['T5 ΔKD', p.table5.delta.kd, 0.02, (s) => s.regenerationDelta.kd], // expected +0.056 (sd 0.015)
    ['T5 ΔTV', p.table5.delta.tv, 0.026, (s) => s.regenerationDelta.tv], // expected −0.023 (sd 0.024), the shipped draw −0.010
    ['T5 ΔRA', p.table5.delta.ra, 0.02, (s) => s.regenerationDelta.ra], // expected −0.029 (sd 0.036)
    ['T5 ΔEF', p.table5.delta.ef, 0.0005, (s) => s.regenerationDelta.ef],
  ];
  const misses: string[] = [];
  for (const [measure, published, tolerance, achieved] of rows) {
    assert.equal(typeof published, 'number', `${measure}: published value missing`);
    const seed1 = achieved(summaries[0]!);
    const seedsMean = mean(summaries.map(achieved));
    for (const [label, value] of [['seed 1', seed1], ['mean of seeds 1-3', seedsMean]] as const) {
      if (!(Math.abs(value - published) <= tolerance)) misses.push(`${measure} ${label}: ${value} vs paper ${published} (± ${tolerance})`);
    }
  }
  assert.deepEqual(misses, []);
  assert.ok(summaries.every((s) => s.clMin >= p.table1.cl_min - 0.001), 'T1 CL: every model mean S_CL at least the paper bound');
});

test('simulatedModelSpec names the collector spec of a tutor profile', () => {
  assert.equal(simulatedModelSpec('sim-tutor-c'), 'simulated:sim-tutor-c');
});
