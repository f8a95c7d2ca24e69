import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../../lib/errors';
import { loadResponses, validateResponses } from '../../lib/analysis/responses';
import { abcDomain, responseLine } from './helpers';

const domains = [abcDomain()];
const run = (...values: Array<Record<string, unknown>>) => validateResponses(values.map((value, i) => ({ line: i + 1, value })), domains, 'r.jsonl');
const refuses = (values: Array<Record<string, unknown>>, message: string) =>
  assert.throws(() => run(...values), (e: unknown) => e instanceof InputError && e.message === message);

test('validateResponses: canonical state and recommendation, key, fringe reference, simulated flag', () => {
  const [r, s] = run(
    responseLine({ state: ['C', 'A'], recommended: ['B'], simulated: true }),
    responseLine({ run_id: 'r2', status: 'invalid', recommended: ['A', 'A'] }),
  );
  assert.deepEqual(r, {
    line: 1, runId: 'r1', model: 'm1', domain: 'abc', condition: 'P0', order: 1,
    state: ['A', 'C'], stateKey: 'abc:{A,C}', status: 'valid', recommended: ['B'], reference: ['B'], simulated: true, componentCount: 3,
  });
  // an invalid response's recommendation is not checked or kept; simulated defaults to false
  assert.deepEqual([s!.recommended, s!.simulated, s!.reference, s!.stateKey], [null, false, ['A', 'C'], 'abc:{}']);
});

test('validateResponses: every problem is one InputError naming file, line and value', () => {
  refuses([responseLine({ order: 0 })], 'r.jsonl:1: order: Too small: expected number to be >=1');
  refuses([responseLine({ domain: 'xyz' })], 'r.jsonl:1: unknown domain "xyz" (known: abc)');
  refuses([responseLine({ state: ['Q'] })], 'r.jsonl:1: state: unknown component "Q" in domain abc');
  refuses([responseLine({ state: ['A', 'A'] })], 'r.jsonl:1: state: component "A" listed twice');
  refuses([responseLine({ recommended: ['C', 'Z'] })], 'r.jsonl:1: recommended: unknown component "Z" in domain abc');
  refuses([responseLine({ recommended: null })], 'r.jsonl:1: recommended: required when status is "valid"');
  refuses([responseLine({}), responseLine({ order: 2 })], 'r.jsonl:2: run_id "r1" already used on line 1');
  refuses(
    [responseLine({}), responseLine({ run_id: 'r2', recommended: ['A'] })],
    'r.jsonl:2: a second response for model m1, P0, abc:{}, order 1 (first on line 1)',
  );
  assert.throws(() => run(responseLine({ state: ['B'] })), (e: unknown) => e instanceof InputError && /^r\.jsonl:1: state \["B"\] /.test(e.message));
});

test('loadResponses reads a JSONL file; an empty file is refused naming it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kst-responses-'));
  try {
    const file = join(dir, 'responses.jsonl');
    writeFileSync(file, `${JSON.stringify(responseLine({}))}\n\n${JSON.stringify(responseLine({ run_id: 'r3', condition: 'P1' }))}\n`);
    const records = loadResponses(file, domains);
    assert.deepEqual(records.map((r) => [r.line, r.runId, r.condition]), [[1, 'r1', 'P0'], [3, 'r3', 'P1']]);
    writeFileSync(file, '\n');
    assert.throws(() => loadResponses(file, domains), (e: unknown) => e instanceof InputError && e.message === `${file}: no responses (the file has no JSON lines)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
