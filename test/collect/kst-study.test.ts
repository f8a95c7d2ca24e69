import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../lib/errors';
import { loadDomainDir } from '../../lib/kst';
import { extractedLine, extractedText, kstJobs } from '../../lib/collect/kst-study';
import { tempDir, writeFreeDomain, writeTinyDomains } from './helpers';
import { MAX_DESIGN_CELLS, MAX_P3_STATES } from '../../lib/collect/caps';

// tiny-a (A before B and C): {}, {A}, {A,B}, {A,C}, {A,B,C} = 5 states; tiny-b (X before Y): 3 states.
const DOMAINS = loadDomainDir(writeTinyDomains());

test('one job per state × condition × order × model: 8 × 2 × 2 × 2 = 64, run IDs unique', () => {
  const jobs = kstJobs(DOMAINS, { models: ['simulated:sim-a', 'openai:gpt-x'], conditions: ['P0', 'P2'], orders: 2, seed: '1' });
  assert.equal(jobs.length, 64);
  assert.equal(new Set(jobs.map((j) => j.runId)).size, 64);
  assert.equal(jobs.filter((j) => j.model === 'openai:gpt-x').length, 32);
  assert.equal(jobs.filter((j) => j.meta.domain.id === 'tiny-a').length, 5 * 2 * 2 * 2);
  const req = jobs[0]!.request();
  assert.equal(req.jsonSchema['type'], 'object');
  assert.ok(req.user.length > 0 && req.system.length > 0);
});

test('a state sample restricts that domain only; other domains keep every state', () => {
  const states = new Map([['tiny-a', [['A'], ['A', 'B']]]]);
  const jobs = kstJobs(DOMAINS, { models: ['simulated:sim-a'], conditions: ['P0'], orders: 1, seed: '1', states });
  assert.equal(jobs.length, 2 + 3);
  assert.deepEqual(jobs.filter((j) => j.meta.domain.id === 'tiny-a').map((j) => [...j.meta.cell.state].sort().join('')).sort(), ['A', 'AB']);
});

test('an unknown condition or a malformed model spec is refused', () => {
  assert.throws(() => kstJobs(DOMAINS, { models: ['simulated:sim-a'], conditions: ['P4'], orders: 1, seed: '1' }), (e: unknown) => e instanceof InputError && e.message === 'unknown condition "P4" (expected P0, P1, P2 or P3)');
  assert.throws(() => kstJobs(DOMAINS, { models: ['gpt-4o'], conditions: ['P0'], orders: 1, seed: '1' }), InputError);
});

test('extractedLine keeps the analyze fields and the simulated flag; a record without them is refused', () => {
  const record = { run_id: 'r1', model: 'simulated:sim-a', domain: 'tiny-a', condition: 'P0', order: 1, state: ['A'], recommended: ['B'], status: 'valid', simulated: true, raw_text: 'dropped' };
  assert.deepEqual(extractedLine(record), { run_id: 'r1', model: 'simulated:sim-a', domain: 'tiny-a', condition: 'P0', order: 1, state: ['A'], recommended: ['B'], status: 'valid', simulated: true });
  const missing = { ...record, recommended: undefined, status: 'missing', simulated: undefined };
  assert.deepEqual(extractedLine(missing), { run_id: 'r1', model: 'simulated:sim-a', domain: 'tiny-a', condition: 'P0', order: 1, state: ['A'], recommended: null, status: 'missing', simulated: false });
  assert.equal(extractedText([record, missing]).split('\n').length, 3, 'two lines and a final newline');
  assert.throws(() => extractedLine({ ...record, status: 'great' }));
  assert.throws(() => extractedLine({ ...record, order: 'first' }));
});

test('a design over MAX_DESIGN_CELLS is refused before a state is enumerated, with the advice to sample (64 free tasks: 2^64 states)', () => {
  const dir = tempDir();
  writeFreeDomain(dir, 'wide', 64);
  const wide = loadDomainDir(dir);
  assert.throws(
    () => kstJobs(wide, { models: ['simulated:sim-a'], conditions: ['P0'], orders: 1, seed: '1' }),
    (e: unknown) =>
      e instanceof InputError &&
      e.message === `the design: 18446744073709551616 states × 1 condition(s) × 1 order(s) × 1 model(s) = 18446744073709551616 cells, over the ${MAX_DESIGN_CELLS} a collection holds in memory; collect a seeded sample of the states (kstbench sample --domain FILE --n N --out states.json, then collect --states states.json)`,
  );
  // A sample of the same domain is well under the cap: the refusal is about the design's size, not the domain.
  const states = new Map([['wide', [[], ['wide-1']]]]);
  assert.equal(kstJobs(wide, { models: ['simulated:sim-a'], conditions: ['P0'], orders: 1, seed: '1', states }).length, 2);
});

test('P3 on a domain of more than MAX_P3_STATES states is refused, sampled or not (its prompt lists every state)', () => {
  const dir = tempDir();
  writeFreeDomain(dir, 'wide', 16); // 65,536 states
  const wide = loadDomainDir(dir);
  const states = new Map([['wide', [['wide-1']]]]);
  assert.ok(2 ** 16 > MAX_P3_STATES);
  assert.throws(
    () => kstJobs(wide, { models: ['simulated:sim-a'], conditions: ['P0', 'P3'], orders: 1, seed: '1', states }),
    (e: unknown) => e instanceof InputError && e.message.startsWith(`--conditions: P3 lists every knowledge state in its prompt, and domain "wide" has 65536 (at most ${MAX_P3_STATES}:`),
  );
  assert.equal(kstJobs(wide, { models: ['simulated:sim-a'], conditions: ['P0', 'P2'], orders: 1, seed: '1', states }).length, 2, 'without P3 the sample is collected');
});
