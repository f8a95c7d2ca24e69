/**
 * `collect --states FILE`: the three accepted forms, validation against the domains, and a collection
 * run restricted to the sampled states.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { collectKst, type CollectParams } from '../../lib/collect/collect';
import { parseStatesFile } from '../../lib/collect/states-file';
import { loadDomainDir, sampleStates } from '../../lib/kst';
import { answerPosition1, okResult, readLines, stubProvider, tempDir, writePrices, writeTinyDomains } from './helpers';

const domainsDir = writeTinyDomains();
const domains = loadDomainDir(domainsDir);
const tinyA = domains.find((d) => d.id === 'tiny-a')!;

test('a sampleStates result is accepted as written, with its scheme, seed and weights recorded', () => {
  const sample = sampleStates(tinyA, { size: 40, seed: 'states-1' });
  const parsed = parseStatesFile(JSON.stringify(sample), 'sample.json', domains);
  assert.deepEqual([...parsed.states.keys()], ['tiny-a']);
  assert.deepEqual(parsed.states.get('tiny-a'), sample.states);
  assert.deepEqual(parsed.domains['tiny-a'], { states: sample.states.length, scheme: sample.scheme, seed: 'states-1', draws: 40, weights: sample.weights });
  assert.match(parsed.sha256, /^[0-9a-f]{64}$/);
  // an array of samples is the same selection
  const asArray = parseStatesFile(JSON.stringify([sample]), 'samples.json', domains);
  assert.equal(asArray.sha256, parsed.sha256);
});

test('a plain map is accepted; IDs are put in canonical order; the fingerprint depends on content only', () => {
  // tiny-a: A → B, A → C. Canonical order A, B, C.
  const map = parseStatesFile(JSON.stringify({ 'tiny-a': [[], ['C', 'A'], ['A', 'B', 'C']], 'tiny-b': [['X']] }), 'm.json', domains);
  assert.deepEqual(map.states.get('tiny-a'), [[], ['A', 'C'], ['A', 'B', 'C']]);
  assert.deepEqual(map.states.get('tiny-b'), [['X']]);
  const reordered = parseStatesFile(JSON.stringify({ 'tiny-b': [['X']], 'tiny-a': [[], ['A', 'C'], ['A', 'B', 'C']] }), 'other.json', domains);
  assert.equal(reordered.sha256, map.sha256);
  assert.equal(map.domains['tiny-a']!.weights, null);
});

test('bad states files are input errors naming the file, domain and state', () => {
  const bad = (value: unknown) => () => parseStatesFile(typeof value === 'string' ? value : JSON.stringify(value), 's.json', domains);
  const named = (pattern: RegExp) => (e: Error) => e.name === 'InputError' && e.message.startsWith('s.json: ') && pattern.test(e.message);
  assert.throws(bad('{oops'), (e: Error) => e.name === 'InputError' && e.message.startsWith('s.json:1: not valid JSON (')); // the line of the syntax error
  assert.throws(bad({ 'tiny-a': 'A' }), named(/expected a state sample/));
  assert.throws(bad({ nowhere: [['A']] }), named(/unknown domain "nowhere"/));
  assert.throws(bad({ 'tiny-a': [['A'], ['Q']] }), named(/state #2 \["Q"\]: unknown component ID\(s\) Q/));
  assert.throws(bad({ 'tiny-a': [['B']] }), named(/state #1 \["B"\]: not a knowledge state: B is in the state but its prerequisite A is not/));
  assert.throws(bad({ 'tiny-a': [['A', 'C'], ['C', 'A']] }), named(/state #2 \["C","A"\]: the same state as state #1/));
  assert.throws(bad({ 'tiny-a': [['A', 'A']] }), named(/an ID is listed twice/));
  assert.throws(bad({ 'tiny-a': [] }), named(/no states/));
  const sample = sampleStates(tinyA, { size: 10, seed: 's' });
  assert.throws(bad([sample, sample]), named(/domain tiny-a is listed twice/));
  assert.throws(bad({ ...sample, weights: [1] }), named(/1 weights for \d+ states/));
});

test('collect --states restricts the design to the listed states; a changed selection is refused on resume', async () => {
  const out = tempDir();
  const statesFile = join(tempDir(), 'states.json');
  writeFileSync(statesFile, JSON.stringify({ 'tiny-a': [['A'], ['A', 'B', 'C']] }));
  const params: CollectParams = {
    domainsDir,
    models: ['openai:stub'],
    outDir: out,
    conditions: ['P0', 'P2'],
    orders: 2,
    concurrency: 2,
    maxOutputTokens: 1000,
    timeoutMs: 1000,
    maxRetries: 0,
    seed: '42',
    pricesFile: writePrices(tempDir()),
    statesFile,
  };
  const provider = stubProvider('openai:stub', (req) => okResult(answerPosition1(req)));
  const deps = { createProvider: () => provider, env: {}, sleep: async () => {} };
  const r = await collectKst(params, deps);
  assert.equal(r.status, 'complete');
  // tiny-a: the 2 listed states; tiny-b (not in the file): all 3 states; × 2 conditions × 2 orders
  assert.equal(r.total, (2 + 3) * 2 * 2);
  const responses = readLines(join(out, 'responses.jsonl'));
  const tinyAStates = new Set(responses.filter((x) => x.domain === 'tiny-a').map((x) => x.state.join(',')));
  assert.deepEqual([...tinyAStates].sort(), ['A', 'A,B,C']);
  const run = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
  assert.equal(run.params.states_file, statesFile);
  assert.deepEqual(run.design.states, { 'tiny-a': 2, 'tiny-b': 3 });
  assert.equal(run.design.state_sample.domains['tiny-a'].states, 2);
  assert.match(run.fingerprint.states_sha256, /^[0-9a-f]{64}$/);

  writeFileSync(statesFile, JSON.stringify({ 'tiny-a': [['A']] }));
  await assert.rejects(collectKst(params, deps), (e: Error) => e.name === 'InputError' && /states_sha256/.test(e.message));
});
