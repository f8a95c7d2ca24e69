#!/usr/bin/env node
// `prepare` hook: compiles with tsc only when dist/ is older than the sources. `npm ci` in a fresh
// checkout builds once; the first `npx kstbench` (which links this folder into npx's cache and runs
// `prepare` again) then finds dist/ current and starts at once instead of re-running the whole build.
// With --always (`npm run build`) it compiles whatever the stamp says; tsc is incremental either way.
'use strict';
const { existsSync, readdirSync, statSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { spawnSync } = require('node:child_process');
const { dropStaleBuildInfo, stampLock } = require('./build-tests');

const root = join(__dirname, '..');
const stamp = join(root, 'dist', '.build-stamp');

function newest(path) {
  const info = statSync(path);
  if (!info.isDirectory()) return path.endsWith('.ts') || path.endsWith('.json') ? info.mtimeMs : 0;
  return readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), 0);
}

const sources = ['lib', 'cli', 'scripts', 'tsconfig.json', 'package.json'].map((p) => join(root, p)).filter(existsSync);
const latest = Math.max(...sources.map(newest));
if (!process.argv.includes('--always') && existsSync(stamp) && statSync(stamp).mtimeMs >= latest && existsSync(join(root, 'dist', 'cli', 'kstbench.js'))) {
  process.exit(0);
}
// tsc -b is incremental (tsconfig.json is a composite project: `npm test` checks test/
// against it); the build info it leaves is trusted by `npm test` only with the stamp of this lock.
dropStaleBuildInfo(root, (line) => process.stdout.write(`build-if-stale: ${line}\n`));
const tsc = require.resolve('typescript/bin/tsc', { paths: [root] });
const result = spawnSync(process.execPath, [tsc, '-b', join(root, 'tsconfig.json')], { cwd: root, stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
writeFileSync(stamp, `${new Date().toISOString()}\n`);
stampLock(root);
