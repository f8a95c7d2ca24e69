/**
 * The scripts' readers of user files decode them as strict UTF-8 (lib/io/read.ts): the notebooks
 * `npm run reproduce` plans (its own parse; readNotebook already was strict) and the environment.md
 * `npm run report` builds the site from. A byte that is not UTF-8 is refused with FILE:LINE and its
 * offset, where `readFileSync(file, 'utf8')` read it as U+FFFD on into a cell or a page.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { outputDirInputs, siteFiles } from '../../scripts/report';
import { planRun } from '../../scripts/reproduce';
import { ROOT, assertRefusedAsInvalidUtf8, tempDir, writeWithInvalidByte } from '../support/files';

test('reproduce: a notebook with a 0xFF byte in a cell is refused with FILE:LINE before anything runs', () => {
  const root = tempDir('kstbench-reproduce-utf8-');
  mkdirSync(join(root, 'notebooks'));
  const notebook = join(root, 'notebooks', '01-kst-foundations.ipynb');
  const text = readFileSync(join(ROOT, 'notebooks', '01-kst-foundations.ipynb'), 'utf8');
  assertRefusedAsInvalidUtf8(() => planRun([], root), writeWithInvalidByte(notebook, text, '"source": [\n    "'));
});

test('report: an environment.md with a 0xFF byte is refused with FILE:LINE, from the project and from --from', () => {
  const environment = readFileSync(join(ROOT, 'environment.md'), 'utf8');
  const root = tempDir('kstbench-report-utf8-');
  mkdirSync(join(root, 'notebooks'));
  assertRefusedAsInvalidUtf8(() => siteFiles(root), writeWithInvalidByte(join(root, 'environment.md'), environment, '| Node.js | '));
  const kept = tempDir('kstbench-report-utf8-from-');
  assertRefusedAsInvalidUtf8(() => outputDirInputs(kept), writeWithInvalidByte(join(kept, 'environment.md'), environment, '| Node.js | '));
});
