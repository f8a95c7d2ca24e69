/**
 * The calibration report script (lib/simulation/psi-tutor/calibrate.ts), run as the README says. Its
 * seed-1 column must be the shipped corpus's numbers, recomputed here straight from data/raw/psi
 * (recorded scores and round-2 parents) and data/published/psi-2026.json, not from lib/psi.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paperModelStoodInFor } from '../../../lib/simulation/paper-models';
import { mean } from './helpers';
import { RUN_TYPESCRIPT } from '../../support/typescript';

const ROOT = join(__dirname, '..', '..', '..');
const SCRIPT = join(ROOT, 'lib', 'simulation', 'psi-tutor', 'calibrate.ts');
const run = (args: string[]) => spawnSync(process.execPath, [...RUN_TYPESCRIPT, SCRIPT, ...args], { cwd: ROOT, encoding: 'utf8' });
const jsonl = (file: string) =>
  readFileSync(join(ROOT, 'data', 'raw', 'psi', file), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as {
    model: string; variant: string; scores: { psi: number; sd: number };
  });

test('calibrate.ts --seed 1: the achieved column is the shipped corpus, the published column the data file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'psi-calibrate-'));
  try {
    const out = join(dir, 'cal.json');
    const r = run(['--seed', '1', '--json', out]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout.split('\n')[0]!, /^measure\s+published\s+seed 1$/);
    const report = JSON.parse(readFileSync(out, 'utf8')) as { seed: string; seeds: null; rows: Array<{ measure: string; published: number | null; achieved: number }> };
    assert.equal(report.seed, '1');
    assert.equal(report.seeds, null);
    const row = (m: string) => report.rows.find((x) => x.measure === m)!;
    const paper = JSON.parse(readFileSync(join(ROOT, 'data', 'published', 'psi-2026.json'), 'utf8'));
    // Selection: one round-2 record per selected case, counted per model from the shipped file.
    const round2 = jsonl('round2.jsonl');
    assert.equal(row('T4 selected').achieved, round2.length);
    assert.equal(row('T4 selected').published, paper.table4.selected);
    for (const model of new Set(round2.map((x) => x.model))) {
      const name = paperModelStoodInFor(model)!.paperModel;
      assert.equal(row(`T4 selected ${name}`).achieved, round2.filter((x) => x.model === model).length, name);
      assert.equal(row(`T4 selected ${name}`).published, paper.table4.selected_per_model[name]);
    }
    // Table I: mean recorded PSI of each tutor's standard round-1 responses.
    const round1 = jsonl('round1.jsonl');
    for (const spec of ['simulated:sim-tutor-a', 'simulated:sim-tutor-b', 'simulated:sim-tutor-c', 'simulated:sim-tutor-d']) {
      const name = paperModelStoodInFor(spec)!.paperModel;
      const own = round1.filter((x) => x.model === spec && x.variant === 'standard');
      assert.equal(own.length, 30, `${spec}: one standard response per scenario`);
      const achieved = row(`T1 PSI standard ${name}`).achieved;
      assert.ok(Math.abs(achieved - mean(own.map((x) => x.scores.psi))) < 1e-9, `${name}: ${achieved}`);
      assert.equal(row(`T1 PSI standard ${name}`).published, paper.table1.psi[name]);
    }
    // The rate is the count over the selection.
    assert.ok(Math.abs(row('T4 improved %').achieved - (100 * row('T4 improved').achieved) / round2.length) < 1e-9);
    assert.equal(row('T1 EF').published, paper.table1.ef_all_models);
    // a measure the paper does not print has published null (ΔCL of Table III)
    assert.equal(row('T3 defective ΔCL').published, paper.table2_3.delta.cl ?? null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('calibrate.ts refuses a --threshold that is not a number', () => {
  const r = run(['--threshold', 'abc']);
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /--threshold must be a number, got abc/);
});
