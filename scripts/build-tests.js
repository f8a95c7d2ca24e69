#!/usr/bin/env node
// Step 1 of `npm test`: the one type-check of lib/, cli/, scripts/ and test/, which also compiles them
// into dist/ (tsconfig.test.json). It is incremental: tsc keeps what it learnt in
// dist/tsconfig.test.tsbuildinfo and, in build mode (`tsc -b`), re-checks only what changed since —
// on a re-run with no change about 1 s of CPU instead of about 40 s. A fresh clone (CI) gains nothing.
//
// Why the guard: tsc trusts its build info and does not look at dist/, so an output deleted by hand
// (a file of dist/, not all of it: the build info lives in dist/) would never be written again. When
// a source has no compiled copy, the build info is dropped and the build starts from nothing. tsc -b
// also never looks at node_modules' declarations again once a build is up to date, so after `npm ci`
// or an upgrade (zod, the SDKs, @types/node) a re-run would check against stale types: the build info
// is dropped too when package-lock.json is not the one the last good build saw (its sha256 is kept in
// dist/tsconfig.test.lock-sha256, written after a build that passed).
'use strict';
const { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { createHash } = require('node:crypto');
const { join, relative } = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = join(__dirname, '..');
const BUILD_INFO = 'dist/tsconfig.test.tsbuildinfo';
const LOCK_STAMP = 'dist/tsconfig.test.lock-sha256';

function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The first source (of the folders tsconfig.test.json compiles) whose dist/ copy is missing. */
function missingOutput(root) {
  for (const dir of ['lib', 'cli', 'scripts', 'test']) {
    if (!existsSync(join(root, dir))) continue;
    for (const file of sources(join(root, dir))) {
      const js = join(root, 'dist', relative(root, file).replace(/\.ts$/, '.js'));
      if (!existsSync(js)) return relative(root, js);
    }
  }
  return undefined;
}

/** sha256 of the project's package-lock.json ('' when there is none). */
function lockHash(root) {
  const lock = join(root, 'package-lock.json');
  return existsSync(lock) ? createHash('sha256').update(readFileSync(lock)).digest('hex') : '';
}

/**
 * Why the build info in `root` cannot be trusted (a line for the log), or undefined when it can or
 * there is none: a compiled copy is missing, or the dependencies changed since the last good build.
 */
function staleBuildInfo(root) {
  if (!existsSync(join(root, BUILD_INFO))) return undefined;
  const missing = missingOutput(root);
  if (missing) return `${missing} is missing`;
  const stamp = join(root, LOCK_STAMP);
  const seen = existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : undefined;
  if (seen !== lockHash(root)) return seen === undefined ? 'no record of the dependencies the last build saw' : 'package-lock.json changed since the last build';
  return undefined;
}

function main() {
  const stale = staleBuildInfo(ROOT);
  if (stale) {
    process.stdout.write(`build-tests: ${stale}: a full build\n`);
    rmSync(join(ROOT, BUILD_INFO));
  }
  const tsc = require.resolve('typescript/bin/tsc', { paths: [ROOT] });
  const result = spawnSync(process.execPath, [tsc, '-b', join(ROOT, 'tsconfig.test.json')], { cwd: ROOT, stdio: 'inherit' });
  if (result.error) {
    process.stderr.write(`build-tests: cannot start tsc (${tsc}): ${result.error.message}\n`);
    process.exit(2);
  }
  if (result.status === 0) writeFileSync(join(ROOT, LOCK_STAMP), `${lockHash(ROOT)}\n`);
  process.exit(result.status ?? 1);
}

if (require.main === module) main();
module.exports = { staleBuildInfo, BUILD_INFO, LOCK_STAMP };
