/**
 * The claims ledger is complete and honest: every entry of both papers has a counterpart (a lib
 * function that exists and a notebook cell that exists and shows it) or a reason; every rebuilt entry
 * has exactly one rebuild; the statuses shown in the notebooks' claim tables are the rule's, recomputed
 * here from the data; and on input that is not simulated a difference fails.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadDomainDir } from '../../lib/kst';
import { loadResponses } from '../../lib/analysis';
import { readJsonl } from '../../lib/io';
import { loadPsiCourse, loadPsiRecords } from '../../lib/psi';
import { cellSource, readNotebook } from '../../lib/notebook/ipynb';
import { loadPublishedKst } from '../../lib/records/published-kst';
import { loadPublishedPsi } from '../../lib/records/published-psi';
import { pointerValue, type ClaimEntry } from '../../lib/records/published-claims';
import { kstClaimRows } from '../../lib/claims/kst';
import { psiClaimRows } from '../../lib/claims/psi';
import { claimsCoverage, claimsCoverageTable, evaluateClaims, type ClaimRow } from '../../lib/claims/ledger';
import { claims, doc, replicates, values } from './claim-fixture';
import { CLAIM_STATUSES } from '../../lib/claims/rule';
import { simulationGap, simulationGapIds, statedGap } from '../../lib/claims/simulation-gaps';
import { defaultReplicates } from '../../lib/claims/stored-replicates';

const root = join(__dirname, '..', '..');
const at = (...p: string[]) => join(root, ...p);
const kst = loadPublishedKst(at('data/published/kst-benchmark-2026.json'));
const psi = loadPublishedPsi(at('data/published/psi-2026.json'));
const all: ClaimEntry[] = [...kst.claims, ...psi.claims];

function kstInputs() {
  const domains = loadDomainDir(at('data/raw/domains'));
  const records = loadResponses(at('data/raw/kst/extracted.jsonl'), domains);
  const finalRecords = readJsonl(at('data/raw/kst/responses.jsonl')).lines.map((l) => l.value as { status: string; reason?: string | null });
  return { published: kst, records, finalRecords, domains };
}
function psiInputs() {
  const course = loadPsiCourse(at('data/raw/psi'));
  return { published: psi, course, round1: loadPsiRecords(at('data/raw/psi/round1.jsonl'), course), round2: loadPsiRecords(at('data/raw/psi/round2.jsonl'), course) };
}
let cached: { kst: ClaimRow[]; psi: ClaimRow[] } | undefined;
const computedRows = () => (cached ??= { kst: kstClaimRows(kstInputs()), psi: psiClaimRows(psiInputs()) });

test('every ledger entry has a counterpart or a reason', () => {
  for (const c of all) {
    const has = c.rebuilt !== undefined ? 'rebuilt' : c.not_rebuildable !== undefined && c.not_rebuildable.trim() !== '' ? 'reason' : 'none';
    assert.notEqual(has, 'none', `claim ${c.id} has neither a counterpart nor a reason`);
  }
  assert.ok(all.filter((c) => c.rebuilt).length >= 200, 'most claims are rebuilt');
});

test('every counterpart function exists and is exported from the file the ledger names', async () => {
  const modules = new Map<string, Record<string, unknown>>();
  for (const c of all) {
    // A claim rebuilt only from a ratings file names its function the same way.
    const counterpart = c.rebuilt ?? c.rebuilt_with_ratings;
    if (!counterpart) continue;
    const [file, name] = counterpart.function.split('#') as [string, string];
    assert.ok(existsSync(at(file)), `claim ${c.id}: ${file} does not exist`);
    if (!modules.has(file)) modules.set(file, (await import(at(file))) as Record<string, unknown>);
    assert.equal(typeof modules.get(file)![name], 'function', `claim ${c.id}: ${file} exports no function ${name}`);
  }
});

test('every counterpart cell exists, evaluates its own claims and shows each of them', () => {
  const notebooks = new Map<string, ReturnType<typeof readNotebook>>();
  for (const c of all) {
    if (!c.rebuilt) continue;
    const [file, id] = c.rebuilt.cell.split('#') as [string, string];
    assert.ok(existsSync(at(file)), `claim ${c.id}: ${file} does not exist`);
    if (!notebooks.has(file)) notebooks.set(file, readNotebook(at(file)));
    const cell = notebooks.get(file)!.cells.find((x) => x.id === id);
    assert.ok(cell, `claim ${c.id}: ${file} has no cell ${id}`);
    const source = cellSource(cell);
    assert.match(source, new RegExp(`(kst|psi)ClaimRows\\([^]*cells: \\["${id}"\\]`), `claim ${c.id}: cell ${id} does not evaluate its claims`);
    const shown = JSON.stringify((cell as { outputs?: unknown[] }).outputs ?? []);
    assert.ok(shown.includes(c.id), `claim ${c.id}: the executed cell ${file}#${id} does not show it (re-run npm run reproduce)`);
  }
});

test('statuses come from the rule on the shipped data; every outside claim has its own reason, and nothing differs', () => {
  const { kst: k, psi: p } = computedRows();
  const rows = [...k, ...p];
  for (const r of rows) {
    assert.ok((CLAIM_STATUSES as readonly string[]).includes(r.status) || r.status === 'not rebuildable', `${r.id}: ${r.status}`);
    if (r.status === 'not rebuildable') assert.notEqual(r.note, '');
  }
  const unexplained = rows.filter((r) => r.status === 'outside-simulation-spread' && simulationGap(r.id) === undefined).map((r) => `${r.id}: paper ${r.printed}, simulation ${r.simulation}`);
  assert.deepEqual(unexplained, [], 'an outside claim needs its own reason in lib/claims/simulation-gaps.ts');
  // No excuse without a claim it excuses: every reason names a claim that is outside now.
  const stale = simulationGapIds().filter((id) => rows.find((r) => r.id === id)?.status !== 'outside-simulation-spread');
  assert.deepEqual(stale, [], 'a reason for a claim that is not outside (remove it, or the claim id is wrong)');
  // A by-construction claim (design counts, domain structures) must match even on simulated data.
  const differs = rows.filter((r) => r.status === 'differs').map((r) => `${r.id}: paper ${r.printed}, computed ${r.computed}`);
  assert.deepEqual(differs, []);
  const c = claimsCoverage(rows);
  assert.equal(c.total, all.length);
  assert.equal(c.rebuilt + c.notRebuildable, c.total);
});

test('every reason states the gap it explains, and the stated gap is the measured one (so a refit that changes it fails here)', () => {
  const stats = { ...defaultReplicates('kst').claims, ...defaultReplicates('psi').claims };
  for (const id of simulationGapIds()) {
    const c = all.find((x) => x.id === id)!;
    const summary = stats[id]!;
    const printed = pointerValue(c.id.startsWith('kst.') ? kst : psi, c.value) as number | boolean | string;
    const stated = statedGap(id)!;
    if (summary.kind === 'number') {
      const measured = (printed as number) - summary.mean;
      assert.ok(Math.sign(stated) === Math.sign(measured) && Math.abs(stated - measured) <= Math.max(0.25 * Math.abs(measured), summary.sd, 0.5 * 10 ** -(c.decimals ?? 0)), `${id}: reason says paper − simulation mean ≈ ${stated}, measured ${measured.toFixed(4)}`);
    } else {
      const share = (summary.counts[printed === true ? 'yes' : printed === false ? 'no' : String(printed)] ?? 0) / summary.n;
      assert.ok(Math.abs(stated - share) <= 0.05, `${id}: reason says ${stated} of the replicates give the paper's value, measured ${share}`);
    }
  }
});

test('the simulated flag comes from the records: the same data marked as collected gets match / close / differs by the rule', () => {
  const inputs = kstInputs();
  const asCollected = { ...inputs, records: inputs.records.map((r) => ({ ...r, simulated: false })) };
  const before = computedRows().kst;
  const after = kstClaimRows(asCollected);
  const count = (rows: ClaimRow[], s: string) => rows.filter((r) => r.status === s).length;
  assert.ok(count(before, 'within-simulation-spread') > 0 && count(before, 'match') > 0);
  assert.equal(count(after, 'within-simulation-spread') + count(after, 'outside-simulation-spread'), 0, 'collected data is never judged by the simulation');
  assert.ok(count(after, 'differs') > 0, 'the shipped corpus differs from the paper somewhere');
  // The interval stays in view as a reference on collected data.
  assert.ok(after.filter((r) => r.basis !== 'by-construction' && r.status !== 'not rebuildable').every((r) => r.simulation !== ''));
});

test('the claim tables written by the notebooks carry exactly the statuses the rule gives now', () => {
  const dir = at('data/processed/tables');
  const lines = new Map<string, string>();
  for (const name of readdirSync(dir).filter((n) => /-claims-/.test(n) && n.endsWith('.csv') && !n.startsWith('00-'))) {
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n').slice(1)) {
      const id = line.split(',')[0]!;
      if (id === '') continue;
      assert.ok(!lines.has(id), `claim ${id} is tabled twice (${name})`);
      lines.set(id, line);
    }
  }
  const { kst: k, psi: p } = computedRows();
  for (const r of [...k, ...p]) {
    if (r.status === 'not rebuildable') continue;
    const line = lines.get(r.id);
    assert.ok(line, `claim ${r.id}: in no claims table of data/processed/tables (re-run npm run reproduce)`);
    assert.match(line, new RegExp(`,${r.status},(note \\d+)?$`), `claim ${r.id}: the table says ${line}, the rule says ${r.status}`);
  }
});

test('evaluateClaims: printed and computed side by side, the rule decides, a reason replaces a status', () => {
  const rows = evaluateClaims(doc, claims, values, true, replicates);
  assert.deepEqual(rows.map((r) => [r.id, r.printed, r.computed, r.simulation, r.status]), [
    ['kst.table3.P0.exact', '61.3', '61.00', '[62.00, 66.00]', 'outside-simulation-spread'],
    ['kst.table4.x.P0.rank', '4', '4', '[2.0, 5.0]', 'within-simulation-spread'],
    ['kst.models.p2-above-p1', 'yes', 'yes', 'no 80 %; yes 20 %', 'within-simulation-spread'],
    ['kst.table3.P0.n', '600', '600', '', 'match'],
    ['kst.collection.cost', '4', '', '', 'not rebuildable'],
  ]);
  assert.match(rows[0]!.note, /Gap: the paper's 61\.3 lies 0\.70 below/);
  assert.equal(rows[4]!.note, 'needs the bills');
  assert.throws(() => evaluateClaims(doc, claims, new Map(), true, replicates), /claim kst\.table3\.P0\.exact: its counterpart computed no value/);
  assert.throws(() => evaluateClaims(doc, claims, values, true), /claim kst\.table3\.P0\.exact: simulated input, but no replicate statistics/);
  // Not simulated: the same number is judged against the paper by the printed-decimals rule, the interval kept beside.
  const collected = evaluateClaims(doc, claims, values, false, replicates);
  assert.deepEqual(collected.map((r) => r.status), ['differs', 'match', 'match', 'match', 'not rebuildable']);
  assert.equal(collected[0]!.simulation, '[62.00, 66.00]');
});

test('a value the input cannot give is not rebuildable on this input, with its reason, and counted so; never differs', () => {
  const some = new Map(values);
  some.set('kst.table3.P0.n', { value: 0, unavailable: 'no final records' });
  some.set('kst.models.p2-above-p1', { value: false, unavailable: 'no prompts recorded' });
  for (const simulated of [true, false]) {
    const rows = evaluateClaims(doc, claims, some, simulated, replicates);
    assert.deepEqual(rows.slice(2, 4).map((r) => [r.id, r.computed, r.status, r.note, r.cell]), [
      ['kst.models.p2-above-p1', '', 'not rebuildable', 'cannot be checked on this input: no prompts recorded', 'notebooks/04-x.ipynb#claims-x'],
      ['kst.table3.P0.n', '', 'not rebuildable', 'cannot be checked on this input: no final records', 'notebooks/04-x.ipynb#claims-x'],
    ]);
    const coverage = claimsCoverage(rows);
    assert.deepEqual([coverage.rebuilt, coverage.notRebuildable, coverage.byBasis['by-construction']['not rebuildable'], coverage.byBasis['by-construction'].match], [2, 3, 1, 0]);
  }
  // Without `unavailable` the same wrong values read as the rule says: 0 against 600 differs.
  const wrong = new Map(values).set('kst.table3.P0.n', { value: 0 });
  assert.equal(evaluateClaims(doc, claims, wrong, false)[3]!.status, 'differs');
});

test('the coverage table for a report links each claim to its notebook cell', () => {
  const [first, , , , last] = claimsCoverageTable(evaluateClaims(doc, claims, values, true, replicates));
  assert.equal(first!.notebook, '04-x.ipynb');
  assert.equal(first!.cell, 'claims-x');
  assert.equal(first!.anchor, '04-x.ipynb#claims-x');
  assert.equal(last!.anchor, null);
});

test('computedFromCheck: a check the input cannot show stays unavailable (never a false no); otherwise holds with its detail', async () => {
  const { computedFromCheck } = await import('../../lib/claims/ledger');
  assert.deepEqual(computedFromCheck({ holds: false, unavailable: 'no prompts', prompts: 0, detail: 'no prompts' }), { value: false, unavailable: 'no prompts' });
  assert.deepEqual(computedFromCheck({ holds: false, prompts: 3, detail: 'record 2 leaks' }), { value: false, detail: 'record 2 leaks' });
  assert.deepEqual(computedFromCheck({ holds: true, prompts: 3, groups: 1, detail: '3 prompts' }), { value: true, detail: '3 prompts' });
});
