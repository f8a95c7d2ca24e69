/**
 * The doctest runner: every `@example` block of a lib/ doc comment that states expected values
 * (`expr; // => value` or `expr; // → value`) is run against the built module (dist/lib/…js) and each
 * expression compared with its value by deep strict equality. `expr; // throws /pattern/` states that
 * the expression throws an error whose message matches the regular expression. The example sees the module's exports by
 * name; its other lines (declarations, imports) run as written. Examples are TypeScript, transpiled
 * with the project's own compiler. Blocks without an expected value are prose and are not run.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export interface DoctestExample {
  /** Source file the comment is in (relative to the project root). */
  file: string;
  /** 1-based source line of each example line. */
  lines: Array<{ line: number; text: string }>;
}

export interface DoctestFailure {
  file: string;
  line: number;
  message: string;
}

const EXPECTATION = /^(.*?);?\s*\/\/\s*(?:=>|→)\s*(.+)$/;
const THROWS = /^(.*?);?\s*\/\/\s*throws\s+(\/.+\/[a-z]*)\s*$/;

/** True for an example line that states a result: an expected value or an expected error. */
export function isCheckLine(text: string): boolean {
  return EXPECTATION.test(text) || THROWS.test(text);
}

/** The `@example` blocks of a source text that carry at least one expected value. */
export function extractExamples(source: string, file: string): DoctestExample[] {
  const out: DoctestExample[] = [];
  for (const m of source.matchAll(/\/\*\*([\s\S]*?)\*\//g)) {
    const firstLine = source.slice(0, m.index).split('\n').length;
    const lines = m[1]!.split('\n').map((raw, i) => ({ line: firstLine + i, text: raw.replace(/^\s*\* ?/, '') }));
    for (let i = 0; i < lines.length; i += 1) {
      if (lines[i]!.text.trim() !== '@example') continue;
      const block: DoctestExample['lines'] = [];
      for (let j = i + 1; j < lines.length && !lines[j]!.text.trim().startsWith('@'); j += 1) {
        if (lines[j]!.text.trim() !== '') block.push(lines[j]!);
      }
      if (block.some((l) => isCheckLine(l.text))) out.push({ file, lines: block });
    }
  }
  return out;
}

/** Runs one example against the exports of `modulePath` (a built .js file); the failures, empty if none. */
export function runExample(example: DoctestExample, modulePath: string): DoctestFailure[] {
  const failures: DoctestFailure[] = [];
  const moduleExports = require(modulePath) as Record<string, unknown>;
  const declared = new Set(example.lines.flatMap((l) => [...l.text.matchAll(/\b(?:const|let|var|function|import)\s+\{?\s*(\w+)/g)].map((d) => d[1]!)));
  const names = Object.keys(moduleExports).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n) && !declared.has(n));
  const body = example.lines.map(({ line, text }) => {
    const t = THROWS.exec(text);
    if (t) return `__throws(${line}, () => (${t[1]}), ${t[2]});`;
    const m = EXPECTATION.exec(text);
    return m ? `__check(${line}, () => (${m[1]}), () => (${m[2]}));` : text;
  });
  const program = [`const { ${names.join(', ')} } = __module as any;`, ...body].join('\n');
  const js = ts.transpileModule(program, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const check = (line: number, actual: () => unknown, expected: () => unknown) => {
    try {
      assert.deepStrictEqual(actual(), expected());
    } catch (e) {
      failures.push({ file: example.file, line, message: e instanceof Error ? e.message.split('\n').slice(0, 8).join('\n') : String(e) });
    }
  };
  const throws = (line: number, run: () => unknown, pattern: RegExp) => {
    try {
      run();
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      if (!pattern.test(message)) failures.push({ file: example.file, line, message: `threw "${message}", which does not match ${pattern}` });
      return;
    }
    failures.push({ file: example.file, line, message: `expected an error matching ${pattern}, but nothing was thrown` });
  };
  try {
    new Function('__module', 'require', '__check', '__throws', 'exports', js)(moduleExports, createRequire(modulePath), check, throws, {});
  } catch (e) {
    failures.push({ file: example.file, line: example.lines[0]!.line, message: `example threw: ${e instanceof Error ? e.message : String(e)}` });
  }
  return failures;
}

/** Every lib/**\/*.ts file under `root` with at least one checked example, and its examples. */
export function libExamples(root: string): Array<{ source: string; module: string; examples: DoctestExample[] }> {
  const walk = (dir: string): string[] =>
    readdirSync(dir).sort().flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return walk(path);
      return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
    });
  return walk(join(root, 'lib'))
    .map((path) => {
      const source = relative(root, path);
      return { source, module: join(root, 'dist', source.replace(/\.ts$/, '.js')), examples: extractExamples(readFileSync(path, 'utf8'), source) };
    })
    .filter((f) => f.examples.length > 0);
}
