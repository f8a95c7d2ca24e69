// The notebooks on studies of the test's own (own-study-helpers.ts), which replicate no paper, and a
// student's run, in one project copy and one process: four reproduce runs one after another in one tslab
// session (test/notebook/run-jobs.ts), each checked by its own tests.
// - Notebooks 00-05 on a fractions study with no PSI part:
//   00: no audit of the paper, no claims ledger, no fit tables, its own inputs named;
//   01-03: the study's own domain and states shown, no reproduction alarm in 02, no claims ledger;
//   04-05: no paper column, marker or claim, models named by their profiles, Figure 3 on the rule's cell
//   and not empty; every file and the report in --output-dir, rebuilt by `npm run report -- --from`.
// - Notebook 10 on that study stops with one line saying that the study has no PSI part.
// - Issue 19: a notebook a student runs (the project kernel sets KSTBENCH_INTERACTIVE=1) leaves the
//   project's data/ and figures/ as they were: notebooks 02 and 03 on the shipped study, which write a
//   collection and the analysis files besides figures and tables, write them below
//   tmp/notebook-outputs/ (lib/figures/output-root.ts outputPath). Run without --output-dir (which would
//   move files back and hide a write in place); every file's size and mtime are compared just before
//   and after it, so rewriting a file with the same bytes also counts.
// - Notebook 06 and the PSI notebooks 10-13 on a second fractions study with a PSI part of its own (eight
//   scenarios, two simulated tutors, both rounds): 06's contrasts use the study's analysis settings
//   (OWN_ANALYSIS), not the paper's 20260908 / 10,000 / 100,000; its scenarios and records are scored, no
//   paper column, marker, quota or claim appears, no table is empty, and the report is rebuilt.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { addPsiPart, assertReportRebuilds, OWN_PSI_COURSE, fractionsStudy, ownStudyJob, OWN_ANALYSIS, outputsText, projectCopy, runJobsIn, tablesOf, type OwnStudyRun, type ReproduceResult } from './own-study-helpers';
import { interactiveLinks } from '../support/notebook-links';

let project: string;
let kst: OwnStudyRun;
let psi: OwnStudyRun;
let noPsiPart: OwnStudyRun;
let student: { result: ReproduceResult; before: string[]; after: string[] };
before(() => {
  const kstOnly = fractionsStudy();
  const withPsi = fractionsStudy();
  addPsiPart(withPsi);
  project = projectCopy();
  const runs = { kst: ownStudyJob(['00', '01', '02', '03', '04', '05'], kstOnly), psi: ownStudyJob(['06', '10', '11', '12', '13'], withPsi), noPsiPart: ownStudyJob(['10'], kstOnly) };
  const listing = { listing: ['data', 'figures', 'tmp/notebook-outputs'] };
  const studentRun = { reproduce: ['02', '03'], env: { KSTBENCH_INTERACTIVE: '1', KSTBENCH_SAVE_OUTPUTS: '' } };
  // Notebook 10's refusal last: no run follows the one that stops at a failing cell in the session.
  const results = runJobsIn(project, [runs.kst.job, runs.psi.job, listing, studentRun, listing, runs.noPsiPart.job]);
  [kst, psi, noPsiPart] = [runs.kst.run(results[0]), runs.psi.run(results[1]), runs.noPsiPart.run(results[5])];
  student = { before: results[2] as string[], result: results[3] as ReproduceResult, after: results[4] as string[] };
}, { timeout: 900_000 });

