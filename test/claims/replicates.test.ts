/**
 * lib/claims/replicates.ts: replicate statistics and the mutation tests of the evidence issue. A corpus
 * with the condition labels swapped, the model labels shuffled, or every answer replaced by the
 * reference must turn the claims it breaks `outside-simulation-spread` — the status can fail on
 * simulated data. Few replicates and small bootstrap sizes keep the file fast; the corpora are drawn
 * once and shared by the mutations.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { loadDomainDir, outerFringe } from '../../lib/kst';
import { validateResponses } from '../../lib/analysis';
import { loadPublishedKst } from '../../lib/records/published-kst';
import { loadPublishedPsi } from '../../lib/records/published-psi';
import { loadClaimReplicates, type ClaimReplicates } from '../../lib/records/claim-replicates';
import type { ExtractedLine } from '../../lib/records/extracted';
import { kstFingerprint, kstReplicates, psiFingerprint, REPLICATE_INFERENCE, responseDependent, summariseClaimRuns, summariseValues } from '../../lib/claims/replicates';
import { evaluateClaims } from '../../lib/claims/ledger';
import { kstClaimValues } from '../../lib/claims/kst';
import { simulateKstStudy, type SimulatedKstStudy } from '../../lib/simulation/kst-respondent/study';
import { replicatesText } from '../../scripts/replicates';

const root = join(__dirname, '..', '..');
const published = loadPublishedKst(join(root, 'data/published/kst-benchmark-2026.json'));
const domains = loadDomainDir(join(root, 'data/raw/domains'));
const R = 6;
const inference = { resamples: 200, flips: 400, seed: 'test' };
const cache = new Map<string, SimulatedKstStudy>();
const study = (s: string) => {
  if (!cache.has(s)) cache.set(s, simulateKstStudy(domains, { seedSuffix: s }));
  return cache.get(s)!;
};
const CELLS = ['claims-table3', 'claims-contrasts', 'claims-models', 'claims-table4', 'claims-overall'];

/** Statuses of the claims of CELLS for corpora rewritten by `transform` (replicates and the evaluated corpus alike). */
function statuses(transform?: (lines: ExtractedLine[]) => ExtractedLine[]): Map<string, string> {
  const stats = kstReplicates({ published, domains, replicates: R, inference, cells: CELLS, study, ...(transform ? { transform } : {}) });
  const shipped = study('');
  const lines = transform ? transform(shipped.lines) : shipped.lines;
  const records = validateResponses(lines.map((value, i) => ({ line: i + 1, value })), domains);
  const { claims, values } = kstClaimValues({ published, records, finalRecords: shipped.finals, domains, inference }, CELLS);
  const rows = evaluateClaims(published, claims, values, true, stats);
  return new Map(rows.map((r) => [r.id, r.status]));
}

const swapConditions = (lines: ExtractedLine[]) => lines.map((l) => ({ ...l, condition: ({ P0: 'P2', P1: 'P3', P2: 'P0', P3: 'P1' } as const)[l.condition] }));
const MODELS = ['sim-a', 'sim-b', 'sim-c', 'sim-d', 'sim-e', 'sim-f'].map((m) => `simulated:${m}`);
/** A fixed derangement: every model's answers carry the next model's label. */
const shuffleModels = (lines: ExtractedLine[]) => lines.map((l) => ({ ...l, model: MODELS[(MODELS.indexOf(l.model) + 1) % MODELS.length]! }));
const byId = new Map(domains.map((d) => [d.id, d]));
const referenceAnswers = (lines: ExtractedLine[]) => lines.map((l) => ({ ...l, status: 'valid' as const, recommended: outerFringe(byId.get(l.domain)!, l.state) }));

const baseline = statuses();
const outside = (m: Map<string, string>, re: RegExp) => [...m].filter(([id, s]) => re.test(id) && s === 'outside-simulation-spread').map(([id]) => id);
const within = (m: Map<string, string>, re: RegExp) => [...m].filter(([id, s]) => re.test(id) && s === 'within-simulation-spread').map(([id]) => id);

test('baseline: some contrast, Table 3, ranking, Table 4 and accuracy claims are within the spread (so a mutation has something to break)', () => {
  for (const re of [/^kst\.contrasts\.P2-P1/, /^kst\.table3\.P[0-3]\.exact$/, /^kst\.models\./, /^kst\.table4\..*\.exact$/, /^kst\.overall\.exact$/]) assert.ok(within(baseline, re).length > 0, `${re}: nothing within on the baseline`);
});

test('condition labels swapped (P0↔P2, P1↔P3): the contrast, Table 3 and ranking claims turn outside', () => {
  const swapped = statuses(swapConditions);
  for (const re of [/^kst\.contrasts\.P2-P1\.exact\.(estimate|ci-low|ci-high)$/, /^kst\.table3\.P[0-3]\.exact$/, /^kst\.models\.(p2-above-p1|perfect-in-p2)$/]) {
    const still = [...swapped].filter(([id, s]) => re.test(id) && s !== 'outside-simulation-spread').map(([id]) => id);
    assert.deepEqual(still, [], `${re}: still within after the swap`);
  }
});

