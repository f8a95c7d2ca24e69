#!/usr/bin/env node
// Step 1 of `npm test`: the one type-check of test/, and of lib/, cli/ and scripts/ when they changed,
// which also compiles them into dist/. Two tsc projects: tsconfig.json (lib/, cli/, scripts/: what
// `npm ci`'s prepare hook and `npm run build` compile) and tsconfig.test.json (test/ only), which
// references the first, so `tsc -b tsconfig.test.json` checks test/ against lib's declarations and
// re-checks lib only when it changed. On a fresh clone `npm ci` has just built lib, so `npm test`
// type-checks lib once more only if its sources changed since. Both are incremental: tsc keeps what
// it learnt in dist/tsconfig.tsbuildinfo and dist/tsconfig.test.tsbuildinfo and, in build mode
// (`tsc -b`), re-checks only what changed since.
//
// Why the guard: tsc trusts its build info and does not look at dist/, so an output deleted by hand
// (a file of dist/, not all of it: the build info lives in dist/) would never be written again. When
// a source has no compiled copy, the build info is dropped and the build starts from nothing. tsc -b
// also never looks at node_modules' declarations again once a build is up to date, so after `npm ci`
// or an upgrade (zod, the SDKs, @types/node) a re-run would check against stale types: the build info
// is dropped too when package-lock.json is not the one the last good build saw (its sha256 is kept in
// dist/tsconfig.test.lock-sha256, written after a build that passed, here or in the prepare hook).
'use strict';
const { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { createHash } = require('node:crypto');
const { join, relative } = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = join(__dirname, '..');
/** The two tsc projects: each one's build info and the folders it compiles. */
const PROJECTS = [
  { buildInfo: 'dist/tsconfig.tsbuildinfo', dirs: ['lib', 'cli', 'scripts'] },
  { buildInfo: 'dist/tsconfig.test.tsbuildinfo', dirs: ['test'] },
];
const BUILD_INFOS = PROJECTS.map((p) => p.buildInfo);
const LOCK_STAMP = 'dist/tsconfig.test.lock-sha256';

function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The first source of `dirs` whose dist/ copy is missing. */
function missingOutput(root, dirs) {
  for (const dir of dirs) {
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
 * The build info in `root` that cannot be trusted, each with why (a line for the log): a compiled
 * copy of its project is missing, or the dependencies changed since the last good build (then every
 * build info there is). Empty when all can be trusted or there is none.
 */
function staleBuildInfos(root) {
  const present = PROJECTS.filter((p) => existsSync(join(root, p.buildInfo)));
  if (present.length === 0) return [];
  const stamp = join(root, LOCK_STAMP);
  const seen = existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : undefined;
  if (seen !== lockHash(root)) {
    const reason = seen === undefined ? 'no record of the dependencies the last build saw' : 'package-lock.json changed since the last build';
    return present.map((p) => ({ buildInfo: p.buildInfo, reason }));
  }
  return present.flatMap((p) => {
    const missing = missingOutput(root, p.dirs);
    return missing ? [{ buildInfo: p.buildInfo, reason: `${missing} is missing` }] : [];
  });
}

/** Why some build info in `root` cannot be trusted (the first reason), or undefined. */
function staleBuildInfo(root) {
  return staleBuildInfos(root)[0]?.reason;
}

/** Drops each build info that cannot be trusted, saying why on `log`. */
function dropStaleBuildInfo(root, log) {
  for (const { buildInfo, reason } of staleBuildInfos(root)) {
    log(`${reason}: ${buildInfo} dropped, that project builds from nothing`);
    rmSync(join(root, buildInfo), { force: true });
  }
}

/** Records that a build which passed saw this package-lock.json. */
function stampLock(root) {
  writeFileSync(join(root, LOCK_STAMP), `${lockHash(root)}\n`);
}

function main() {
  dropStaleBuildInfo(ROOT, (line) => process.stdout.write(`build-tests: ${line}\n`));
  const tsc = require.resolve('typescript/bin/tsc', { paths: [ROOT] });
  const result = spawnSync(process.execPath, [tsc, '-b', join(ROOT, 'tsconfig.test.json')], { cwd: ROOT, stdio: 'inherit' });
  if (result.error) {
    process.stderr.write(`build-tests: cannot start tsc (${tsc}): ${result.error.message}\n`);
    process.exit(2);
  }
  if (result.status === 0) stampLock(ROOT);
  process.exit(result.status ?? 1);
}

if (require.main === module) main();
module.exports = { staleBuildInfo, staleBuildInfos, dropStaleBuildInfo, stampLock, BUILD_INFOS, LOCK_STAMP };
