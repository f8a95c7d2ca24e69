import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cellsPerModel, collectParams, sampledStates, statesPerDomain } from '../../lib/study/design';
import { loadStudy, loadStudyDomains } from '../../lib/study/manifest';
import { tempDir } from '../support/files';
import { writeCurriculum } from './helpers';

function study(design: Record<string, unknown>) {
  const dir = tempDir('kstbench-study-design-');
  writeCurriculum(join(dir, 'fractions.json'));
  writeFileSync(join(dir, 'study.json'), JSON.stringify({ manifest_version: 1, title: 'T', domains: ['fractions.json'], models: ['simulated:sim-a'], design }));
  return loadStudy(dir);
}

test('a sampled design is seeded (same states twice, others for another seed) and counted', () => {
  const s = study({ states: { sample: 5, seed: 3 } });
  const domains = loadStudyDomains(s);
  const a = sampledStates(s, domains)!;
  assert.deepEqual(sampledStates(s, domains), a);
  assert.equal(a[0]!.seed, '3:fractions');
  const n = statesPerDomain(domains, a).get('fractions')!;
  assert.ok(n >= 1 && n <= 5);
  assert.equal(cellsPerModel(s, new Map([['fractions', n]])), n * 4 * 2);
  assert.equal(statesPerDomain(domains, null).get('fractions'), 9);
});

test('collectParams carries the design; with repeats it is the same for each repeat (the study sets folder and seed per repeat)', () => {
  const p = collectParams(study({ orders: 1, conditions: ['P0'], seed: 5 }), 'd', null);
  assert.deepEqual([p.orders, p.conditions, p.seed, p.statesFile], [1, ['P0'], '5', undefined]);
  const r = collectParams(study({ orders: 1, conditions: ['P0'], seed: 5, repeats: 2 }), 'd', null);
  assert.deepEqual(r, { ...p, outDir: r.outDir });
});
