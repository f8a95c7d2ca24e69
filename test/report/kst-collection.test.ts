import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import seedrandom from 'seedrandom';
import { InputError } from '../../lib/errors';
import { loadDomain, loadDomainDir, presentationOrders } from '../../lib/kst';
import { CONDITION_LABELS, type Condition } from '../../lib/conditions';
import { buildPrompt, SYSTEM_PROMPT } from '../../lib/prompting';
import {
  SIMULATED_MIRRORS,
  SIMULATED_MODEL_SPECS,
  collectionPlan,
  compareFiles,
  designRows,
  displayUrl,
  notebookCollect,
  presentationRows,
  promptPreviewText,
  resetSimulatedCollection,
} from '../../lib/report/kst-collection';

const DOMAINS = join(__dirname, '..', '..', 'data', 'raw', 'domains');

test('the study design: states × 4 conditions × 6 models × 2 orders per domain, 2,400 cells in all', () => {
  const rows = designRows(loadDomainDir(DOMAINS), { models: SIMULATED_MODEL_SPECS, conditions: ['P0', 'P1', 'P2', 'P3'], orders: 2, seed: '20260908' });
  // Table 1 state counts times 48 cells per state.
  assert.deepEqual(
    rows.map((r) => [r.domain, r.states, r.cells]),
    [
      ['equation-to-graph', 7, 336],
      ['graph-to-equation', 9, 432],
      ['linear-modelling', 23, 1104],
      ['slope', 11, 528],
      ['Total', 50, 2400],
    ],
  );
  assert.deepEqual(rows[4], { domain: 'Total', states: 50, conditions: 4, models: 6, orders: 2, cells: 2400 });
});

test('six simulated models, each standing in for one model of the paper', () => {
  assert.equal(SIMULATED_MODEL_SPECS.length, 6);
  assert.equal(SIMULATED_MIRRORS['simulated:sim-a'], 'Claude Fable 5');
  assert.equal(new Set(Object.values(SIMULATED_MIRRORS)).size, 6);
});

test('presentation table: positions to IDs per order, recomputed from the documented SHA-256 + Fisher–Yates rule', () => {
  const slope = loadDomain(join(DOMAINS, 'slope.json'));
  const rows = presentationRows(slope);
  assert.equal(rows.length, 8);
  for (const order of [1, 2]) {
    const seed = createHash('sha256').update(`kstbench:slope:order:${order}`).digest('hex');
    const rng = seedrandom(seed);
    const ids = [...slope.ids];
    for (let i = ids.length - 1; i > 0; i--) {
      const j = Math.floor(rng() * (i + 1));
      [ids[i], ids[j]] = [ids[j]!, ids[i]!];
    }
    assert.deepEqual(rows.slice(0, 7).map((r) => r[`order ${order}`]), ids);
    assert.equal(rows[7]![`order ${order}`], seed);
  }
  assert.deepEqual(rows.slice(0, 7).map((r) => r.position), [1, 2, 3, 4, 5, 6, 7]);
});

test('collection plan: simulated by default, the models of KSTBENCH_MODELS otherwise', () => {
  const dirs = { simulatedOutDir: 'sim', environmentOutDir: 'real' };
  assert.deepEqual(collectionPlan({}, dirs), { source: 'simulated', models: [...SIMULATED_MODEL_SPECS], outDir: 'sim', simulated: true });
  assert.equal(collectionPlan({ KSTBENCH_MODELS: ' , ' }, dirs).source, 'simulated');
  // A study's own models: simulated ones into the simulated folder, real ones (never deleted) into the other.
  assert.deepEqual(collectionPlan({}, { ...dirs, models: ['simulated:sim-b'] }), { source: 'simulated', models: ['simulated:sim-b'], outDir: 'sim', simulated: true });
  assert.deepEqual(collectionPlan({}, { ...dirs, models: ['simulated:sim-b', 'openai:gpt-5-mini'] }), {
    source: 'study', models: ['simulated:sim-b', 'openai:gpt-5-mini'], outDir: dirs.environmentOutDir, simulated: false,
  });
  assert.throws(() => collectionPlan({}, { ...dirs, models: ['gpt-5'] }), InputError);
  assert.deepEqual(collectionPlan({ KSTBENCH_MODELS: 'openai:gpt-5-mini, anthropic:claude-sonnet-4-0', KSTBENCH_BASE_URL: ' http://localhost:8080/v1 ' }, dirs), {
    source: 'environment',
    models: ['openai:gpt-5-mini', 'anthropic:claude-sonnet-4-0'],
    outDir: 'real',
    simulated: false,
    baseUrl: 'http://localhost:8080/v1',
  });
  assert.equal(collectionPlan({ KSTBENCH_MODELS: 'simulated:sim-a' }, dirs).simulated, true);
  assert.throws(() => collectionPlan({ KSTBENCH_MODELS: 'gpt-5' }, dirs), InputError);
  assert.throws(() => collectionPlan({ KSTBENCH_MODELS: 'openai:a,openai:a' }, dirs), /twice/);
});

test('displayUrl drops credentials, query and fragment', () => {
  assert.equal(displayUrl('https://user:secret@api.example.com/v1?key=abc#x'), 'https://api.example.com/v1');
  assert.equal(displayUrl('http://localhost:11434/v1'), 'http://localhost:11434/v1');
  assert.equal(displayUrl('not a url'), '(not a URL)');
  // a host:port without a scheme parses as scheme "localhost:"; it is not shown as a made-up URL
  assert.equal(displayUrl('localhost:11434'), '(not a URL)');
  assert.equal(displayUrl('file:///etc/passwd'), '(not a URL)');
});

