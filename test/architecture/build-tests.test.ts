import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createHash } from 'node:crypto';

/** scripts/build-tests.js (step 1 of `npm test`): when its incremental build info is dropped. */
const ROOT = resolve(__dirname, '..', '..');
interface Stale {
  buildInfo: string;
  reason: string;
}
const build = require(join(ROOT, 'scripts', 'build-tests.js')) as {
  staleBuildInfo(root: string): string | undefined;
  staleBuildInfos(root: string): Stale[];
  dropStaleBuildInfo(root: string, log: (line: string) => void): void;
  stampLock(root: string): void;
  BUILD_INFOS: [string, string];
  LOCK_STAMP: string;
};
const [LIB_INFO, TEST_INFO] = build.BUILD_INFOS;

/**
 * A tiny project: a lib/ source and a test/ source with their compiled copies, a lock file, the build
 * info of both projects (tsconfig.json, tsconfig.test.json) and the stamp of that lock.
 */
function project(): { dir: string; lock: string } {
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-build-tests-'));
  for (const sub of ['lib', 'test', join('dist', 'lib'), join('dist', 'test')]) mkdirSync(join(dir, sub), { recursive: true });
  writeFileSync(join(dir, 'lib', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(dir, 'dist', 'lib', 'a.js'), 'exports.a = 1;\n');
  writeFileSync(join(dir, 'test', 'a.test.ts'), 'import "../lib/a";\n');
  writeFileSync(join(dir, 'dist', 'test', 'a.test.js'), 'require("../lib/a");\n');
  const lock = '{"lockfileVersion":3}\n';
  writeFileSync(join(dir, 'package-lock.json'), lock);
  for (const info of build.BUILD_INFOS) writeFileSync(join(dir, info), '{}');
  writeFileSync(join(dir, build.LOCK_STAMP), `${createHash('sha256').update(lock).digest('hex')}\n`);
  return { dir, lock };
}

function inProject(body: (dir: string) => void): void {
  const { dir } = project();
  try {
    body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('build info is kept when every source has its compiled copy and the lock file is the one last built', () => {
  inProject((dir) => {
    assert.equal(build.staleBuildInfo(dir), undefined);
    assert.deepEqual(build.staleBuildInfos(dir), []);
  });
});

test('a missing compiled copy drops the build info of its own project only', () => {
  inProject((dir) => {
    writeFileSync(join(dir, 'lib', 'b.ts'), 'export const b = 2;\n');
    assert.deepEqual(build.staleBuildInfos(dir), [{ buildInfo: LIB_INFO, reason: 'dist/lib/b.js is missing' }]);
    rmSync(join(dir, 'lib', 'b.ts'));
    writeFileSync(join(dir, 'test', 'b.test.ts'), '\n');
    assert.deepEqual(build.staleBuildInfos(dir), [{ buildInfo: TEST_INFO, reason: 'dist/test/b.test.js is missing' }]);
    const log: string[] = [];
    build.dropStaleBuildInfo(dir, (line) => log.push(line));
    assert.deepEqual([existsSync(join(dir, LIB_INFO)), existsSync(join(dir, TEST_INFO))], [true, false]);
    assert.match(log.join('\n'), /dist\/test\/b\.test\.js is missing: dist\/tsconfig\.test\.tsbuildinfo dropped/);
  });
});

test('a fresh clone after npm ci: the lib build of the prepare hook is kept though test/ is not compiled yet', () => {
  inProject((dir) => {
    rmSync(join(dir, TEST_INFO));
    rmSync(join(dir, 'dist', 'test'), { recursive: true });
    assert.deepEqual(build.staleBuildInfos(dir), []);
  });
});

test('a changed lock file, or no stamp, drops the build info of both projects', () => {
  inProject((dir) => {
    writeFileSync(join(dir, 'package-lock.json'), '{"lockfileVersion":3,"packages":{"node_modules/zod":{"version":"4.7.0"}}}\n');
    assert.equal(build.staleBuildInfo(dir), 'package-lock.json changed since the last build');
    assert.deepEqual(build.staleBuildInfos(dir).map((s) => s.buildInfo), [LIB_INFO, TEST_INFO]);
    build.dropStaleBuildInfo(dir, () => {});
    assert.deepEqual([existsSync(join(dir, LIB_INFO)), existsSync(join(dir, TEST_INFO))], [false, false]);
  });
  inProject((dir) => {
    rmSync(join(dir, build.LOCK_STAMP));
    assert.equal(build.staleBuildInfo(dir), 'no record of the dependencies the last build saw');
    build.stampLock(dir);
    assert.equal(build.staleBuildInfo(dir), undefined, 'a stamp written for this lock is trusted');
  });
});

test('with no build info there is nothing to drop (a fresh clone builds in full anyway)', () => {
  inProject((dir) => {
    for (const info of build.BUILD_INFOS) rmSync(join(dir, info));
    writeFileSync(join(dir, 'package-lock.json'), 'changed\n');
    assert.equal(build.staleBuildInfo(dir), undefined);
  });
});
