/**
 * No notebook holds logic a test cannot reach: a code cell neither loops (`for`, `while`, `do`) nor
 * defines a function or class of its own (a `function`, or a name bound to an arrow or function
 * expression). What a cell computes lives in lib/, where a unit test covers it; a cell calls it and
 * shows the result. Inline callbacks passed straight to a library call (`rows.map((r) => …)`) are
 * allowed: they bind no name a later cell could reuse. The cells are parsed with TypeScript, so a
 * loop written inside a string (notebook 10's Python answers) is not one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { cellSource, parseNotebook } from '../../lib/notebook/ipynb';

const NOTEBOOKS = join(__dirname, '..', '..', 'notebooks');

/** Each loop or named function of one cell's source, as `line N: what`. */
export function cellLogic(source: string): string[] {
  const file = ts.createSourceFile('cell.ts', source, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) => found.push(`line ${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}: ${what}`);
  const visit = (node: ts.Node): void => {
    if (ts.isForStatement(node) || ts.isForOfStatement(node) || ts.isForInStatement(node)) at(node, 'a for loop');
    else if (ts.isWhileStatement(node) || ts.isDoStatement(node)) at(node, 'a while loop');
    else if (ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node)) at(node, `its own ${ts.isClassDeclaration(node) ? 'class' : 'function'} ${node.name?.text ?? ''}`.trimEnd());
    else if (ts.isVariableDeclaration(node) && node.initializer !== undefined && (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))) {
      at(node, `its own function ${node.name.getText(file)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

test('cellLogic finds loops and named functions, not inline callbacks or loops inside strings', () => {
  assert.deepEqual(cellLogic('const rows = xs.map((x) => x + 1);\nconsole.log(`for (i = 5; i > 0; i--)`);'), []);
  assert.deepEqual(cellLogic('for (const x of xs) console.log(x);'), ['line 1: a for loop']);
  assert.deepEqual(cellLogic('let i = 0;\nwhile (i < 3) i++;'), ['line 2: a while loop']);
  assert.deepEqual(cellLogic('const setText = (ids: string[]) => ids.join(",");'), ['line 1: its own function setText']);
  assert.deepEqual(cellLogic('function f() { return 1; }'), ['line 1: its own function f']);
});

test('no notebook cell loops or defines a function of its own (the logic lives in lib/, with a test)', () => {
  const found: string[] = [];
  for (const name of readdirSync(NOTEBOOKS).filter((n) => n.endsWith('.ipynb')).sort()) {
    const nb = parseNotebook(readFileSync(join(NOTEBOOKS, name), 'utf8'), name);
    nb.cells.forEach((cell, i) => {
      if (cell.cell_type !== 'code') return;
      for (const what of cellLogic(cellSource(cell))) found.push(`notebooks/${name} cell ${i}, ${what}`);
    });
  }
  assert.deepEqual(found, []);
});