test('reset deletes only a deterministic (simulated) collection', () => {
  const base = mkdtempSync(join(tmpdir(), 'kstbench-n1-'));
  try {
    resetSimulatedCollection(join(base, 'absent'));
    const sim = join(base, 'sim');
    mkdirSync(sim);
    writeFileSync(join(sim, 'run.json'), JSON.stringify({ deterministic: true }));
    writeFileSync(join(sim, 'responses.jsonl'), '');
    resetSimulatedCollection(sim);
    assert.equal(existsSync(sim), false);
    const real = join(base, 'real');
    mkdirSync(real);
    writeFileSync(join(real, 'run.json'), JSON.stringify({ deterministic: false }));
    assert.throws(() => resetSimulatedCollection(real), InputError);
    const bare = join(base, 'bare');
    mkdirSync(bare);
    assert.throws(() => resetSimulatedCollection(bare), /refusing/);
    assert.equal(existsSync(real) && existsSync(bare), true);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

test('compareFiles: byte-identical, different and missing files', () => {
  const base = mkdtempSync(join(tmpdir(), 'kstbench-n1-'));
  try {
    const a = join(base, 'a');
    const b = join(base, 'b');
    mkdirSync(a);
    mkdirSync(b);
    writeFileSync(join(a, 'same'), 'abc\n');
    writeFileSync(join(b, 'same'), 'abc\n');
    writeFileSync(join(a, 'diff'), 'abc\n');
    writeFileSync(join(b, 'diff'), 'abd\n');
    writeFileSync(join(a, 'only-a'), 'x');
    const rows = compareFiles(a, b, ['same', 'diff', 'only-a']);
    assert.deepEqual(rows.map((r) => r.identical), [true, false, false]);
    assert.equal(rows[0]!.sha256, createHash('sha256').update('abc\n').digest('hex'));
    assert.equal(rows[0]!.bytes, 4);
    assert.equal(rows[2]!['bytes (reference)'], null);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

test('promptPreviewText: the state as positions with its reference, the one system message, then each condition\'s user message', () => {
  const slope = loadDomain(join(DOMAINS, 'slope.json'));
  const order = presentationOrders(slope)[0]!;
  const text = promptPreviewText(slope, ['SL1', 'SL2'], order);
  const positions = [order.toPosition('SL1'), order.toPosition('SL2')].sort((a, b) => a - b).join(', ');
  assert.ok(text.startsWith(`state {SL1,SL2} = positions ${positions} under order 1; reference (never shown): {SL3,SL4}\n\n=== system message (all conditions) ===\n${SYSTEM_PROMPT}\n\n`), text.slice(0, 300));
  const headings = [...text.matchAll(/^=== (P[0-3]) \(([^)]+)\) user message ===$/gm)].map((m) => `${m[1]} ${m[2]}`);
  assert.deepEqual(headings, ['P0', 'P1', 'P2', 'P3'].map((c) => `${c} ${CONDITION_LABELS[c as Condition]}`));
  for (const c of ['P0', 'P1', 'P2', 'P3'] as const) assert.ok(text.includes(`user message ===\n${buildPrompt(slope, ['SL1', 'SL2'], c, order).user}\n`), c);
  // Only the conditions asked for, and a set that is not a state is refused by the prompt builder.
  assert.equal([...promptPreviewText(slope, ['SL1'], order, ['P2']).matchAll(/user message ===/g)].length, 1);
  assert.throws(() => promptPreviewText(slope, ['SL3'], order), InputError);
});

test('notebookCollect: running notebook 02\'s collection cell twice gives the same simulated files; a real folder is resumed, not emptied', async () => {
  const base = mkdtempSync(join(tmpdir(), 'kstbench-nbcollect-twice-'));
  try {
    const domainsDir = join(base, 'domains');
    mkdirSync(domainsDir);
    writeFileSync(join(domainsDir, 'f.json'), JSON.stringify({ id: 'f', title: 'F', source: 't', components: ['F1', 'F2'].map((id) => ({ id, description: `task ${id}` })), prerequisites: [['F1', 'F2']] }));
    const outDir = join(base, 'out');
    const params = { domainsDir, outDir, models: ['simulated:sim-a'], conditions: ['P0', 'P2'], orders: 2, concurrency: 2, maxOutputTokens: 16000, timeoutMs: 60000, maxRetries: 0, seed: '1' };
    const files = ['attempts.jsonl', 'responses.jsonl', 'extracted.jsonl', 'run.json'];
    const read = () => files.map((f) => readFileSync(join(outDir, f), 'utf8'));
    const first = await notebookCollect({ source: 'simulated', outDir }, params);
    const once = read();
    const second = await notebookCollect({ source: 'simulated', outDir }, params);
    assert.deepEqual(read(), once, 'the second run of the cell wrote the same bytes');
    assert.deepEqual([first.resumed, second.resumed, second.written], [0, 0, first.written], 'each run collected every cell afresh');
    // Without the reset (what the cell did when the reset sat in the dry-run cell) the resume changes two files.
    const { collectKst } = await import('../../lib/collect/collect');
    await collectKst(params);
    assert.deepEqual(files.filter((f, i) => readFileSync(join(outDir, f), 'utf8') !== once[i]), ['attempts.jsonl', 'run.json']);
    // A plan from the environment (real models) never empties its folder.
    writeFileSync(join(outDir, 'keep.txt'), 'x');
    await notebookCollect({ source: 'environment', outDir }, params);
    assert.equal(readFileSync(join(outDir, 'keep.txt'), 'utf8'), 'x');
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
