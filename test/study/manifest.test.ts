import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../lib/errors';
import {
  loadStudy,
  loadStudyDomains,
  parseStudyManifest,
  replicatesPaper,
  SHIPPED_STUDY_DIR,
  singleDomainDir,
  studyLocation,
} from '../../lib/study/manifest';
import { tempDir, writeTinyDomains } from '../collect/helpers';

const minimal = { manifest_version: 1, title: 'T', domains: ['domains'], models: ['simulated:sim-a'] };

test('a minimal manifest gets the documented defaults', () => {
  const m = parseStudyManifest(JSON.stringify(minimal), 'study.json');
  assert.deepEqual(m.design.conditions, ['P0', 'P1', 'P2', 'P3']);
  assert.equal(m.design.states, 'all');
  assert.equal(m.design.orders, 2);
  assert.equal(m.design.repeats, 1);
  assert.equal(m.design.seed, '20260908');
  assert.deepEqual(m.replicates, []);
  assert.equal(m.collection, 'collection');
  assert.equal(m.analysis.resamples, 10000);
});

test('a field of the wrong type is refused naming the file and the field', () => {
  const bad = { ...minimal, design: { orders: 'two' } };
  assert.throws(() => parseStudyManifest(JSON.stringify(bad), 'x/study.json'), (err: unknown) => {
    assert.ok(err instanceof InputError);
    assert.match(err.message, /^x\/study\.json: design\.orders: /);
    assert.equal(err.message.includes('\n'), false);
    return true;
  });
  assert.throws(() => parseStudyManifest(JSON.stringify({ ...minimal, modles: [] }), 's.json'), /s\.json: .*modles/);
  assert.throws(() => parseStudyManifest(JSON.stringify({ ...minimal, models: [] }), 's.json'), /s\.json: models: name at least one model/);
  assert.throws(() => parseStudyManifest(JSON.stringify({ ...minimal, replicates: ['KST-2025'] }), 's.json'), /replicates\[0\]/);
  assert.throws(() => parseStudyManifest('{"manifest_version": 1,', 's.json'), /s\.json(:\d+)?: not valid JSON/);
});

test('design values beyond the bounds of kstbench collect\'s flags are refused naming the field (a huge concurrency crashed the dispatcher)', () => {
  const cases: Array<[Record<string, unknown>, string, number]> = [
    [{ concurrency: 1e12 }, 'design.concurrency', 1024],
    [{ orders: 1e9 }, 'design.orders', 1000],
    [{ timeout_s: 1e10 }, 'design.timeout_s', 2147483],
    [{ max_retries: 101 }, 'design.max_retries', 100],
    [{ max_output_tokens: 10_000_001 }, 'design.max_output_tokens', 10_000_000],
    [{ repeats: 1001 }, 'design.repeats', 1000],
    [{ states: { sample: 1e8, seed: 1 } }, 'design.states.sample', 10_000_000],
  ];
  for (const [design, field, max] of cases) {
    assert.throws(() => parseStudyManifest(JSON.stringify({ ...minimal, design }), 'x/study.json'), (err: unknown) => {
      assert.ok(err instanceof InputError);
      assert.equal(err.message, `x/study.json: ${field}: Too big: expected number to be <=${max}`);
      return true;
    });
    // The bound itself is accepted (the same as the flag's).
    const atMax = JSON.parse(JSON.stringify(design).replace(/:[0-9.e+]+/, `:${max}`));
    assert.doesNotThrow(() => parseStudyManifest(JSON.stringify({ ...minimal, design: atMax }), 'x/study.json'), field);
  }
});

test('analysis.resamples and analysis.flips have the caps of kstbench analyze --boot and --perm (lib/analysis/caps.ts)', () => {
  for (const [field, max] of [['resamples', 1_000_000], ['flips', 10_000_000]] as const) {
    assert.throws(() => parseStudyManifest(JSON.stringify({ ...minimal, analysis: { [field]: max + 1 } }), 'x/study.json'), (err: unknown) => {
      assert.ok(err instanceof InputError);
      assert.equal(err.message, `x/study.json: analysis.${field}: Too big: expected number to be <=${max}`);
      return true;
    });
    assert.equal(parseStudyManifest(JSON.stringify({ ...minimal, analysis: { [field]: max } }), 'x/study.json').analysis[field], max, `${field} at the cap`);
  }
});

test('$comment is accepted on the manifest and its parts', () => {
  const m = parseStudyManifest(JSON.stringify({ ...minimal, $comment: ['a', 'b'], design: { $comment: 'c', states: { sample: 5, seed: 7 } } }), 's.json');
  assert.deepEqual(m.design.states, { sample: 5, seed: '7' });
});

test('the shipped replication is a study whose design is the shipped corpus', () => {
  const study = loadStudy(SHIPPED_STUDY_DIR);
  assert.equal(replicatesPaper(study, 'KST-2026'), true);
  assert.equal(study.paths.collection, join('data', 'raw', 'kst'));
  assert.equal(singleDomainDir(study), join('data', 'raw', 'domains'));
  const ids = loadStudyDomains(study).map((d) => d.id);
  assert.deepEqual(ids, ['equation-to-graph', 'graph-to-equation', 'linear-modelling', 'slope']);
  assert.deepEqual(studyLocation('data/raw/study.json'), { dir: 'data/raw', file: 'data/raw/study.json' });
});

test('domains: a file, a folder and a kstIO import; a bad entry is named', () => {
  const dir = tempDir('kstbench-study-');
  writeTinyDomains(join(dir, 'domains'));
  mkdirSync(join(dir, 'more'));
  // A 2-item relation matrix (kstIO): item 1 is a prerequisite of item 2.
  writeFileSync(join(dir, 'more', 'rel.txt'), '11\n01\n');
  const manifest = { ...minimal, domains: ['domains/tiny-a.json', { import: 'more/rel.txt', id: 'imp', kind: 'relation' }] };
  writeFileSync(join(dir, 'study.json'), JSON.stringify(manifest));
  const study = loadStudy(dir);
  assert.deepEqual(loadStudyDomains(study).map((d) => d.id), ['imp', 'tiny-a']);
  assert.equal(singleDomainDir(study), null);
  writeFileSync(join(dir, 'study.json'), JSON.stringify({ ...minimal, domains: ['nowhere'] }));
  assert.throws(() => loadStudyDomains(loadStudy(dir)), /study\.json: domains\[0\]: .*nowhere does not exist \(ENOENT\)/);
  writeFileSync(join(dir, 'study.json'), JSON.stringify({ ...minimal, domains: ['domains', 'domains/tiny-b.json'] }));
  assert.throws(() => loadStudyDomains(loadStudy(dir)), /domain id "tiny-b" is given twice/);
});

test('a folder without a manifest says how to make one', () => {
  const dir = tempDir('kstbench-study-');
  assert.throws(() => loadStudy(dir), /study\.json: no study manifest here \(create one with: kstbench study init /);
});

test('a study.json that is a folder is refused naming it (the OS error of reading a folder carries no path)', () => {
  const dir = tempDir('kstbench-study-');
  mkdirSync(join(dir, 'study.json'));
  assert.throws(() => loadStudy(dir), (err: unknown) => {
    assert.ok(err instanceof InputError);
    assert.equal(err.message, `${join(dir, 'study.json')}: cannot read study manifest (EISDIR)`);
    return true;
  });
});
