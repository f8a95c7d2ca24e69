#!/usr/bin/env node
// Runs every test/**/*.test.ts file with Node's own test runner (tsx compiles TypeScript on the fly).
// Node 20's --test does not expand globs or pick up .ts files by itself, hence this small walker.
'use strict';
const { readdirSync, statSync } = require('node:fs');
const { join, relative } = require('node:path');
const { spawnSync } = require('node:child_process');

const root = join(__dirname, '..');
const filter = process.argv.slice(2);
function walk(dir) {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return walk(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}
const files = walk(join(root, 'test'))
  .map((f) => relative(root, f))
  .filter((f) => filter.length === 0 || filter.some((part) => f.includes(part)));
if (files.length === 0) {
  console.error('run-tests: no test files matched');
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
