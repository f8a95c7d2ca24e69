import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectPsi, extractAnswer, psiRunId, round1Jobs, round2Jobs, type PsiCollectParams } from '../../lib/collect/psi-study';
import { fixtureCourse, fixtureCourseAs, STATISTICS_COURSE } from '../psi/helpers';
import { EmptyDesignError } from '../../lib/collect/lifecycle';
import { loadPsiCourse, loadPsiRecords } from '../../lib/psi/schema';
import { scoreResponse } from '../../lib/psi/score';
import { buildRegenerationPrompt } from '../../lib/psi/regeneration';

const courseDir = join(__dirname, '..', '..', 'data', 'raw', 'psi');
const course = loadPsiCourse(courseDir);
const MODELS = ['simulated:sim-tutor-a', 'simulated:sim-tutor-b', 'simulated:sim-tutor-c', 'simulated:sim-tutor-d'];

function params(outDir: string, over: Partial<PsiCollectParams> = {}): PsiCollectParams {
  return { courseDir, models: MODELS, outDir, round: 1, seed: '1', concurrency: 3, maxOutputTokens: 4000, timeoutMs: 10_000, ...over };
}

function lines(file: string): string[] {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');
}

test('the shipped course\'s prompts are byte for byte those of the code before scenarios.json stated the course', () => {
  // sha256 of every request (run ID, system, user) of round 1 (240) and of the round 2 the shipped round 1
  // selects (63), as the prompts were when they were hard-coded for introductory Python (commit 800d530).
  const digest = (jobs: ReturnType<typeof round1Jobs>) =>
    createHash('sha256').update(jobs.map((j) => { const r = j.request(); return `${j.runId}\n${r.system}\n${r.user}`; }).join('\n\0\n')).digest('hex');
  const r1 = round1Jobs(course, course.scenarios, MODELS, '1');
  const r2 = round2Jobs(course, loadPsiRecords(join(courseDir, 'round1.jsonl'), course), MODELS, '1', undefined).jobs;
  assert.deepEqual([r1.length, digest(r1)], [240, '3d062f83c528eef8338ad3fcf8e3b9fb978bb196544056e3c825efc6f77d8066']);
  assert.deepEqual([r2.length, digest(r2)], [63, '633cf1f687d8969b8c5820338773074615541feff68cf896bd152d5120767daa']);
});

