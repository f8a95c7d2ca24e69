#!/usr/bin/env node
'use strict';
// Thin launcher: the CLI is compiled from cli/ into dist/ by `npm run build` (run by `npm ci` via `prepare`).
require('../dist/cli/kstbench.js').main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err) => { console.error(err && err.stack ? err.stack : String(err)); process.exitCode = 1; },
);
