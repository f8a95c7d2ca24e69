import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { initStudy } from '../../lib/study/init';
import { loadStudy, loadStudyDomains } from '../../lib/study/manifest';
import { tempDir } from '../support/cli';
import { writeCurriculum } from './helpers';

test('init writes a commented manifest that loads, with paths relative to the study; it never overwrites', () => {
  const dir = tempDir('kstbench-study-init-');
  writeCurriculum(join(dir, 'fractions.json'));
  const at = join(dir, 'my-study');
  initStudy(at, { domains: [join(dir, 'fractions.json')], models: ['simulated:sim-a'], sample: { size: 4, seed: '2' }, replicates: ['KST-2026'] });
  const raw = JSON.parse(readFileSync(join(at, 'study.json'), 'utf8'));
  assert.ok(Array.isArray(raw.$comment) && raw.design.$comment);
  assert.deepEqual(raw.domains, [join(dir, 'fractions.json')], 'an absolute path stays absolute (a relative one is stored relative to the study)');
  const s = loadStudy(at);
  assert.deepEqual(s.manifest.design.states, { sample: 4, seed: '2' });
  assert.deepEqual(s.manifest.replicates, ['KST-2026']);
  assert.equal(loadStudyDomains(s)[0]!.id, 'fractions');
  const before = readFileSync(join(at, 'study.json'), 'utf8');
  assert.throws(() => initStudy(at, { domains: ['x'], models: ['simulated:sim-b'] }), /study\.json: a study manifest is already there/);
  assert.equal(readFileSync(join(at, 'study.json'), 'utf8'), before);
});
