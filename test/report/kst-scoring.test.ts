import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analysisFiles, analyze, loadResponses, scoreKstResponses, validateResponses } from '../../lib/analysis';
import { loadDomain, loadDomainDir, presentation } from '../../lib/kst';
import { main } from '../../cli/kstbench';
import { analysisProvenance, mappingExamples, scoredPreviewRows, scoredResponsesText, statusCounts, validityComparison, writtenFilesText, type FinalRecordLike } from '../../lib/report/kst-scoring';
import { CsvMetaSchema } from '../../lib/records/csv-meta';

const ROOT = join(__dirname, '..', '..');
const slope = loadDomain(join(ROOT, 'data', 'raw', 'domains', 'slope.json'));

test('status counts: valid first, then invalid by reason, with shares', () => {
  const rows = statusCounts([
    { status: 'valid' },
    { status: 'invalid', reason: 'truncated' },
    { status: 'valid' },
    { status: 'invalid', reason: 'refusal' },
    { status: 'invalid', reason: 'truncated' },
    { status: 'missing', reason: 'timeout' },
    { status: 'valid' },
    { status: 'valid' },
  ]);
  assert.deepEqual(rows, [
    { status: 'valid', reason: '', n: 4, share: 0.5 },
    { status: 'invalid', reason: 'refusal', n: 1, share: 0.125 },
    { status: 'invalid', reason: 'truncated', n: 2, share: 0.25 },
    { status: 'missing', reason: 'timeout', n: 1, share: 0.125 },
  ]);
});

test('mapping examples map positions through the presentation again and flag disagreement', () => {
  const o1 = presentation(slope, 1);
  const o2 = presentation(slope, 2);
  // Positions showing SL4 and SL2 (in that order) under order 1; canonical order is SL2, SL4.
  const pos = [o1.toPosition('SL4'), o1.toPosition('SL2')];
  const records: FinalRecordLike[] = [
    { run_id: 'r0', domain: 'slope', condition: 'P0', order: 1, state: ['SL1'], status: 'valid', raw_text: 'x'.repeat(30), recommended: ['SL2', 'SL4'], recommended_positions: pos },
    { run_id: 'r1', domain: 'slope', condition: 'P1', order: 2, state: [], status: 'valid', raw_text: '{}', recommended: ['SL2'], recommended_positions: [o2.toPosition('SL1')] },
    { run_id: 'r2', domain: 'slope', condition: 'P1', order: 1, state: [], status: 'valid', raw_text: '{}', recommended: ['SL1'], recommended_positions: [o1.toPosition('SL1')] },
    { run_id: 'r3', domain: 'slope', condition: 'P2', order: 1, state: [], status: 'invalid', reason: 'refusal', raw_text: "I'm sorry", recommended: null, recommended_positions: null },
  ];
  const ex = mappingExamples(records, [slope], { maxText: 10 });
  assert.deepEqual(ex.map((e) => e.run_id), ['r0', 'r1', 'r3']); // first valid of P0, of P1 (none for P2, P3), first invalid
  assert.equal(ex[0]!.mapping, `${pos[0]}→SL4, ${pos[1]}→SL2`);
  assert.equal(ex[0]!.recommended, '{SL2,SL4}');
  assert.equal(ex[0]!.agrees, true);
  assert.equal(ex[0]!.raw_text, `${'x'.repeat(10)}…`);
  assert.equal(ex[1]!.agrees, false); // recorded SL2, but the position shows SL1
  assert.equal(ex[2]!.status, 'invalid (refusal)');
  assert.equal(ex[2]!.agrees, null);
});

test('scored responses file: one line per scored response with the five scores, worked by hand', () => {
  const records = validateResponses(
    [
      { line: 1, value: { run_id: 'a', model: 'm', domain: 'slope', condition: 'P0', order: 1, state: ['SL1'], recommended: ['SL2'], status: 'valid' } },
      { line: 2, value: { run_id: 'b', model: 'm', domain: 'slope', condition: 'P0', order: 2, state: ['SL1'], recommended: null, status: 'invalid' } },
      { line: 3, value: { run_id: 'c', model: 'm', domain: 'slope', condition: 'P1', order: 1, state: ['SL1'], status: 'missing' } },
    ],
    [slope],
  );
  const lines = scoredResponsesText(scoreKstResponses(records).scored).trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.equal(lines.length, 2);
  // P = {SL2}, T = {SL2, SL4}: precision 1, recall 1/2, F1 2·1/(1+2) = 2/3, Jaccard 1/2, not exact.
  assert.deepEqual(lines[0], {
    run_id: 'a', model: 'm', domain: 'slope', condition: 'P0', order: 1, state: ['SL1'], status: 'valid',
    recommended: ['SL2'], reference: ['SL2', 'SL4'], exact: 0, precision: 1, recall: 0.5, f1: 2 / 3, jaccard: 0.5, simulated: false,
  });
  assert.deepEqual([lines[1].exact, lines[1].precision, lines[1].recall, lines[1].f1, lines[1].jaccard], [0, 0, 0, 0, 0]);
});