test('model labels shuffled: the Table 4 cells the swapped-in profile cannot produce turn outside', () => {
  // A cell holds 100 responses, so its replicate sd in P0/P1 is ≈ 7 points: a shuffle between two
  // profiles whose targets are a few points apart cannot show there. It shows where the profiles differ
  // by more than their spread: the P2/P3 cells (sd ≈ 0.5–3) and the far-apart P0/P1 cells.
  const shuffled = statuses(shuffleModels);
  const cells = within(baseline, /^kst\.table4\..*\.exact$/);
  const broken = cells.filter((id) => shuffled.get(id) === 'outside-simulation-spread');
  assert.ok(broken.length >= 8, `only ${broken.length} of ${cells.length} Table 4 cells broken: ${broken.join(', ')}`);
  for (const id of ['kst.table4.claude-sonnet-5.P0.exact', 'kst.table4.claude-sonnet-5.P2.exact', 'kst.table4.gpt-56-sol.P2.exact', 'kst.table4.gpt-56-terra.P3.exact']) {
    assert.equal(shuffled.get(id), 'outside-simulation-spread', `${id}: holds another profile's answers and should be outside`);
  }
});

test('every answer replaced by the reference: every accuracy claim turns outside', () => {
  const perfect = statuses(referenceAnswers);
  for (const re of [/^kst\.(overall|table3\.P[01]|figure1\.P[01])\.(exact|precision|recall|f1|jaccard)$/, /^kst\.table4\..*\.P[01]\.exact$/]) {
    const still = [...perfect].filter(([id, s]) => re.test(id) && s !== 'outside-simulation-spread').map(([id]) => id);
    assert.deepEqual(still, [], `${re}: still within with perfect answers`);
  }
});

test('replicate statistics are byte-identical on a re-run and carry their seeds', () => {
  const run = () => replicatesText(kstReplicates({ published, domains, replicates: 3, inference, cells: ['claims-table3'], study }));
  const a = run();
  assert.equal(run(), a);
  const parsed = JSON.parse(a) as ClaimReplicates;
  assert.deepEqual(parsed.seeds, ['~r1', '~r2', '~r3']);
  assert.equal(parsed.simulated, true);
});

test('the stored statistics are those of the current simulator and ledger (fingerprint), with one seed per replicate', () => {
  const kst = loadClaimReplicates(join(root, 'data/replicates/kst.json'));
  assert.equal(kst.fingerprint, kstFingerprint(responseDependent(published.claims), kst.replicates, REPLICATE_INFERENCE), 'data/replicates/kst.json is stale: run npm run replicates');
  assert.equal(kst.seeds.length, kst.replicates);
  assert.deepEqual(Object.keys(kst.claims).sort(), responseDependent(published.claims).map((c) => c.id).sort());
  const psiPublished = loadPublishedPsi(join(root, 'data/published/psi-2026.json'));
  const psi = loadClaimReplicates(join(root, 'data/replicates/psi.json'));
  assert.equal(psi.fingerprint, psiFingerprint(responseDependent(psiPublished.claims), psi.replicates), 'data/replicates/psi.json is stale: run npm run replicates');
  assert.ok(readFileSync(join(root, 'data/replicates/kst.json'), 'utf8').endsWith('}\n'));
});

test('summariseClaimRuns: a replicate that cannot decide a claim counts as "cannot be checked", not as its placeholder "no"', () => {
  const claim = { id: 'kst.x.decided' } as Parameters<typeof summariseClaimRuns>[0][number];
  const runs = [true, true, false].map((value, k) => new Map([[claim.id, k === 2 ? { value, unavailable: 'fewer than two models perfect in P2' } : { value }]]));
  assert.deepEqual(summariseClaimRuns([claim], runs)[claim.id], { kind: 'category', n: 3, counts: { 'cannot be checked': 1, yes: 2 } });
  const numbers = [1, 2, 3].map((value) => new Map([[claim.id, { value }]]));
  assert.equal(summariseClaimRuns([claim], numbers)[claim.id]!.kind, 'number');
});

test('summariseValues: numbers get mean, sd and the 2.5–97.5 percentiles; statements and names their counts', () => {
  const s = summariseValues([1, 2, 3, 4, 5]);
  assert.deepEqual(s, { kind: 'number', n: 5, mean: 3, sd: 1.581139, low: 1.1, high: 4.9 });
  assert.deepEqual(summariseValues([true, false, true]), { kind: 'category', n: 3, counts: { no: 1, yes: 2 } });
  assert.deepEqual(summariseValues([1, Number.NaN]), { kind: 'category', n: 2, counts: { '1': 1, none: 1 } });
});