test('round-1 prompts name the course of scenarios.json (a statistics course of 12 weeks), or no subject when it states none', () => {
  const stats = fixtureCourseAs(STATISTICS_COURSE);
  const [job] = round1Jobs(stats, stats.scenarios, ['simulated:sim-tutor-a'], '1');
  const request = job!.request();
  assert.match(request.system, /^You are a patient tutor for a first-year statistics course\. Answer the student's question/);
  assert.equal(request.user.split('\n')[0], `Course: introductory statistics, week ${stats.scenarios[0]!.week} of 12.`);
  assert.doesNotMatch(request.system + request.user, /Python|of 15/);
  const plain = round1Jobs(fixtureCourse(), fixtureCourse().scenarios, ['simulated:sim-tutor-a'], '1')[0]!.request();
  assert.match(plain.system, /^You are a patient tutor\. Answer/);
  assert.equal(plain.user.split('\n')[0], `Course week: ${stats.scenarios[0]!.week}.`);
});

test('round 1 and round 2 on a subset: complete, valid records, byte-identical when re-run', async () => {
  const dirs = [mkdtempSync(join(tmpdir(), 'psi-a-')), mkdtempSync(join(tmpdir(), 'psi-b-'))];
  try {
    const subset = ['S03', 'S11'];
    for (const dir of dirs) {
      const r1 = await collectPsi(params(dir, { scenarios: subset }));
      assert.equal(r1.status, 'complete');
      assert.equal(r1.total, 2 * 2 * 4);
      const r2 = await collectPsi(params(dir, { scenarios: subset, round: 2, threshold: 1 }));
      assert.equal(r2.status, 'complete');
      assert.equal(r2.total, 2 * 4, 'threshold 1 selects every defective case');
    }
    for (const name of ['round1.jsonl', 'round2.jsonl']) {
      assert.equal(readFileSync(join(dirs[0]!, name), 'utf8'), readFileSync(join(dirs[1]!, name), 'utf8'), name);
    }
    const round1 = loadPsiRecords(join(dirs[0]!, 'round1.jsonl'), course);
    assert.deepEqual(round1.map((r) => r.run_id).slice(0, 4), MODELS.map((m) => psiRunId(1, 'S03', 'standard', m)));
    for (const r of round1) {
      assert.equal(r.simulated, true);
      assert.equal(r.status, 'valid');
      const s = course.scenarioById.get(r.scenario)!;
      const again = scoreResponse(r.text, s, course);
      assert.equal(r.scores!.psi, again.psi, `${r.run_id} recorded PSI equals a fresh scoring`);
    }
    const round2 = loadPsiRecords(join(dirs[0]!, 'round2.jsonl'), course);
    const parents = new Set(round1.filter((r) => r.variant === 'defective').map((r) => r.run_id));
    for (const r of round2) {
      assert.equal(r.round, 2);
      assert.ok(parents.has(r.parent_run_id!), `${r.run_id} regenerates a defective round-1 case`);
      // The recorded checklist is the one the parent's own scoring calls for: re-derive it from the
      // parent's text (fresh scoring → diagnosis → checklist) and compare item by item.
      const parent = round1.find((p) => p.run_id === r.parent_run_id)!;
      const parentScenario = course.scenarioById.get(parent.scenario)!;
      const expected = buildRegenerationPrompt(course, parentScenario, parent.variant, parent.text, scoreResponse(parent.text, parentScenario, course)).checklist;
      assert.deepEqual((r as Record<string, unknown>)['checklist'], expected, `${r.run_id} checklist`);
    }
    // Resume: the same command again requests nothing and leaves the file unchanged.
    const before = readFileSync(join(dirs[0]!, 'round1.jsonl'), 'utf8');
    const again = await collectPsi(params(dirs[0]!, { scenarios: subset }));
    assert.equal(again.resumed, again.total);
    assert.equal(readFileSync(join(dirs[0]!, 'round1.jsonl'), 'utf8'), before);
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
});

test('shipped corpus: valid records, 240 in round 1, and regenerating a subset reproduces its lines', async () => {
  const shipped1 = join(courseDir, 'round1.jsonl');
  const shipped2 = join(courseDir, 'round2.jsonl');
  const r1 = loadPsiRecords(shipped1, course);
  assert.equal(r1.length, 30 * 2 * 4);
  assert.ok(r1.every((r) => r.simulated && r.status === 'valid' && r.round === 1));
  const r2 = loadPsiRecords(shipped2, course);
  assert.ok(r2.length > 0 && r2.every((r) => r.round === 2 && r.variant === 'defective'));
  // Round 2 regenerates exactly the defective round-1 cases whose recorded PSI is below the default 0.59.
  const weak = r1.filter((r) => r.variant === 'defective' && r.scores!.psi < 0.59).map((r) => r.run_id).sort();
  assert.deepEqual(r2.map((r) => r.parent_run_id!).sort(), weak);
  // Written by the current profiles (version 2 of the habits; see lib/simulation/psi-tutor/README.md).
  for (const r of [...r1, ...r2]) assert.match(String((r as Record<string, unknown>)['model_version']), /^sim-tutor-[a-d]@3$/, r.run_id);

  const dir = mkdtempSync(join(tmpdir(), 'psi-ship-'));
  try {
    const subset = ['S01', 'S14', 'S30'];
    await collectPsi(params(dir, { scenarios: subset }));
    const wanted = (r: { scenario: string }) => subset.includes(r.scenario);
    const expected1 = lines(shipped1).filter((l) => wanted(JSON.parse(l)));
    assert.deepEqual(lines(join(dir, 'round1.jsonl')), expected1);
    await collectPsi(params(dir, { scenarios: subset, round: 2, round1File: shipped1 }));
    const expected2 = lines(shipped2).filter((l) => wanted(JSON.parse(l)));
    assert.deepEqual([...lines(join(dir, 'round2.jsonl'))].sort(), [...expected2].sort());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bad input: unknown scenario and missing round-1 file are InputErrors naming the item', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'psi-bad-'));
  try {
    await assert.rejects(collectPsi(params(dir, { scenarios: ['S99'] })), /unknown scenario "S99"/);
    await assert.rejects(collectPsi(params(dir, { round: 2 })), /round1\.jsonl: round-1 records not found/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('round 2 on your own round-1 file: no case of the models is an empty design; none selected is complete, not "deterministic" for a real model', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'psi-own-'));
  try {
    // A user's round-1 file: shipped S03 answers, re-labelled as a real model's.
    const mine = lines(join(courseDir, 'round1.jsonl'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((r) => r['scenario'] === 'S03' && r['model'] === 'simulated:sim-tutor-a')
      .map((r) => ({ ...r, run_id: `mine-${String(r['variant'])}`, model: 'openai-compatible:tutor-x', simulated: false, scores: undefined }));
    const file = join(dir, 'mine.jsonl');
    writeFileSync(file, mine.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    const real = (model: string, round1File: string, over: Partial<PsiCollectParams> = {}) =>
      params(join(dir, 'out'), { models: [model], baseUrl: 'http://127.0.0.1:9/v1', round: 2, round1File, ...over });
    // A mistyped model and an empty file: refused before anything is written (no round2.jsonl).
    await assert.rejects(collectPsi(real('openai-compatible:tutor-y', file)), (err: unknown) => {
      assert.ok(err instanceof EmptyDesignError, String(err));
      assert.match(err.message, /mine\.jsonl: no valid defective round-1 record of openai-compatible:tutor-y.*round-1 models: openai-compatible:tutor-x\)$/);
      return true;
    });
    await assert.rejects(collectPsi(real('openai-compatible:tutor-x', empty)), /empty\.jsonl: no valid defective round-1 record .*round-1 models: none\)$/);
    assert.equal(existsSync(join(dir, 'out', 'round2.jsonl')), false);
    // The model's defective case exists but is above a threshold of 0: a complete round of 0 cells,
    // which a real model's run must not call simulated/deterministic.
    const none = await collectPsi(real('openai-compatible:tutor-x', file, { threshold: 0 }));
    assert.equal(none.status, 'complete');
    assert.equal(none.total, 0);
    assert.equal(none.selection?.considered, 1);
    assert.equal(none.deterministic, false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('round 2 selecting nothing in a directory that holds another threshold\'s round 2 is refused; its round2.jsonl is kept', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'psi-zero-'));
  try {
    const subset = ['S01', 'S02', 'S03'];
    const one = { scenarios: subset, models: ['simulated:sim-tutor-a'] };
    await collectPsi(params(dir, one));
    const all = await collectPsi(params(dir, { ...one, round: 2, threshold: 1 }));
    assert.equal(all.total, 3);
    const before = readFileSync(join(dir, 'round2.jsonl'), 'utf8');
    await assert.rejects(collectPsi(params(dir, { ...one, round: 2, threshold: 0 })), /run\.json: this directory holds a run of another design \(threshold: 1 → 0; prompts: "[0-9a-f]+… → "[0-9a-f]+…\)/);
    assert.equal(readFileSync(join(dir, 'round2.jsonl'), 'utf8'), before, 'the earlier regenerations stay in round2.jsonl');
    // The same selection of nothing in a fresh directory is a complete round with an empty file.
    const fresh = join(dir, 'fresh');
    await collectPsi(params(fresh, one));
    const none = await collectPsi(params(fresh, { ...one, round: 2, threshold: 0 }));
    assert.deepEqual([none.status, none.total, readFileSync(join(fresh, 'round2.jsonl'), 'utf8')], ['complete', 0, '']);
    // ... and re-running it there is a resume, not another design.
    assert.equal((await collectPsi(params(fresh, { ...one, round: 2, threshold: 0 }))).status, 'complete');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('extractAnswer: JSON answer objects from real providers, plain text from the simulation', () => {
  assert.equal(extractAnswer('{"answer": "Use // and %."}'), 'Use // and %.');
  assert.equal(extractAnswer('Use // and %.'), 'Use // and %.');
  assert.equal(extractAnswer('{not json'), '{not json');
});

test("a resume whose prompts differ from the store's (another version's prompt builders) is refused as another design", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'psi-prompts-'));
  try {
    const one = { scenarios: ['S01'], models: ['simulated:sim-tutor-a'] };
    await collectPsi(params(dir, one));
    const runFile = join(dir, 'runs', 'round1', 'run.json');
    const run = JSON.parse(readFileSync(runFile, 'utf8'));
    const ours = run.fingerprint.prompts;
    assert.match(ours, /^[0-9a-f]{64}$/);
    // The same course files and cells, the prompts of an older builder (as the run.json it wrote).
    run.fingerprint.prompts = createHash('sha256').update('You are a patient tutor for an introductory Python course.').digest('hex');
    writeFileSync(runFile, JSON.stringify(run));
    await assert.rejects(collectPsi(params(dir, one)), /run\.json: this directory holds a run of another design \(prompts: /);
    run.fingerprint.prompts = ours;
    writeFileSync(runFile, JSON.stringify(run));
    assert.equal((await collectPsi(params(dir, one))).status, 'complete', 'with its own prompts it is a resume');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