test('analysisFiles with analysisProvenance reproduce kstbench analyze byte for byte', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-n1-'));
  try {
    const domainsDir = join(ROOT, 'test', 'fixtures', 'analyze', 'domains');
    const responses = join(ROOT, 'test', 'fixtures', 'analyze', 'responses.jsonl');
    const cliOut = join(dir, 'cli');
    const write = process.stderr.write;
    process.stderr.write = (() => true) as typeof process.stderr.write;
    let code: number;
    try {
      code = await main(['analyze', '--domains', domainsDir, '--responses', responses, '--out', cliOut, '--boot', '200', '--perm', '300', '--seed', '7']);
    } finally {
      process.stderr.write = write;
    }
    assert.equal(code, 0);
    const domains = loadDomainDir(domainsDir);
    const result = analyze(domains, loadResponses(responses, domains), { seed: '7', resamples: 200, flips: 300 });
    const files = analysisFiles(result, join(dir, 'nb'), analysisProvenance(responses, domains));
    assert.equal(files.length, 13); // six CSVs, each with its sidecar, and analysis.json
    for (const f of files) {
      const name = f.path.slice(join(dir, 'nb').length + 1);
      assert.equal(f.data, readFileSync(join(cliOut, name), 'utf8'), name);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('analysisFiles labels every CSV in a sidecar: simulated when the responses are, Table 1 never', () => {
  const domainsDir = join(ROOT, 'test', 'fixtures', 'analyze', 'domains');
  const responses = join(ROOT, 'test', 'fixtures', 'analyze', 'responses.jsonl');
  const domains = loadDomainDir(domainsDir);
  const result = analyze(domains, loadResponses(responses, domains), { seed: '7', resamples: 20, flips: 30 });
  const sidecars = (r: typeof result) =>
    Object.fromEntries(
      analysisFiles(r, '/out')
        .filter((f) => f.path.endsWith('.csv.meta.json'))
        .map((f) => [f.path.slice('/out/'.length), CsvMetaSchema.parse(JSON.parse(f.data))]),
    );
  const csvNames = ['table1.csv', 'table3.csv', 'table4.csv', 'domain_condition.csv', 'contrasts.csv', 'order_agreement.csv'];
  const collected = sidecars({ ...result, counts: { ...result.counts, simulated: 0 } });
  assert.deepEqual(Object.keys(collected).sort(), csvNames.map((n) => `${n}.meta.json`).sort());
  for (const name of csvNames) assert.equal(collected[`${name}.meta.json`]!.simulated, false, name);
  const simulated = sidecars({ ...result, counts: { ...result.counts, simulated: 1 } });
  for (const name of csvNames) assert.equal(simulated[`${name}.meta.json`]!.simulated, name !== 'table1.csv', name);
  // The sidecar describes its CSV: same header, same number of rows.
  const csv = analysisFiles(result, '/out').find((f) => f.path === '/out/table3.csv')!.data.trimEnd().split('\n');
  assert.deepEqual(simulated['table3.csv.meta.json']!.columns, csv[0]!.split(','));
  assert.equal(simulated['table3.csv.meta.json']!.rows, csv.length - 1);
});

test('validity beside the paper: all 2,400 valid there, counts here', () => {
  const rows = validityComparison(
    [{ status: 'valid' }, { status: 'invalid', reason: 'truncated' }, { status: 'invalid', reason: 'refusal' }, { status: 'missing', reason: 'timeout' }],
    { valid: 2400, truncated: 0, missing: 0 },
  );
  assert.deepEqual(rows, [
    { outcome: 'responses', n: 4, 'n (paper)': 2400 },
    { outcome: 'valid', n: 1, 'n (paper)': 2400 },
    { outcome: 'invalid (any reason)', n: 2, 'n (paper)': 0 },
    { outcome: 'invalid: truncated', n: 1, 'n (paper)': 0 },
    { outcome: 'missing (transport failure)', n: 1, 'n (paper)': 0 },
  ]);
});

test('scoredPreviewRows: the first scored responses as sets in the notation of the mapping table, an invalid answer marked', () => {
  const records = validateResponses(
    [
      { line: 1, value: { run_id: 'a', model: 'm', domain: 'slope', condition: 'P0', order: 1, state: [], recommended: ['SL1'], status: 'valid' } },
      { line: 2, value: { run_id: 'b', model: 'm', domain: 'slope', condition: 'P2', order: 2, state: ['SL1'], recommended: null, status: 'invalid' } },
      { line: 3, value: { run_id: 'c', model: 'm', domain: 'slope', condition: 'P3', order: 1, state: ['SL1', 'SL2'], recommended: ['SL3', 'SL4'], status: 'valid' } },
    ],
    [slope],
  );
  const rows = scoredPreviewRows(scoreKstResponses(records).scored, 2);
  // ∅'s fringe is {SL1}: an exact answer; {SL1}'s fringe is {SL2,SL4}, and an invalid answer scores 0 everywhere.
  assert.deepEqual(rows, [
    { run_id: 'a', model: 'm', condition: 'P0', state: '∅', recommended: '{SL1}', reference: '{SL1}', exact: 1, precision: 1, recall: 1, f1: 1, jaccard: 1 },
    { run_id: 'b', model: 'm', condition: 'P2', state: '{SL1}', recommended: '(invalid)', reference: '{SL2,SL4}', exact: 0, precision: 0, recall: 0, f1: 0, jaccard: 0 },
  ]);
});

test('writtenFilesText: one line per file with its UTF-8 size', () => {
  assert.equal(writtenFilesText([{ path: 'out/a.csv', data: 'x,é\n' }, { path: 'out/b.json', data: '' }]), 'out/a.csv  5 bytes\nout/b.json  0 bytes');
});
