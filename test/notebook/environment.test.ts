import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashRawInputs, renderEnvironment, type EnvironmentInfo } from '../../lib/notebook/environment';

test('raw inputs are listed sorted with size and SHA-256 (known digests of "abc" and "")', () => {
  const root = mkdtempSync(join(tmpdir(), 'kstbench-env-'));
  mkdirSync(join(root, 'data', 'raw', 'domains'), { recursive: true });
  writeFileSync(join(root, 'data', 'raw', 'domains', 'b.json'), 'abc');
  writeFileSync(join(root, 'data', 'raw', 'a.txt'), '');
  writeFileSync(join(root, 'data', 'raw', '.hidden'), 'x');
  assert.deepEqual(hashRawInputs(root, join(root, 'data', 'raw')), [
    { path: 'data/raw/a.txt', bytes: 0, sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' },
    { path: 'data/raw/domains/b.json', bytes: 3, sha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad' },
  ]);
  assert.deepEqual(hashRawInputs(root, join(root, 'missing')), []);
});

test('environment.md lists versions, seeds, parameters and hashes, with no timestamps', () => {
  const info: EnvironmentInfo = {
    node: 'v20.1.0',
    npm: '10.0.0',
    os: 'Debian, linux x64',
    chromium: 'Chromium 1.2',
    tslab: { version: '1.0.22', typescript: '5.0.4' },
    packages: [{ name: 'zod', wanted: '^4.0.0', installed: '4.1.0' }],
    notebooks: [{ file: 'notebooks/01-a.ipynb', parameters: { seed: 'kst-1', resamples: 2000, note: 'a|b' } }],
    rawInputs: [{ path: 'data/raw/x.json', bytes: 3, sha256: 'ab'.repeat(32) }],
  };
  const md = renderEnvironment(info);
  assert.equal(md, renderEnvironment(info));
  assert.ok(md.endsWith('\n'));
  assert.ok(md.includes('| Node.js | v20.1.0 |'));
  assert.ok(md.includes('| zod | ^4.0.0 | 4.1.0 |'));
  assert.ok(md.includes('## Seeds\n\n| notebook | parameter | value |\n| --- | --- | --- |\n| notebooks/01-a.ipynb | seed | `"kst-1"` |\n'));
  assert.ok(md.includes('| notebooks/01-a.ipynb | resamples | `2000` |'));
  assert.ok(md.includes('| notebooks/01-a.ipynb | note | `"a\\|b"` |'));
  assert.ok(md.includes(`| data/raw/x.json | 3 | \`${'ab'.repeat(32)}\` |`));
  assert.doesNotMatch(md, /\d{4}-\d{2}-\d{2}T/);
  assert.doesNotMatch(md, /A seed `""`/, 'every seed given: no note');
  // A seed left at "" (the study's own) is said to be derived, not shown as if "" were drawn with.
  const derived = renderEnvironment({ ...info, notebooks: [...info.notebooks, { file: 'notebooks/06-b.ipynb', parameters: { seed: '' } }] });
  assert.ok(derived.includes('| notebooks/06-b.ipynb | seed | `""` |\n\nA seed `""` takes the study\'s own (study.json `design.seed` or `analysis.seed`'), derived);
});
