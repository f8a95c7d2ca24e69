import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { collectStudy, prepareCollectorInputs } from '../../lib/study/collect';
import { loadStudy } from '../../lib/study/manifest';
import { tempDir } from '../support/files';
import { writeCurriculum } from './helpers';

test('the collector gets a built domain folder and the seeded state sample; a re-run resumes', async () => {
  const dir = tempDir('kstbench-study-collect-');
  writeCurriculum(join(dir, 'fractions.json'));
  writeFileSync(join(dir, 'study.json'), JSON.stringify({ manifest_version: 1, title: 'T', domains: ['fractions.json'], models: ['simulated:sim-a'], design: { states: { sample: 4, seed: 1 }, conditions: ['P0'], orders: 1 } }));
  const s = loadStudy(dir);
  const { domainsDir, statesFile } = prepareCollectorInputs(s);
  assert.ok(existsSync(join(domainsDir, 'fractions.json')));
  const sample = JSON.parse(readFileSync(statesFile!, 'utf8'));
  assert.equal(sample[0].domain, 'fractions');
  const first = await collectStudy(s);
  assert.equal(first.kind, 'collected');
  const n = sample[0].states.length;
  if (first.kind === 'collected') assert.equal(first.outcome.total, n);
  const again = await collectStudy(s);
  if (again.kind === 'collected') assert.equal(again.outcome.resumed, n);
});
