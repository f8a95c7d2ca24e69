/**
 * scripts/report.ts writeSite: the site is replaced as one unit. A failure while writing (a full disk, a
 * path that cannot be made) leaves the old site as it was, never new pages beside old ones.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HELP, OUTPUT_DIR_NOTEBOOKS, writeSite } from '../../scripts/report';

const tree = (dir: string): string[] => (readdirSync(dir, { recursive: true }) as string[]).map(String).sort();

test('a file of the new site that cannot be written: the old site is left whole, no new page, no temporary file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-write-site-'));
  writeSite(dir, new Map([['index.html', 'old index'], ['01-a.html', 'old a']]));
  // `figures` is a file where the new site needs a folder: its figure cannot be written (EEXIST from its mkdir), as
  // on a disk that fills up after the first pages.
  writeFileSync(join(dir, 'figures'), 'in the way');
  const next = new Map<string, string>([['index.html', 'new index'], ['01-a.html', 'new a'], ['figures/f1.svg', '<svg/>']]);
  assert.throws(() => writeSite(dir, next), (e: NodeJS.ErrnoException) => e.code === 'EEXIST' || e.code === 'ENOTDIR');
  assert.equal(readFileSync(join(dir, 'index.html'), 'utf8'), 'old index');
  assert.equal(readFileSync(join(dir, '01-a.html'), 'utf8'), 'old a');
  assert.deepEqual(tree(dir), ['01-a.html', 'figures', 'index.html']);
});

test('the control: the same site written where nothing is in the way replaces every page and drops the stale one', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-write-site-'));
  writeSite(dir, new Map([['index.html', 'old index'], ['old/gone.html', 'gone']]));
  mkdirSync(join(dir, 'figures'));
  writeSite(dir, new Map([['index.html', 'new index'], ['figures/f1.svg', '<svg/>']]));
  assert.equal(readFileSync(join(dir, 'index.html'), 'utf8'), 'new index');
  assert.deepEqual(tree(dir), ['figures', join('figures', 'f1.svg'), 'index.html']);
});

test('report --help says where --from reads the notebooks: the folder reproduce --output-dir writes them to', () => {
  // reproduce writes DIR/notebooks/ (OUTPUT_DIR_NOTEBOOKS); the help said DIR/*.ipynb after that changed.
  assert.equal(OUTPUT_DIR_NOTEBOOKS, 'notebooks');
  assert.match(HELP.replace(/\s+/g, ' '), /its executed notebooks DIR\/notebooks\/\*\.ipynb \(DIR\/\*\.ipynb, as earlier versions wrote them, when that folder is missing\)/);
});
