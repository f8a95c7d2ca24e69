/**
 * lib/study/repeats.ts with the study steps: design.repeats = 2 collects two folders with recorded
 * seeds (repeat 1 equals the one-repeat collection byte for byte, repeat 2 is another draw of the
 * simulated respondent), each resumes on its own, the analysis pools them at the state level, and
 * `study check` and `study plan` count the same cells. One repeat keeps today's layout.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeStudy } from '../../lib/study/analyze';
import { checkStudy, sumDryRuns } from '../../lib/study/check';
import { collectStudy } from '../../lib/study/collect';
import type { Study } from '../../lib/study/manifest';
import { planStudy } from '../../lib/study/plan-study';
import { readStudyRepeats, repeatsFilePath, studyRepeats } from '../../lib/study/repeats';
import { InputError } from '../../lib/errors';
import { fractionsStudy } from './helpers';

function makeStudy(repeats: number): Study {
  return fractionsStudy('kstbench-study-repeats-', { models: ['simulated:sim-a', 'simulated:sim-c'], design: { conditions: ['P0', 'P1'], orders: 2, repeats }, analysis: { resamples: 200, flips: 400 } });
}

const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
const answers = (file: string) => lines(file).map((l) => `${l["run_id"]}=${JSON.stringify(l["recommended"])}`).sort();

test('repeats: the plan of each repeat (folder, collector seed, simulated seed suffix); one repeat is the collection folder itself', () => {
  assert.deepEqual(studyRepeats(makeStudy(1)), [{ repeat: 1, dir: '.', collector_seed: '20260908', simulated_seed_suffix: '' }]);
  assert.deepEqual(studyRepeats(makeStudy(3)).map((r) => [r.dir, r.collector_seed, r.simulated_seed_suffix]), [
    ['repeat-1', '20260908', ''],
    ['repeat-2', '20260908:repeat-2', '~repeat-2'],
    ['repeat-3', '20260908:repeat-3', '~repeat-3'],
  ]);
});

test('repeats 2: two collections, resumable each; pooled analysis; check, plan and the collection agree on the cells', async () => {
  const one = makeStudy(1);
  const two = makeStudy(2);
  const r1 = await collectStudy(one);
  const r2 = await collectStudy(two);
  assert.ok(r1.kind === 'collected' && r2.kind === 'collected');
  // One repeat: today's layout, no repeats.json.
  assert.ok(existsSync(join(one.paths.collection, 'extracted.jsonl')));
  assert.ok(!existsSync(repeatsFilePath(one)));
  assert.deepEqual(r1.repeats.map((r) => r.dir), [one.paths.collection]);
  // Two repeats: two folders with their seeds recorded.
  const cells = 9 * 2 * 2 * 2; // states × conditions × orders × models
  assert.deepEqual(r2.repeats.map((r) => [r.dir, r.outcome.status, r.outcome.total]), [
    [join(two.paths.collection, 'repeat-1'), 'complete', cells],
    [join(two.paths.collection, 'repeat-2'), 'complete', cells],
  ]);
  assert.deepEqual(readStudyRepeats(two), studyRepeats(two));
  assert.equal(JSON.parse(readFileSync(join(two.paths.collection, 'repeat-2', 'run.json'), 'utf8')).params.seed, '20260908:repeat-2');
  // Repeat 1 is the one-repeat collection, byte for byte; repeat 2 is another draw of the simulated respondent.
  const base = readFileSync(join(one.paths.collection, 'extracted.jsonl'), 'utf8');
  assert.equal(readFileSync(join(two.paths.collection, 'repeat-1', 'extracted.jsonl'), 'utf8'), base);
  const a = answers(join(two.paths.collection, 'repeat-1', 'extracted.jsonl'));
  const b = answers(join(two.paths.collection, 'repeat-2', 'extracted.jsonl'));
  assert.equal(a.length, b.length);
  assert.ok(a.filter((x, i) => x !== b[i]).length > 0, 'repeat 2 gives some other answers than repeat 1');
  // The records still name the model as the manifest does (the seed suffix is not a model name).
  assert.deepEqual([...new Set(lines(join(two.paths.collection, 'repeat-2', 'extracted.jsonl')).map((l) => l['model']))].sort(), ['simulated:sim-a', 'simulated:sim-c']);
  // A re-run resumes every repeat and requests nothing.
  const again = await collectStudy(two);
  assert.ok(again.kind === 'collected');
  assert.deepEqual(again.repeats.map((r) => r.outcome.resumed), [cells, cells]);

  // Pooled analysis: twice the responses, the same states, order pairs within each repeat only.
  const A = analyzeStudy(one);
  const B = analyzeStudy(two);
  assert.equal(B.counts.responses, 2 * A.counts.responses);
  assert.deepEqual(B.table3.map((r) => r.n), A.table3.map((r) => 2 * r.n));
  assert.deepEqual(B.contrasts.map((c) => c.states), A.contrasts.map((c) => c.states));
  assert.ok(B.order_agreement.pairs > A.order_agreement.pairs && B.order_agreement.pairs <= 2 * A.order_agreement.pairs);
  assert.equal(A.repeats, undefined);
  assert.deepEqual(B.repeats!.map((r) => [r.dir, r.responses.file]), [
    ['repeat-1', join(two.paths.collection, 'repeat-1', 'extracted.jsonl')],
    ['repeat-2', join(two.paths.collection, 'repeat-2', 'extracted.jsonl')],
  ]);
  // Each state's score is the mean over its repeats: the P1-P0 estimate is the mean of the two repeats' state differences.
  const p1p0 = (r: typeof A) => r.contrasts.find((c) => c.contrast === 'P1-P0' && c.metric === 'exact')!.estimate!;
  assert.ok(Math.abs(p1p0(B) - p1p0(A)) < 0.5);

  // study check: cells and the dry run's calls are the design's cells × repeats.
  const c1 = checkStudy(makeStudy(1));
  const c2 = checkStudy(makeStudy(2));
  assert.equal(c2.cellsPerModel, 2 * c1.cellsPerModel);
  assert.equal(c2.cost!.calls, 2 * c1.cost!.calls);
  assert.equal(c2.cost!.calls, c2.cells);
  assert.equal(checkStudy(two).cost!.alreadyComplete, c2.cells, 'both repeats of the collected study count as collected');
  // study plan: the study's own design (its states and repeats) is a row with the same cells.
  const plan = await planStudy(two, { effect: 0.1, rates: { P0: 0.5, P1: 0.5 }, stateCounts: [9], repeats: [1], studies: 20, flips: 50, alpha: 0.05, stateSd: 0.5, seed: 's', target: 0.8, figure: false });
  assert.equal(plan.rows.find((r) => r.states === 9 && r.repeats === 2)!.cells, c2.cells);
});

test('analyze refuses a collection whose repeats.json disagrees with the manifest, naming the file', async () => {
  const s = makeStudy(2);
  await collectStudy(s);
  const file = repeatsFilePath(s);
  const stored = JSON.parse(readFileSync(file, 'utf8'));
  stored.repeats[1].collector_seed = 'other';
  writeFileSync(file, JSON.stringify(stored, null, 2));
  assert.throws(() => analyzeStudy(s), /repeats\.json: repeats: the collection holds 2 repeat\(s\) with other seeds/);
});

test('sumDryRuns adds calls, tokens and costs; an unknown cost stays unknown', () => {
  const report = (calls: number, cost: number | null) => ({ batch: false, total: calls, alreadyComplete: 0, alreadyMissing: 0, calls, inputTokens: 10 * calls, outputTokensAssumed: calls, costUsd: cost, costUpperBoundUsd: cost, warnings: [], models: [{ model: 'm', calls, inputTokens: 10 * calls, outputTokensAssumed: calls, costUsd: cost, costUpperBoundUsd: cost, simulated: false }] });
  const sum = sumDryRuns([report(3, 1), report(4, 2)]);
  assert.deepEqual([sum.calls, sum.inputTokens, sum.costUsd, sum.models[0]!.calls, sum.models[0]!.costUsd], [7, 70, 3, 7, 3]);
  assert.equal(sumDryRuns([report(3, 1), report(4, null)]).costUsd, null);
  const single = report(2, 5);
  assert.equal(sumDryRuns([single]), single);
});

test('repeats.json that is a directory: EISDIR naming it, not "(unknown path)"', () => {
  const two = makeStudy(2);
  mkdirSync(repeatsFilePath(two), { recursive: true });
  assert.throws(
    () => readStudyRepeats(two),
    (e: unknown) => e instanceof InputError && e.message === `${repeatsFilePath(two)}: cannot read the collected repeats (EISDIR)`,
  );
});
