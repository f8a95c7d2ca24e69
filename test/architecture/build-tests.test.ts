import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createHash } from 'node:crypto';

/** scripts/build-tests.js (step 1 of `npm test`): when its incremental build info is dropped. */
const ROOT = resolve(__dirname, '..', '..');
const build = require(join(ROOT, 'scripts', 'build-tests.js')) as { staleBuildInfo(root: string): string | undefined; BUILD_INFO: string; LOCK_STAMP: string };

/** A tiny project: one source with its compiled copy, a lock file, build info and the stamp of that lock. */
function project(): { dir: string; lock: string } {
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-build-tests-'));
  mkdirSync(join(dir, 'lib'), { recursive: true });
  mkdirSync(join(dir, 'dist', 'lib'), { recursive: true });
  writeFileSync(join(dir, 'lib', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(dir, 'dist', 'lib', 'a.js'), 'exports.a = 1;\n');
  const lock = '{"lockfileVersion":3}\n';
  writeFileSync(join(dir, 'package-lock.json'), lock);
  writeFileSync(join(dir, build.BUILD_INFO), '{}');
  writeFileSync(join(dir, build.LOCK_STAMP), `${createHash('sha256').update(lock).digest('hex')}\n`);
  return { dir, lock };
}

test('build info is kept when every source has its compiled copy and the lock file is the one last built', () => {
  const { dir } = project();
  try {
    assert.equal(build.staleBuildInfo(dir), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('build info is dropped when a compiled copy is missing, the lock file changed, or no stamp was written', () => {
  const { dir } = project();
  try {
    writeFileSync(join(dir, 'lib', 'b.ts'), 'export const b = 2;\n');
    assert.equal(build.staleBuildInfo(dir), 'dist/lib/b.js is missing');
    rmSync(join(dir, 'lib', 'b.ts'));
    writeFileSync(join(dir, 'package-lock.json'), '{"lockfileVersion":3,"packages":{"node_modules/zod":{"version":"4.7.0"}}}\n');
    assert.equal(build.staleBuildInfo(dir), 'package-lock.json changed since the last build');
    rmSync(join(dir, build.LOCK_STAMP));
    assert.equal(build.staleBuildInfo(dir), 'no record of the dependencies the last build saw');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('with no build info there is nothing to drop (a fresh clone builds in full anyway)', () => {
  const { dir } = project();
  try {
    rmSync(join(dir, build.BUILD_INFO));
    writeFileSync(join(dir, 'package-lock.json'), 'changed\n');
    assert.equal(build.staleBuildInfo(dir), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
