// The program of one test process: each test file named on the command line becomes one top-level
// suite named by its path, with the per-file time limit, so a file that hangs fails (node:test cancels
// what is still running) instead of holding the run forever. Files run one after another.
'use strict';
const { describe } = require('node:test');
const { join } = require('node:path');

const root = join(__dirname, '..', '..');
const timeout = Number(process.env.KSTBENCH_TEST_FILE_TIMEOUT_MS) || Infinity;
for (const file of process.argv.slice(2)) {
  describe(file, { timeout }, () => {
    require(join(root, file));
  });
}
