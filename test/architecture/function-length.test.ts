/**
 * No function longer than 80 lines in lib/, cli/ or scripts/ (issue 22 §2): a long function is one a
 * reader has to hold in their head whole, so it is split into named pieces instead. Every function
 * declaration, function expression, arrow, method, accessor and constructor counts, from its first line
 * (after any doc comment) to its closing brace, nested functions included in the outer one's length.
 * A function that must stay one piece goes in ALLOWED with a one-line reason.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { isFunctionNode } from '../support/function-nodes';

const ROOT = join(__dirname, '..', '..');
export const MAX_FUNCTION_LINES = 80;

/** `file:name` → why it must be one piece. Each entry must still be over the limit (no stale entries). */
const ALLOWED = new Map<string, string>([
  [
    'lib/kst/space.ts:countOrder',
    'hot explicit-stack count over typed arrays, its state in locals; lib/kst belongs to issue 20 this stop, split it there with `npm run bench`',
  ],
  [
    'lib/kst/basis.ts:walkWords',
    'hot explicit-stack closure walk over typed arrays, its state in locals; lib/kst belongs to issue 20 this stop, split it there with `npm run bench`',
  ],
]);

export interface FunctionLength {
  readonly name: string;
  readonly line: number;
  readonly lines: number;
}

function walk(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (name === 'node_modules') return [];
      if (statSync(path).isDirectory()) return walk(path);
      return /\.(ts|js)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
    });
}

type FunctionNode = ts.FunctionLikeDeclaration;

function propertyName(name: ts.PropertyName | ts.BindingName | undefined, sf: ts.SourceFile): string | undefined {
  if (name === undefined) return undefined;
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name)) return name.text;
  return name.getText(sf);
}

/** A readable name: `f`, `Class.method`, the variable or property an arrow is bound to, or `<arrow in f>`. */
function functionName(node: FunctionNode, sf: ts.SourceFile, enclosing: string | undefined): string {
  const owner = ts.isClassLike(node.parent) ? `${node.parent.name?.text ?? '<class>'}.` : '';
  if (ts.isConstructorDeclaration(node)) return `${owner}constructor`;
  const own = propertyName(node.name, sf);
  if (own !== undefined) return `${owner}${own}`;
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    const bound = propertyName(parent.name, sf);
    if (bound !== undefined) return bound;
  }
  return `<function in ${enclosing ?? 'module'}>`;
}

/** Every function of `source` with its name, first line and length in lines. */
export function functionLengths(source: string, file = 'x.ts'): FunctionLength[] {
  const kind = file.endsWith('.js') ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.ES2022, true, kind);
  const found: FunctionLength[] = [];
  const visit = (node: ts.Node, enclosing: string | undefined): void => {
    let inner = enclosing;
    if (isFunctionNode(node)) {
      const name = functionName(node, sf, enclosing);
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ name, line: first + 1, lines: last - first + 1 });
      inner = name;
    }
    ts.forEachChild(node, (child) => visit(child, inner));
  };
  visit(sf, undefined);
  return found;
}

/** `file:name (lines lines, line N)` for every function over the limit in lib/, cli/ and scripts/. */
function overLimit(): { key: string; lines: number; at: string }[] {
  return ['lib', 'cli', 'scripts'].flatMap((dir) =>
    walk(join(ROOT, dir)).flatMap((path) => {
      const rel = relative(ROOT, path).split('\\').join('/');
      return functionLengths(readFileSync(path, 'utf8'), path)
        .filter((f) => f.lines > MAX_FUNCTION_LINES)
        .map((f) => ({ key: `${rel}:${f.name}`, lines: f.lines, at: `${rel}:${f.line}` }));
    }),
  );
}

test('the measure counts a function from its first line to its closing brace, with a name', () => {
  const body = Array.from({ length: MAX_FUNCTION_LINES - 1 }, (_, i) => `  const a${i} = ${i};`).join('\n');
  const source = `/** doc */\nexport function long(): void {\n${body}\n}\nclass K {\n  m(): number {\n    return 1;\n  }\n}\nconst arrow = () => [1].map((x) => {\n  return x;\n});\n`;
  const lengths = functionLengths(source);
  assert.deepEqual(lengths[0], { name: 'long', line: 2, lines: MAX_FUNCTION_LINES + 1 });
  assert.deepEqual(
    lengths.slice(1).map((f) => [f.name, f.lines]),
    [['K.m', 3], ['arrow', 3], ['<function in arrow>', 3]],
  );
});

test(`no function in lib/, cli/ or scripts/ is longer than ${MAX_FUNCTION_LINES} lines`, () => {
  const over = overLimit();
  const unexplained = over.filter((f) => !ALLOWED.has(f.key)).map((f) => `${f.at} ${f.key.split(':')[1]}: ${f.lines} lines`);
  assert.deepEqual(unexplained, [], 'split these into named pieces, or add one to ALLOWED with the reason it must be one piece');
  const stale = [...ALLOWED.keys()].filter((key) => !over.some((f) => f.key === key));
  assert.deepEqual(stale, [], 'these are no longer over the limit: remove them from ALLOWED');
});
