// The PSI notebooks 10-13 on a study of the test's own with a PSI part of its own (own-study-helpers.ts: eight
// scenarios, two simulated tutors, both rounds) that replicates no paper: its scenarios and records are
// scored, no paper column, marker, quota or claim appears, no table is empty, and the report is rebuilt.
// Notebook 06 rides in the same reproduce run (one tslab session): its contrasts use the study's analysis
// settings (OWN_ANALYSIS), not the paper's 20260908 / 10,000 / 100,000.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { addPsiPart, assertReportRebuilds, fractionsStudy, OWN_ANALYSIS, outputsText, runOn, tablesOf } from './own-study-helpers';

test('notebook 06 with the study\'s analysis settings; notebooks 10-13 on a PSI part of its own: its scenarios and tutors, no paper, nothing empty, the report', { timeout: 900_000 }, () => {
  const study = fractionsStudy();
  addPsiPart(study);
  const { out, project, result, read } = runOn(study, ['06', '10', '11', '12', '13']);
  assert.equal(result.status, 0, result.stderr);
  const { seed, resamples, flips } = OWN_ANALYSIS;
  assert.match(outputsText(read('06-inference.ipynb')), new RegExp(`inference: seed ${seed}, ${resamples} bootstrap resamples, ${flips} sign flips`));
  const seeds = tablesOf(out, '06-inference-seeds').flatMap((t) => t.lines.slice(1));
  assert.equal(seeds.length, 6, 'one seed row per contrast and metric');
  for (const row of seeds) assert.match(row, new RegExp(`,${seed}:P\\d-P\\d:(exact|f1):bootstrap,${resamples},${seed}:P\\d-P\\d:(exact|f1):signflip,${flips},`), row);
  const nbs = ['10-psi-scoring.ipynb', '11-psi-round1.ipynb', '12-psi-regeneration.ipynb', '13-psi-sensitivity-and-ratings.ipynb'].map((f) => ({ f, text: outputsText(read(f)) }));
  for (const { f, text } of nbs) {
    assert.match(text, /It does not declare that it replicates \[PSI-2026\]/, f);
    assert.doesNotMatch(text, /stands (in )?for (\(paper model\)|ChatGPT|Qwen|Gemma|Gemini)|ChatGPT|Qwen 3|Gemma 4|Gemini|\(paper[ ,:)]|Ranking \(paper\)|\b62 lowest|paper δ_opt/, `${f}: nothing of the paper in the outputs`);
  }
  assert.match(outputsText(read('10-psi-scoring.ipynb')), /Why psi-r1-S01-standard-simulated_sim-tutor-a scored PSI/, 'no S13 in this course: its first scenario');
  for (const f of ['11-psi-round1.ipynb', '12-psi-regeneration.ipynb']) assert.match(outputsText(read(f)), /No claims ledger: the study does not declare that it replicates \[PSI-2026\]/);
  const tables = tablesOf(out, 'psi-');
  assert.ok(tables.length >= 20, `the PSI tables are written (${tables.length})`);
  for (const t of tables) {
    assert.doesNotMatch(t.lines[0]!, /paper/, `${t.name}: no paper column`);
    assert.ok(t.lines.length >= 2, `${t.name}: not empty`);
  }
  assert.ok(!tables.some((t) => /claims|lowest-62/.test(t.name)), 'no claims table and no paper quota');
  for (const fig of ['psi-fig-1-bloom', 'psi-fig-regeneration', 'psi-fig-13-delta-sensitivity']) {
    const svg = join(out, 'figures', `${fig}.svg`);
    assert.ok(existsSync(svg), fig);
    assert.doesNotMatch(readFileSync(svg, 'utf8'), /paper/i, `${fig}: no paper marker`);
  }
  assertReportRebuilds(out, project, '11-psi-round1.html');
});
