/**
 * lib/study/paper.ts and the report's "Beside the paper" section: a study that declares it replicates
 * [KST-2026] / [PSI-2026] gets the paper's numbers beside the computed ones by the one rule (KST
 * claims on its pooled responses; PSI Table VI from its ratings file); a study that replicates nothing
 * gets no paper number, column or claim, also with a ratings file (whose rates it does show).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeStudy } from '../../lib/study/analyze';
import { collectStudy } from '../../lib/study/collect';
import { studyFigureSpecs } from '../../lib/study/figures';
import { loadStudy } from '../../lib/study/manifest';
import { reportHtml } from '../../lib/study/report';
import { fractionsStudy, writeCurriculum } from './helpers';

const fixtures = join(__dirname, '..', 'fixtures', 'psi');

async function analysed(extra: Record<string, unknown>) {
  const study = fractionsStudy('kstbench-study-paper-', {
    models: ['simulated:sim-a'],
    design: { conditions: ['P0', 'P1'], orders: 2 },
    analysis: { resamples: 200, flips: 400 },
    psi: { scenarios: join(fixtures, 'scenarios.json'), ratings: join(fixtures, 'ratings-table6.json') },
    ...extra,
  });
  await collectStudy(study);
  const results = analyzeStudy(study);
  const svgs = new Map(studyFigureSpecs(results).map((f) => [f.name, '<svg/>']));
  return { study, results, html: reportHtml(study, results, svgs) };
}

test('a replication gets the papers\' claims beside the computed values; Table VI comes from the ratings file by the rule', async () => {
  const { results, html } = await analysed({ replicates: ['KST-2026', 'PSI-2026'] });
  const [kst, psi] = results.paper_claims!;
  assert.equal(kst!.paper, 'KST-2026');
  assert.ok(kst!.rows.length > 100, 'every KST claim is listed');
  // Simulated responses: judged against the simulator's spread, with the interval shown.
  assert.ok(kst!.rows.filter((r) => r.status !== 'not rebuildable' && r.basis !== 'by-construction').every((r) => /simulation-spread$/.test(r.status) && r.simulation !== ''));
  assert.deepEqual(psi!.rows.map((r) => [r.id, r.paper, r.computed.split(' ')[0], r.status]), [
    ['psi.table6.weaknesses-resolved', '82.3', '80.00', 'differs'],
    ['psi.table6.meaningful-improvement', '74.2', '70.00', 'differs'],
    ['psi.table6.meaningful-below-resolved', 'yes', 'yes', 'match'],
  ]);
  assert.match(html, /<section id="paper">/);
  assert.match(html, /Claims of \[KST-2026\]/);
  assert.match(html, /psi\.table6\.weaknesses-resolved/);
  assert.match(html, /<section id="ratings">/);
});

test('a study that replicates no paper shows no paper number, column or claim (its ratings rates only)', async () => {
  const { results, html } = await analysed({});
  assert.equal(results.paper_claims, undefined);
  assert.deepEqual([results.ratings!.ratings, results.ratings!.weaknesses_resolved, results.ratings!.meaningful_improvement], [10, 80, 70]);
  assert.doesNotMatch(html, /section id="paper"|Beside the paper|Claims of|kst\.table3|psi\.table6|differs|\(paper\)|\[KST-2026\]/);
  assert.match(html, /<section id="ratings">/);
});

test('a wrong ratings file stops study check (so nothing is collected) with one line naming the file, line and field', async () => {
  const { mkdtempSync, readFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { checkStudy } = await import('../../lib/study/check');
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-study-paper-bad-'));
  writeCurriculum(join(dir, 'fractions.json'));
  const bad = readFileSync(join(fixtures, 'ratings-table6.json'), 'utf8').replace('"run_id": "c03", "meaningful_improvement": true', '"run_id": "c03", "meaningful_improvement": "yes"');
  writeFileSync(join(dir, 'ratings.json'), bad);
  writeFileSync(join(dir, 'study.json'), JSON.stringify({ manifest_version: 1, title: 'T', domains: ['fractions.json'], models: ['simulated:sim-a'], psi: { scenarios: join(fixtures, 'scenarios.json'), ratings: 'ratings.json' } }));
  assert.throws(() => checkStudy(loadStudy(dir)), (e: unknown) => e instanceof Error && /ratings\.json:8: ratings\[2\]\.meaningful_improvement: /.test(e.message) && !e.message.includes('\n'));
});
