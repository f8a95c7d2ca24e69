import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { initStudy } from '../../lib/study/init';
import { loadStudy, loadStudyDomains } from '../../lib/study/manifest';
import { tempDir } from '../support/files';
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

test('init --repeats: the manifest carries the repeats (default 1), and the CLI refuses 0 as a usage error', async () => {
  const dir = tempDir('kstbench-study-init-');
  writeCurriculum(join(dir, 'fractions.json'));
  initStudy(join(dir, 'three'), { domains: [join(dir, 'fractions.json')], models: ['simulated:sim-a'], repeats: 3 });
  assert.equal(loadStudy(join(dir, 'three')).manifest.design.repeats, 3);
  initStudy(join(dir, 'one'), { domains: [join(dir, 'fractions.json')], models: ['simulated:sim-a'] });
  assert.equal(loadStudy(join(dir, 'one')).manifest.design.repeats, 1);
  const { init } = await import('../../cli/commands/study-steps');
  const cli = join(dir, 'cli');
  assert.equal(await init.run([cli, '--domains', join(dir, 'fractions.json'), '--models', 'simulated:sim-a', '--repeats', '2']), 0);
  assert.equal(loadStudy(cli).manifest.design.repeats, 2);
  await assert.rejects(() => init.run([join(dir, 'zero'), '--domains', join(dir, 'fractions.json'), '--models', 'simulated:sim-a', '--repeats', '0']), /--repeats/);
});
