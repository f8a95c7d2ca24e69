import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeStudy, figure3Cell } from '../../lib/study/analyze';
import { collectStudy } from '../../lib/study/collect';
import { studyFigureSpecs } from '../../lib/study/figures';
import { reportHtml } from '../../lib/study/report';
import { readStudyResults } from '../../lib/study/results';
import { fractionsStudy } from './helpers';
import { writeFreeDomain } from '../collect/helpers';
import { loadStudy } from '../../lib/study/manifest';
import { tempDir } from '../support/files';

const r = (model: string, domain: string, condition: 'P0' | 'P1', exact: number) => ({ model, domain, condition, scores: { exact } }) as never;

test('figure3Cell: the cell whose models differ most; ties to the first domain and condition; one model → most responses', () => {
  const scored = [r('a', 'x', 'P0', 1), r('b', 'x', 'P0', 1), r('a', 'x', 'P1', 1), r('b', 'x', 'P1', 0), r('a', 'y', 'P0', 1), r('b', 'y', 'P0', 0)];
  assert.deepEqual(figure3Cell(scored), { domain: 'x', condition: 'P1' });
  assert.deepEqual(figure3Cell([r('a', 'y', 'P0', 1), r('a', 'x', 'P1', 0), r('a', 'x', 'P1', 1)]), { domain: 'x', condition: 'P1' });
  assert.equal(figure3Cell([]), null);
});

test('analysing a collection that did not complete says so: study-results.json carries its run.json status, the report a notice', async () => {
  const study = fractionsStudy('kstbench-study-unfinished-', { models: ['simulated:sim-a'], design: { states: { sample: 4, seed: 1 }, conditions: ['P0', 'P1'], orders: 1 } });
  await collectStudy(study);
  const complete = analyzeStudy(study);
  assert.equal(complete.collection, undefined, 'a complete collection adds nothing (outputs unchanged)');
  const svgs = new Map(studyFigureSpecs(complete).map((f) => [f.name, '<svg/>']));
  assert.ok(!reportHtml(study, complete, svgs).includes('Collection not complete'));
  // A design of P0 and P1 has one adjacent contrast: no empty P2-P1 or P3-P2 rows in results, CSV or report.
  assert.deepEqual(complete.contrasts.map((c) => `${c.contrast} ${c.metric}`), ['P1-P0 exact', 'P1-P0 f1']);
  assert.deepEqual(readFileSync(join(study.paths.output, 'analysis', 'contrasts.csv'), 'utf8').split('\n').slice(1).filter(Boolean).map((l) => l.split(',')[0]), ['P1-P0', 'P1-P0']);
  assert.doesNotMatch(reportHtml(study, complete, svgs), /P2-P1|P3-P2/);
  // The same collection as an interrupted run, and as a process that died while running, left it.
  const runFile = join(study.paths.collection, 'run.json');
  const run = JSON.parse(readFileSync(runFile, 'utf8'));
  const cells = run.result.total;
  writeFileSync(runFile, JSON.stringify({ ...run, status: 'interrupted', result: { ...run.result, reason: 'interrupted by signal' } }));
  const interrupted = analyzeStudy(study);
  assert.deepEqual(interrupted.collection, { dir: study.paths.collection, status: 'interrupted', reason: 'interrupted by signal', cells });
  assert.deepEqual(readStudyResults(study).collection, interrupted.collection, 'written to study-results.json');
  const html = reportHtml(study, interrupted, svgs);
  assert.ok(html.includes(`<strong>Collection not complete.</strong> ${study.paths.collection}/run.json says <code>interrupted</code> (interrupted by signal).`), html.slice(0, 2000));
  assert.ok(html.includes(`Every number below covers only the ${interrupted.counts.responses} responses recorded of the ${cells} cells in its design`));
  const { result: _dropped, ...running } = run;
  writeFileSync(runFile, JSON.stringify({ ...running, status: 'running', finished_at: null }));
  assert.deepEqual(analyzeStudy(study).collection, { dir: study.paths.collection, status: 'running', reason: 'the collecting process ended without a status (killed or crashed)', cells: run.design.size });
});

test('a sampled domain of 64 independent tasks (2^64 states) is analysed and reported: Table 1 carries its count as digits (study-results.json refused it: internal ZodError)', async () => {
  const dir = tempDir('kstbench-study-free64-');
  writeFreeDomain(dir, 'free64', 64);
  writeFileSync(join(dir, 'study.json'), JSON.stringify({ manifest_version: 1, title: 'T', domains: ['free64.json'], models: ['simulated:sim-a'], design: { states: { sample: 3, seed: 1 }, conditions: ['P0', 'P1'], orders: 1 }, analysis: { resamples: 10, flips: 10 } }));
  const study = loadStudy(dir);
  await collectStudy(study);
  const results = analyzeStudy(study);
  assert.deepEqual(results.table1.map((row) => row.states), ['18446744073709551616']);
  assert.deepEqual(readStudyResults(study).table1[0]!.states, '18446744073709551616');
  assert.match(reportHtml(study, results, new Map(studyFigureSpecs(results).map((f) => [f.name, '<svg/>']))), /18446744073709551616/);
});