test('notebook 00 on a study of its own: no paper audit, ledger or fit, its inputs named; notebook 10 says there is no PSI part', () => {
  const { out, read } = kst;
  assert.equal(kst.status, 0, kst.stderr);
  const nb = outputsText(read('00-paper-audit.ipynb'));
  assert.match(nb, /No audit of the \[KST-2026\] paper's printed numbers: the study does not declare/);
  assert.match(nb, /No claims ledger: the study does not declare that it replicates \[KST-2026\]/);
  assert.match(nb, /No claims ledger: the study does not declare that it replicates \[PSI-2026\]/);
  assert.match(nb, /Inputs: KST responses [^ ]*collection\/extracted\.jsonl \(\d+ of \d+ simulated\); no PSI part in the study/);
  assert.doesNotMatch(nb, /INCONSISTENT|checks, \d+ consistent|differs/);
  assert.deepEqual(tablesOf(out, '00-'), [], 'no table of the paper (audit, coverage, fit, ledger) is written');
  assert.notEqual(noPsiPart.status, 0, 'notebook 10 has nothing to score');
  // reproduce's first line names the notebook, the cell and the InputError (its traceback follows as a diagnostic).
  assert.match(noPsiPart.stderr.split('\n')[0]!, /^FAILED notebooks\/10-psi-scoring\.ipynb: cell \d+ \(id study\) failed: InputError: .*study\.json: the study has no PSI part \(manifest "psi": scenarios, taxonomy, models\), so notebook 10 has nothing to score/);
});

test('notebooks 01-03 on a study of its own: its domain and states, no false alarm, no paper, every file', () => {
  const { out, read } = kst;
  assert.equal(kst.status, 0, kst.stderr);
  assert.match(read('01-kst-foundations.ipynb'), /Fractions: 6 components/);
  assert.ok(existsSync(join(out, 'figures', '01-hasse-fractions.svg')) && existsSync(join(out, 'figures', '01-space-fractions.svg')));
  assert.doesNotMatch(read('data/processed/tables/01-table-1-domains.csv').split('\n')[0]!, /paper/);
  assert.match(read('02-collect.ipynb'), /state \{FR1,FR2\} = positions/);
  assert.doesNotMatch(read('02-collect.ipynb'), /DIFFERENT|did not reproduce/);
  assert.match(read('02-collect.ipynb'), /This study is not the shipped replication/);
  assert.doesNotMatch(read('data/processed/tables/03-validity.csv').split('\n')[0]!, /paper/);
  for (const f of ['01-kst-foundations.ipynb', '03-score.ipynb']) assert.match(read(f), /No claims ledger: the study does not declare/);
  // Notebook 03 analyses with the study's analysis settings, and `kstbench analyze` with the same ones agrees.
  const { seed, resamples, flips } = JSON.parse(read('data/processed/kst/analysis.json')).inference;
  assert.deepEqual({ seed, resamples, flips }, OWN_ANALYSIS);
  assert.match(read('03-score.ipynb'), /The notebook and the CLI wrote identical files/);
  assert.ok(existsSync(join(out, 'report', '02-collect.html')), 'report/02-collect.html');
});

test('notebooks 04-05 on a study of its own: no paper column, marker or claim; a Figure 3 with bars', () => {
  const { out, read } = kst;
  assert.equal(kst.status, 0, kst.stderr);
  const tables = join(out, 'data', 'processed', 'tables');
  const csvs = readdirSync(tables).filter((f) => f.endsWith('.csv'));
  assert.ok(csvs.includes('04-table-3-conditions.csv') && csvs.includes('05-table-4-models.csv') && csvs.includes('05-model-averages.csv'));
  for (const f of csvs) assert.doesNotMatch(readFileSync(join(tables, f), 'utf8').split('\n')[0]!, /paper/, `${f} has a paper column`);
  assert.ok(!csvs.some((f) => f.includes('claims')), 'no claims table');
  for (const f of ['04-table3-figure1.ipynb', '05-table4-figures2-3.ipynb']) assert.match(read(f), /No claims ledger: the study does not declare/);
  // Figure 1 without the paper's markers (its two bar traces only); Figure 3 on the rule's cell, with bars named by profile.
  assert.equal(JSON.parse(read('figures/04-figure-1-exact-f1.json')).traces, 2);
  assert.match(read('05-table4-figures2-3.ipynb'), /Figure 3: fractions × P\d \(the widest spread between models/);
  assert.match(read('data/processed/tables/05-figure-3-counts.csv'), /^simulated:sim-a,\d+,22,/m);
  assert.match(read('data/processed/tables/05-model-domain-condition.csv'), /^fractions,sim-a,/m, 'sim-a, not "sim-a ≈ Claude Fable 5"');
  assert.ok(existsSync(join(out, 'report', '05-table4-figures2-3.html')), 'report/05-table4-figures2-3.html');
});

test('the executed notebooks of the run kept apart link to its own report: OUT/notebooks/ beside OUT/report/', () => {
  assert.equal(kst.status, 0, kst.stderr);
  const dir = join(kst.out, 'notebooks');
  const links = interactiveLinks(dir);
  assert.ok(links.length >= 4, `only ${links.length} interactive links found`);
  const dead = links.filter(({ href }) => !resolve(dir, href).startsWith(join(kst.out, 'report') + '/') || !existsSync(resolve(dir, href)));
  assert.deepEqual(dead.map(({ file, href }) => `${file}: ${href}`), []);
});

test('the report of the own-study run is what `npm run report -- --from OUT` builds', () => {
  assert.equal(kst.status, 0, kst.stderr);
  assertReportRebuilds(kst.out, project, '02-collect.html');
});

test('notebook 06 with the study\'s analysis settings; notebooks 10-13 on a PSI part of its own: its scenarios and tutors, no paper, nothing empty, the report', () => {
  const { out, read } = psi;
  assert.equal(psi.status, 0, psi.stderr);
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
  // The prompts shown (notebook 10's student context, notebook 12's regeneration prompt) name the study's own course.
  assert.ok(outputsText(read('10-psi-scoring.ipynb')).includes(`Course: ${OWN_PSI_COURSE.name}, week 1 of ${OWN_PSI_COURSE.weeks}.`), 'notebook 10: the course of scenarios.json');
  assert.ok(outputsText(read('12-psi-regeneration.ipynb')).includes(`You are a patient tutor for ${OWN_PSI_COURSE.tutor_for}.`), 'notebook 12: the course of scenarios.json');
  for (const { f, text } of nbs) assert.doesNotMatch(text, /introductory Python/, `${f}: not the shipped course's name`);
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

test('a student-style run of notebooks 02 and 03 writes below tmp/notebook-outputs/, never data/ or figures/ in place', () => {
  assert.equal(student.result.status, 0, student.result.stderr);
  const inPlace = (listing: string[]) => listing.filter((f) => !f.startsWith('tmp/'));
  assert.ok(student.before.some((f) => f.startsWith('data/raw/')), 'the listing sees the project\'s files');
  assert.deepEqual(inPlace(student.after), inPlace(student.before), 'a file of data/ or figures/ was written');
  for (const f of ['data/processed/kst/collection/responses.jsonl', 'data/processed/kst/analysis.json', 'data/processed/kst/scored_responses.jsonl', 'data/processed/tables/03-validity.csv']) {
    const scratch = `tmp/notebook-outputs/${f}`;
    assert.ok(!student.before.some((l) => l.startsWith(`${scratch} `)), `${scratch} was there before the run`);
    assert.ok(student.after.some((l) => l.startsWith(`${scratch} `)), `${f} in the scratch folder`);
  }
});
