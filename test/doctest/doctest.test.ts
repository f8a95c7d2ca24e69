import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { extractExamples, isCheckLine, libExamples, runExample } from './doctest';

const ROOT = resolve(__dirname, '..', '..');

test('every @example with expected values in lib/ holds against the built dist', () => {
  const files = libExamples(ROOT);
  const examples = files.reduce((n, f) => n + f.examples.length, 0);
  const checks = files.reduce((n, f) => n + f.examples.reduce((k, e) => k + e.lines.filter((l) => isCheckLine(l.text)).length, 0), 0);
  assert.ok(examples >= 10, `only ${examples} checked examples found`);
  const failures = files.flatMap((f) => {
    assert.ok(existsSync(f.module), `${f.module} is missing: run npm run build first`);
    return f.examples.flatMap((e) => runExample(e, f.module));
  });
  assert.deepEqual(failures.map((f) => `${f.file}:${f.line}: ${f.message}`), [], `${failures.length} of ${checks} doctest checks failed`);
});

test('the runner fails a wrong expected value, an example that throws, and names the line', () => {
  const source = [
    '/**',
    ' * @example',
    ' * mean([1, 2]); // => 1.5',
    ' * mean([1, 2]); // → 2',
    ' */',
    '/**',
    ' * @example',
    ' * notAFunction(); // => 1',
    ' */',
    '/**',
    ' * @example',
    ' * mean([1, 2]) (prose without an expected value is not run)',
    ' */',
  ].join('\n');
  const examples = extractExamples(source, 'fixture.ts');
  assert.equal(examples.length, 2);
  const module = join(ROOT, 'dist', 'lib', 'stats', 'mean.js');
  const wrong = runExample(examples[0]!, module);
  assert.deepEqual(wrong.map((f) => [f.file, f.line]), [['fixture.ts', 4]]);
  assert.match(wrong[0]!.message, /1\.5/);
  const threw = runExample(examples[1]!, module);
  assert.equal(threw.length, 1);
  assert.match(threw[0]!.message, /notAFunction/);
});

test('the runner checks `// throws /pattern/`: a matching error passes, a wrong message or no error fails', () => {
  const source = [
    '/**',
    ' * @example',
    " * cohensKappa(['a'], ['a', 'b']); // throws /different numbers of items \\(1 vs 2\\)/",
    " * cohensKappa([], []); // throws /something else/",
    " * cohensKappa(['a'], ['a']); // throws /anything/",
    ' */',
    '/**',
    ' * @example',
    " * cohensKappa([], []); // throws /no items/",
    ' */',
  ].join('\n');
  const examples = extractExamples(source, 'fixture.ts');
  assert.equal(examples.length, 2, 'a block whose only check is a throws line is still run');
  const module = join(ROOT, 'dist', 'lib', 'stats', 'kappa.js');
  const failures = runExample(examples[0]!, module);
  assert.deepEqual(failures.map((f) => f.line), [4, 5]);
  assert.match(failures[0]!.message, /threw "Cohen's kappa: no items", which does not match \/something else\//);
  assert.match(failures[1]!.message, /nothing was thrown/);
  assert.deepEqual(runExample(examples[1]!, module), []);
});
