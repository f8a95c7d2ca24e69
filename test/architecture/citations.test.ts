/**
 * The two papers are cited by the keys the README defines, [KST-2026] and [PSI-2026], never by the
 * numbers of their archived seed files ("paper 000", "(002, §IV-F)") or the file names themselves
 * ("000_b57c…", "002_0f64…"). Scans lib/, cli/ and scripts/ (every file), every notebook's cell
 * sources (outputs are regenerated and not scanned) and every Markdown file of the project. The one
 * place the file names may stand is the README's key table, which says which archived file each key is.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { test } from 'node:test';

const ROOT = resolve(__dirname, '..', '..');

/** Shorthand for a paper: its seed number as a name, in a parenthesised citation, or its file name. */
const SHORTHAND: readonly RegExp[] = [
  /\b[Pp]apers? \(?00[02]\b/, // "paper 000", "Paper 002", "paper (002)"
  /\(00[02]\s*[,;)§]/, // "(002)", "(002, §IV-F)"
  /\b00[02] §/, // "002 §III"
  /\b00[02]_[0-9a-f]{4}/, // "000_b57c…", "002_0f64…"
];

/** The README's key table rows, where the archived file names are named on purpose. */
const KEY_TABLE_ROW = /^\| \*\*\[(KST|PSI)-2026\]\*\* \|/;

const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'tmp']);

function walk(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return SKIP_DIRS.has(name) ? [] : walk(path, keep);
    return keep(name) ? [path] : [];
  });
}

/** Each line of `text` that cites a paper by shorthand, as "where: line". */
export function shorthandCitations(text: string, where: string): string[] {
  return text.split('\n').flatMap((line, i) =>
    !KEY_TABLE_ROW.test(line) && SHORTHAND.some((p) => p.test(line)) ? [`${where}:${i + 1}: ${line.trim().slice(0, 160)}`] : []);
}

/** The text that is scanned, by file: whole files, and for a notebook each cell's source. */
function scannedTexts(): Array<{ where: string; text: string }> {
  const self = resolve(__filename);
  const code = ['lib', 'cli', 'scripts'].flatMap((d) => walk(join(ROOT, d), () => true));
  const markdown = walk(ROOT, (name) => name.endsWith('.md')).filter((f) => !code.includes(f));
  const texts = [...code, ...markdown]
    .filter((f) => f !== self)
    .map((f) => ({ where: relative(ROOT, f), text: readFileSync(f, 'utf8') }));
  for (const nb of walk(join(ROOT, 'notebooks'), (name) => name.endsWith('.ipynb'))) {
    const cells = (JSON.parse(readFileSync(nb, 'utf8')) as { cells: Array<{ source: string | string[] }> }).cells;
    cells.forEach((cell, i) => {
      texts.push({ where: `${relative(ROOT, nb)} cell ${i}`, text: Array.isArray(cell.source) ? cell.source.join('') : cell.source });
    });
  }
  return texts;
}

test('the papers are cited by [KST-2026] / [PSI-2026], not by seed numbers or file names', () => {
  const texts = scannedTexts();
  const where = new Set(texts.map((t) => t.where.split(/[/ ]/)[0]));
  for (const part of ['lib', 'cli', 'scripts', 'notebooks', 'README.md', 'ARCHITECTURE.md']) assert.ok(where.has(part), `nothing scanned in ${part}`);
  assert.deepEqual(texts.flatMap((t) => shorthandCitations(t.text, t.where)), []);
});

test('the shorthand check flags each form and spares the key table and ordinary numbers', () => {
  const flagged = [
    'as in paper 000 §4.3',
    'Paper 002 (§IV-E) takes',
    'the PSI paper (002) prints',
    'The paper (002, §IV-F, Table VI)',
    'see 002 §III',
    'paper `000_b57c24eb1414f63c`',
    '(archived as 002_0f641844d841c919.txt)',
  ];
  for (const line of flagged) assert.equal(shorthandCitations(line, 'x').length, 1, line);
  const spared = [
    '| **[KST-2026]** | Steiner & Hochweber (2026), … (archived as `000_b57c24eb1414f63c.txt`) |',
    '[PSI-2026] §IV-F',
    'default 10,000 resamples; 100,000 flips',
    'overall Δ = −0.002',
    "run ids 'r-002', '000'",
  ];
  for (const line of spared) assert.deepEqual(shorthandCitations(line, 'x'), [], line);
});
