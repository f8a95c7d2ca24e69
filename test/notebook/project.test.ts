/** lib/notebook/project.ts: the project root found from a module's location, never from the working directory. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { enterProjectRoot, notebookCompileRoot, projectRoot } from '../../lib/notebook/project';

const ROOT = join(__dirname, '..', '..');

test('projectRoot climbs to the package.json named kstbench, skipping other and broken package.json files', () => {
  assert.equal(projectRoot(), ROOT);
  assert.equal(projectRoot(join(ROOT, 'lib', 'notebook')), ROOT);
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'kstbench-root-')));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'kstbench' }));
  mkdirSync(join(dir, 'other', 'broken', 'deep'), { recursive: true });
  writeFileSync(join(dir, 'other', 'package.json'), JSON.stringify({ name: 'not-kstbench' }));
  writeFileSync(join(dir, 'other', 'broken', 'package.json'), '{ not json');
  assert.equal(projectRoot(join(dir, 'other', 'broken', 'deep')), dir);
});

test('projectRoot outside any kstbench project names where it started', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-noroot-'));
  assert.throws(() => projectRoot(dir), { message: `kstbench project root not found above ${dir}` });
});

test('enterProjectRoot makes the root the working directory; cells compile in notebooks/', () => {
  const before = process.cwd();
  try {
    process.chdir(tmpdir());
    assert.equal(enterProjectRoot(), ROOT);
    assert.equal(process.cwd(), ROOT);
  } finally {
    process.chdir(before);
  }
  assert.equal(notebookCompileRoot(), join(ROOT, 'notebooks'));
  assert.equal(notebookCompileRoot('/x'), join('/x', 'notebooks'));
});
