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
import type { ClaimEntry } from '../../lib/records/published-claims';
import { kstClaimRows } from '../../lib/claims/kst';
import { psiClaimRows } from '../../lib/claims/psi';
import { claimsCoverage, claimsCoverageTable, evaluateClaims, type ClaimRow } from '../../lib/claims/ledger';
import { claims, doc, values } from './claim-fixture';
import { CLAIM_STATUSES } from '../../lib/claims/rule';
import { simulationGap } from '../../lib/claims/simulation-gaps';

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
    if (!c.rebuilt) continue;
    const [file, name] = c.rebuilt.function.split('#') as [string, string];
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

test('statuses come from the rule on the shipped data; no difference is unexplained', () => {
  const { kst: k, psi: p } = computedRows();
  for (const r of [...k, ...p]) {
    assert.ok((CLAIM_STATUSES as readonly string[]).includes(r.status) || r.status === 'not rebuildable', `${r.id}: ${r.status}`);
    if (r.status === 'differs-simulated') assert.equal(r.note, simulationGap(r.id), `${r.id}: a simulated difference carries its gap`);
    if (r.status === 'not rebuildable') assert.notEqual(r.note, '');
  }
  // On input that is not simulated, any difference is a real discrepancy and fails here.
  const differs = [...k, ...p].filter((r) => r.status === 'differs').map((r) => `${r.id}: paper ${r.printed}, computed ${r.computed}`);
  assert.deepEqual(differs, []);
  const c = claimsCoverage([...k, ...p]);
  assert.equal(c.total, all.length);
  assert.equal(c.rebuilt + c.notRebuildable, c.total);
});

test('the simulated flag comes from the records: the same data marked as collected turns every simulated difference into a failure', () => {
  const inputs = kstInputs();
  const asCollected = { ...inputs, records: inputs.records.map((r) => ({ ...r, simulated: false })) };
  const before = computedRows().kst;
  const after = kstClaimRows(asCollected);
  const count = (rows: ClaimRow[], s: string) => rows.filter((r) => r.status === s).length;
  assert.ok(count(before, 'differs-simulated') > 0, 'the shipped corpus is simulated and differs somewhere');
  assert.equal(count(after, 'differs'), count(before, 'differs-simulated'));
  assert.equal(count(after, 'match'), count(before, 'match'));
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
  const rows = evaluateClaims(doc, claims, values, true);
  assert.deepEqual(rows.map((r) => [r.id, r.printed, r.computed, r.status]), [
    ['kst.table3.P0.exact', '61.3', '61.00', 'differs-simulated'],
    ['kst.table4.x.P0.rank', '4', '4', 'match'],
    ['kst.models.p2-above-p1', 'yes', 'yes', 'match'],
    ['kst.collection.cost', '4', '', 'not rebuildable'],
  ]);
  assert.match(rows[0]!.note, /calibrated per profile and condition/);
  assert.equal(rows[3]!.note, 'needs the bills');
  assert.throws(() => evaluateClaims(doc, claims, new Map(), true), /claim kst\.table3\.P0\.exact: its counterpart computed no value/);
  // Not simulated: the same difference is a real one.
  assert.equal(evaluateClaims(doc, claims, values, false)[0]!.status, 'differs');
});

test('the coverage table for a report links each claim to its notebook cell', () => {
  const [first, , , last] = claimsCoverageTable(evaluateClaims(doc, claims, values, true));
  assert.equal(first!.notebook, '04-x.ipynb');
  assert.equal(first!.cell, 'claims-x');
  assert.equal(first!.anchor, '04-x.ipynb#claims-x');
  assert.equal(last!.anchor, null);
});
