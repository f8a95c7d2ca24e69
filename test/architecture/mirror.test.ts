import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { isFunctionNode } from '../support/function-nodes';

/**
 * test/ mirrors lib/ file for file: the unit tests of `lib/X/Y.ts` are in `test/X/Y.test.ts`, so a
 * reader who opens a source file knows where its checked behaviour is written down. A file with no
 * logic of its own (re-exports, types, constant tables) needs no mirror; which files those are is
 * decided from the code (no function, arrow, class or method body), not from a list that can go stale.
 */
const ROOT = join(__dirname, '..', '..');

function walk(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return walk(path);
      return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
    });
}

/** True when the file declares something that runs: a function, arrow, method, accessor or class body. */
export function hasLogic(source: string, file = 'x.ts'): boolean {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.ES2022, true);
  let found = false;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (isFunctionNode(node) || ts.isClassDeclaration(node)) {
      // A declaration without a body (an overload signature) runs nothing.
      const body = (node as { body?: ts.Node }).body;
      if (body !== undefined || ts.isClassDeclaration(node)) {
        found = true;
        return;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

test('hasLogic tells a re-export or type file from one with code', () => {
  assert.equal(hasLogic("export { mean } from './mean';\nexport type { Row } from './row';"), false);
  assert.equal(hasLogic('export interface A { f(x: number): number }\nexport const N = 3;'), false);
  assert.equal(hasLogic('export function f(x: number): number;'), false);
  assert.equal(hasLogic('export const f = (x: number) => x + 1;'), true);
  assert.equal(hasLogic('export function f() { return 1; }'), true);
  assert.equal(hasLogic('export class E extends Error {}'), true);
});

test('every lib/ file with logic of its own has its unit tests at the mirrored path in test/', () => {
  const files = walk(join(ROOT, 'lib')).map((f) => relative(ROOT, f));
  const withLogic = files.filter((f) => hasLogic(readFileSync(join(ROOT, f), 'utf8'), f));
  const missing = withLogic.filter((f) => !existsSync(join(ROOT, f.replace(/^lib\//, 'test/').replace(/\.ts$/, '.test.ts'))));
  assert.ok(withLogic.length > 100, `only ${withLogic.length} lib files with logic found: is the walk right?`);
  assert.deepEqual(missing, [], `${missing.length} of ${withLogic.length} lib files with logic have no test/<same path>.test.ts`);
});
