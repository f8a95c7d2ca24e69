import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadStudy } from '../../lib/study/manifest';
import { formatPlan, planStudy, pilotRates } from '../../lib/study/plan-study';
import { tempDir } from '../support/files';
import { writeCurriculum } from './helpers';
import { writeFreeDomain } from '../collect/helpers';

test('planStudy: the simulated respondent gives the baseline; the plan is written with its seeds; costs from the catalogue', async () => {
  const dir = tempDir('kstbench-study-plan-');
  writeCurriculum(join(dir, 'fractions.json'));
  writeFileSync(join(dir, 'study.json'), JSON.stringify({ manifest_version: 1, title: 'T', domains: ['fractions.json'], models: ['simulated:sim-a', 'openai:gpt-5-mini'], design: { conditions: ['P0', 'P1'] } }));
  const s = loadStudy(dir);
  const rates = await pilotRates(s, ['simulated:sim-a']);
  assert.ok(rates.P0! >= 0 && rates.P0! <= 1 && rates.P1 !== undefined);
  const plan = await planStudy(s, { effect: 0.1, rates: { P0: 0.5, P1: 0.5 }, stateCounts: [20], repeats: [1], studies: 50, flips: 200, alpha: 0.05, stateSd: 0.5, seed: 's', target: 0.8, figure: false });
  assert.deepEqual(plan.rows.map((r) => r.states), [9, 20]);
  assert.ok(plan.rows.every((r) => r.costUsd !== null && r.costUsd > 0), 'gpt-5-mini is priced');
  assert.equal(plan.input.seed, 's');
  assert.ok(existsSync(join(dir, 'output', 'plan', 'plan.json')));
  assert.match(formatPlan(s, plan, false), /80 % power with 1 repeat\(s\)/);
  // The table prints by percent() (lib/stats/prints-as.ts): 0.1285·100 is 12.849… in binary, which
  // toFixed(1) printed as 12.8.
  const printed = formatPlan(s, { ...plan, rows: [{ ...plan.rows[0]!, power: 0.1285, se: 0.0285, normal: 0.5285 }] }, false);
  assert.match(printed, / 12\.9 % {2}± 2\.9 {9}52\.9 %/);
});

test('a design too big to build is refused by the plan in the study\'s words, before the pilot runs', async () => {
  const dir = tempDir();
  writeFreeDomain(dir, 'wide', 21); // 2,097,152 states, every one in the design
  writeFileSync(join(dir, 'study.json'), JSON.stringify({ manifest_version: 1, title: 'T', domains: ['wide.json'], models: ['simulated:sim-a'], design: { conditions: ['P0', 'P1'] } }));
  await assert.rejects(
    planStudy(loadStudy(dir), { effect: 0.1, stateCounts: [20], repeats: [1], studies: 50, flips: 200, alpha: 0.05, stateSd: 0.5, seed: 's', target: 0.8, figure: false }),
    /study\.json: design\.states: 2097152 states × 2 condition\(s\) × 2 order\(s\) × 1 model\(s\) = 8388608 cells, over the 2000000 a collection holds in memory; sample the states/,
  );
});
