import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analysisFiles, analyze } from '../../lib/analysis';
import { validateResponses } from '../../lib/analysis/responses';
import { CsvMetaSchema } from '../../lib/records/csv-meta';
import { abcDomain, responseLine } from './helpers';

const domains = [abcDomain()];
const records = (...values: Array<Record<string, unknown>>) => validateResponses(values.map((value, i) => ({ line: i + 1, value })), domains, 'r.jsonl');
const small = { seed: '1', resamples: 10, flips: 10 };

// By hand on abcDomain (A → B): the fringe of ∅ is {A, C}, of {A} it is {B, C}.
//  r1: ∅,   recommends {A, C}  → exact 1 (simulated)
//  r2: {A}, recommends {B}     → exact 0 (simulated)
//  r3: {C}, invalid answer     → scored, exact 0
//  r4: {A,B}, missing          → not scored
const four = () =>
  records(
    responseLine({ run_id: 'r1', simulated: true }),
    responseLine({ run_id: 'r2', state: ['A'], recommended: ['B'], simulated: true }),
    responseLine({ run_id: 'r3', state: ['C'], status: 'invalid', recommended: undefined }),
    responseLine({ run_id: 'r4', state: ['A', 'B'], status: 'missing', recommended: undefined }),
  );

test('analyze: counts by status, simulated records, and Table 1 from the domain alone', () => {
  const result = analyze(domains, four(), small);
  assert.deepEqual(result.counts, { responses: 4, scored: 3, valid: 2, invalid: 1, missing: 1, simulated: 2 });
  // 3 components, 6 states, and one terminal state (Q itself, whose fringe is empty).
  assert.deepEqual(result.table1.map((r) => [r.domain, r.components, r.states, r.terminal_states]), [['abc', 3, 6, 1]]);
  const p0 = result.table3.find((r) => r.condition === 'P0');
  // exact over the 3 scored responses of P0: (1 + 0 + 0) / 3
  assert.equal(p0?.n, 3);
  assert.ok(Math.abs((p0?.exact ?? NaN) - 1 / 3) < 1e-12, String(p0?.exact));
  assert.deepEqual(result.inference, small);
});

test('analysisFiles: every CSV has its sidecar; Table 1 is never simulated, the response tables are when any input is', () => {
  const files = analysisFiles(analyze(domains, four(), small), '/out');
  const names = files.map((f) => f.path.replace('/out/', ''));
  const csvs = ['table1.csv', 'table3.csv', 'table4.csv', 'domain_condition.csv', 'contrasts.csv', 'order_agreement.csv'];
  assert.deepEqual(names, [...csvs.flatMap((c) => [c, `${c}.meta.json`]), 'analysis.json']);
  const meta = (name: string) => CsvMetaSchema.parse(JSON.parse(files.find((f) => f.path === `/out/${name}.meta.json`)!.data));
  assert.equal(meta('table1.csv').simulated, false);
  for (const c of csvs.slice(1)) assert.equal(meta(c).simulated, true, c);
  // the sidecar's header and row count are the CSV's own
  const table3 = files.find((f) => f.path === '/out/table3.csv')!.data.trimEnd().split('\n');
  assert.deepEqual(meta('table3.csv').columns, table3[0]!.split(','));
  assert.equal(meta('table3.csv').rows, table3.length - 1);
  assert.equal(JSON.parse(files.at(-1)!.data).simulated_input, true);
});

test('analysisFiles: with no simulated record no sidecar says simulated', () => {
  const real = records(responseLine({ run_id: 'r1' }), responseLine({ run_id: 'r2', state: ['A'], recommended: ['B', 'C'] }));
  const files = analysisFiles(analyze(domains, real, small), '/out');
  const sidecars = files.filter((f) => f.path.endsWith('.meta.json')).map((f) => CsvMetaSchema.parse(JSON.parse(f.data)));
  assert.equal(sidecars.length, 6);
  assert.deepEqual(sidecars.map((m) => m.simulated), [false, false, false, false, false, false]);
  assert.equal(JSON.parse(files.at(-1)!.data).simulated_input, false);
});

// By hand: state ∅ has P0 and P1 responses, state {A} only P0 (its P1 response is missing), so P1−P0
// pairs 1 state; P2−P1 and P3−P2 pair none. contrasts.csv says so in its `states` column.
test('contrasts.csv: the states column counts the states each contrast paired', () => {
  const rs = records(
    responseLine({ run_id: 'a0', condition: 'P0' }),
    responseLine({ run_id: 'a1', condition: 'P1', recommended: ['A'] }),
    responseLine({ run_id: 'b0', condition: 'P0', state: ['A'], recommended: ['B', 'C'] }),
    responseLine({ run_id: 'b1', condition: 'P1', state: ['A'], status: 'missing', recommended: undefined }),
  );
  const csv = analysisFiles(analyze(domains, rs, small), '/out').find((f) => f.path === '/out/contrasts.csv')!.data.split('\n');
  assert.equal(csv[0], 'contrast,metric,states,estimate,ci_low,ci_high,p,p_holm');
  // P1−P0 exact on state ∅: 0 − 1 = −1 (the P1 answer {A} misses C).
  assert.match(csv[1]!, /^P1-P0,exact,1,-1,-1,-1,/);
  assert.equal(csv[2], 'P2-P1,exact,0,,,,,');
});
