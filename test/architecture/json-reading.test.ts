/**
 * One way to read a JSON file: lib/io (`readJsonFile`, `parseJsonFile`, `readJsonl`), which checks it
 * against its zod schema and names the file and line of a bad one. A hand-written
 * `JSON.parse(readFileSync(…))` anywhere else in lib/, cli/ or scripts/ fails here.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { test } from 'node:test';

const ROOT = resolve(__dirname, '..', '..');

/**
 * Files still to move to lib/io: each entry must still hold the pattern, so the list shrinks with the
 * code and cannot keep a stale exception. Empty since lib/collect/lifecycle.ts reads run.json through
 * readJsonFile (issue 22 §2).
 */
const PENDING = new Set<string>([]);

/** `JSON.parse(` applied straight to a file read: readFileSync, readText, readFile. */
const HAND_READ = /JSON\.parse\(\s*(?:readFileSync|readText|readFile|fs\.readFileSync)\s*\(/;

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The 1-based lines of `source` that parse a file's text by hand. */
export function handReadLines(source: string): number[] {
  return source.split('\n').flatMap((line, i) => (HAND_READ.test(line) ? [i + 1] : []));
}

test('the scan finds a hand-written JSON file read, and only that', () => {
  assert.deepEqual(handReadLines("const a = 1;\nconst x = JSON.parse(readFileSync(file, 'utf8'));\nJSON.parse( readText(f) );"), [2, 3]);
  assert.deepEqual(handReadLines("const x = JSON.parse(text);\nreadJsonFile(file, schema);"), []);
});

test('no JSON.parse(readFileSync(…)) outside lib/io in lib/, cli/ and scripts/', () => {
  const found: string[] = [];
  const pendingSeen = new Set<string>();
  for (const dir of ['lib', 'cli', 'scripts']) {
    for (const file of tsFiles(join(ROOT, dir))) {
      const rel = relative(ROOT, file).split('\\').join('/');
      if (rel.startsWith('lib/io/')) continue;
      const lines = handReadLines(readFileSync(file, 'utf8'));
      if (lines.length === 0) continue;
      if (PENDING.has(rel)) pendingSeen.add(rel);
      else found.push(...lines.map((l) => `${rel}:${l}`));
    }
  }
  assert.deepEqual(found, [], 'read JSON files through lib/io (readJsonFile / parseJsonFile with the file\'s schema)');
  const stale = [...PENDING].filter((f) => !pendingSeen.has(f));
  assert.deepEqual(stale, [], 'these no longer read JSON by hand: remove them from PENDING');
});
