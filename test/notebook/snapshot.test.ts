/**
 * lib/notebook/snapshot.ts: the watched outputs remembered before a notebook run, so that a failed run
 * puts them back and a run aimed at another folder moves what it wrote there.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OutputSnapshot } from '../../lib/notebook/snapshot';

/** A project with figures/a.svg, figures/old/b.svg, data/processed/t.csv, environment.md and an unwatched notes.txt. */
function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'kstbench-snap-'));
  mkdirSync(join(root, 'figures', 'old'), { recursive: true });
  mkdirSync(join(root, 'data', 'processed'), { recursive: true });
  writeFileSync(join(root, 'figures', 'a.svg'), 'A');
  writeFileSync(join(root, 'figures', 'old', 'b.svg'), 'B');
  writeFileSync(join(root, 'data', 'processed', 't.csv'), 'x\n1\n');
  writeFileSync(join(root, 'environment.md'), 'env');
  writeFileSync(join(root, 'notes.txt'), 'mine');
  // As committed files are: last written long before the run (a rewrite then has a later time).
  const past = new Date('2026-01-01T00:00:00Z');
  for (const f of ['figures/a.svg', 'figures/old/b.svg', 'data/processed/t.csv', 'environment.md']) utimesSync(join(root, f), past, past);
  return root;
}
const watched = ['figures', 'data/processed', 'environment.md'];
const read = (root: string, f: string) => readFileSync(join(root, f), 'utf8');

/** What a run that failed half-way leaves: one file changed, one removed, two new (one in a new folder). */
function failedRun(root: string): void {
  writeFileSync(join(root, 'figures', 'a.svg'), 'A, half rewritten');
  rmSync(join(root, 'figures', 'old', 'b.svg'));
  mkdirSync(join(root, 'figures', 'new', 'deeper'), { recursive: true });
  writeFileSync(join(root, 'figures', 'new', 'deeper', 'c.svg'), 'C');
  writeFileSync(join(root, 'data', 'processed', 'u.csv'), 'y\n');
  writeFileSync(join(root, 'notes.txt'), 'edited by the user meanwhile');
}

test('changes: new and changed files are written, vanished ones removed, unwatched files ignored; an unchanged rewrite is no change', () => {
  const root = project();
  const snap = new OutputSnapshot(root, watched);
  writeFileSync(join(root, 'environment.md'), 'env'); // same bytes
  assert.deepEqual(snap.changes(), { written: [], removed: [] });
  failedRun(root);
  assert.deepEqual(snap.changes(), {
    written: ['data/processed/u.csv', 'figures/a.svg', 'figures/new/deeper/c.svg'],
    removed: ['figures/old/b.svg'],
  });
});

test('restore after a failed run: every watched file as before, the folders the run made gone, unwatched files untouched', () => {
  const root = project();
  const snap = new OutputSnapshot(root, watched);
  failedRun(root);
  // 3 written (1 changed, 2 new) + 1 removed = 4 files touched.
  assert.equal(snap.restore(), 4);
  assert.equal(read(root, 'figures/a.svg'), 'A');
  assert.equal(read(root, 'figures/old/b.svg'), 'B');
  assert.equal(existsSync(join(root, 'figures', 'new')), false, 'the folders only the run made are removed');
  assert.equal(existsSync(join(root, 'data', 'processed', 'u.csv')), false);
  assert.deepEqual(readdirSync(join(root, 'figures')).sort(), ['a.svg', 'old']);
  assert.deepEqual(readdirSync(join(root, 'data', 'processed')), ['t.csv'], 'a watched folder itself stays, even when emptied of new files');
  assert.equal(read(root, 'notes.txt'), 'edited by the user meanwhile');
  assert.deepEqual(snap.changes(), { written: [], removed: [] });
  assert.equal(snap.restore(), 0);
});

test('a watched path that did not exist before: its new files are removed, the path itself is kept as a stop', () => {
  const root = project();
  const snap = new OutputSnapshot(root, ['report']);
  mkdirSync(join(root, 'report', 'pages'), { recursive: true });
  writeFileSync(join(root, 'report', 'pages', 'index.html'), '<p>');
  assert.equal(snap.restore(), 1);
  assert.deepEqual(readdirSync(join(root, 'report')), []);
});

test('copyWrittenTo copies what the run wrote to another folder under the same paths (removals are not copied)', () => {
  const root = project();
  const snap = new OutputSnapshot(root, watched);
  failedRun(root);
  const target = mkdtempSync(join(tmpdir(), 'kstbench-snap-out-'));
  assert.deepEqual(snap.copyWrittenTo(target), ['data/processed/u.csv', 'figures/a.svg', 'figures/new/deeper/c.svg']);
  assert.equal(read(target, 'figures/a.svg'), 'A, half rewritten');
  assert.equal(read(target, 'figures/new/deeper/c.svg'), 'C');
  assert.equal(read(target, 'data/processed/u.csv'), 'y\n');
  assert.equal(existsSync(join(target, 'figures', 'old')), false);
  // Copying does not undo the run in the project: restore still has the same work to do.
  assert.equal(snap.restore(), 4);
});

test('writtenFiles: a file written again with the bytes it had is written (in place or by an atomic rename); one left alone is not', () => {
  const root = project();
  const snap = new OutputSnapshot(root, watched);
  assert.deepEqual(snap.writtenFiles(), [], 'nothing written yet');
  writeFileSync(join(root, 'environment.md'), 'env'); // in place, same bytes: a new modification time
  writeFileSync(join(root, 'figures', 'a.svg.tmp'), 'A');
  renameSync(join(root, 'figures', 'a.svg.tmp'), join(root, 'figures', 'a.svg')); // atomic, same bytes: a new inode
  writeFileSync(join(root, 'notes.txt'), 'mine'); // not watched
  assert.deepEqual(snap.changes(), { written: [], removed: [] }, 'no byte changed, so there is nothing to put back');
  assert.deepEqual(snap.writtenFiles(), ['environment.md', 'figures/a.svg']);
  const target = mkdtempSync(join(tmpdir(), 'kstbench-snap-out-'));
  assert.deepEqual(snap.copyWrittenTo(target), ['environment.md', 'figures/a.svg'], 'every file the run wrote goes to the output folder');
  assert.equal(read(target, 'figures/a.svg'), 'A');
  assert.equal(existsSync(join(target, 'data', 'processed', 't.csv')), false, 'a file the run did not write is not copied');
});
