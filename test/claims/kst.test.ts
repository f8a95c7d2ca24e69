/**
 * lib/claims/kst.ts: KST claims rebuilt from the inputs. Here on the hand-worked fixture of
 * test/fixtures/analyze (domains tiny and pair, 72 records, 1 missing, 64 of 71 scored exactly right)
 * with a few entries of the real ledger, so each computed value can be worked by hand.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadDomainDir } from '../../lib/kst';
import { loadResponses } from '../../lib/analysis';
import type { ClaimEntry } from '../../lib/records/published-claims';
import { checkRebuildsCoverLedger } from './rebuild-coverage';
import { loadPublishedKst } from '../../lib/records/published-kst';
import { KST_REBUILDS, kstClaimRows, kstRebuildFor } from '../../lib/claims/kst';

const root = join(__dirname, '..', '..');
const published = loadPublishedKst(join(root, 'data/published/kst-benchmark-2026.json'));
const fixture = join(root, 'test', 'fixtures', 'analyze');
const domains = loadDomainDir(join(fixture, 'domains'));
const records = loadResponses(join(fixture, 'responses.jsonl'), domains);
const only = (...ids: string[]) => ({ ...published, claims: published.claims.filter((c) => ids.includes(c.id)) });

test('every rebuilt KST claim has exactly one rebuild, every rebuild serves a claim, and reasons are not used for rebuildable claims', () => {
  checkRebuildsCoverLedger(published.claims as readonly ClaimEntry[], KST_REBUILDS);
  assert.equal(kstRebuildFor('kst.no-such-claim'), undefined);
});

test('rebuilt on the fixture: counts, the overall exact share, terminal states, a statement; real input, so a difference is "differs"', () => {
  const rows = kstClaimRows({
    published: only('kst.collection.calls', 'kst.overall.exact', 'kst.table1.total.states', 'kst.overall.terminal-responses', 'kst.models.p2-above-p1'),
    records,
    domains,
  });
  const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
  // 72 records in the file (the missing one included).
  assert.equal(byId['kst.collection.calls']!.computed, '72');
  // 64 / 71 = 0.901408… → 90.14 % at one decimal finer than printed (79.7).
  assert.equal(byId['kst.overall.exact']!.computed, '90.14');
  // tiny (A→B, C free): ∅ {A} {C} {A,B} {A,C} {A,B,C} = 6; pair (X→Y): ∅ {X} {X,Y} = 3; 9 states.
  assert.equal(byId['kst.table1.total.states']!.computed, '9');
  // Terminal states {A,B,C} and {X,Y}: 2 models × 2 conditions × 2 orders each = 16 responses.
  assert.equal(byId['kst.overall.terminal-responses']!.computed, '16');
  // The fixture has no P2 responses, so "every model is more accurate in P2 than in P1" does not hold.
  assert.equal(byId['kst.models.p2-above-p1']!.computed, 'no');
  assert.ok(rows.every((r) => r.status === 'differs'), JSON.stringify(rows.map((r) => [r.id, r.status])));
  // Marked as simulated: a by-construction claim is still judged by the rule (the fixture's 9 states
  // differ), a response-dependent one by whether the stored simulation spread (data/replicates/kst.json)
  // covers the paper's value — the question is about the simulator, not about this one draw.
  const simulated = kstClaimRows({ published: only('kst.overall.exact', 'kst.table1.total.states'), records: records.map((r) => ({ ...r, simulated: true })), domains });
  assert.deepEqual(simulated.map((r) => [r.id, r.status]), [['kst.table1.total.states', 'differs'], ['kst.overall.exact', 'within-simulation-spread']]);
  assert.match(simulated[1]!.simulation, /^\[\d+\.\d\d, \d+\.\d\d\]$/);
});

test('cells select the claims of one notebook cell; the truncation claim needs the final records', () => {
  const rows = kstClaimRows({ published: only('kst.collection.calls', 'kst.table1.total.states'), records, domains }, { cells: ['claims-table1'] });
  assert.deepEqual(rows.map((r) => r.id), ['kst.table1.total.states']);
  assert.throws(() => kstClaimRows({ published: only('kst.collection.truncated'), records, domains }), /claim kst\.collection\.truncated: needs the final records/);
  const finalRecords = [{ status: 'invalid', reason: 'truncated' }, { status: 'invalid', reason: 'not-json' }, { status: 'valid' }];
  assert.equal(kstClaimRows({ published: only('kst.collection.truncated'), records, domains, finalRecords })[0]!.computed, '1');
});

test('design claims added from §4.3–4.4 on the fixture: models, orders, calls per model, the inference sizes in use', () => {
  const ids = ['kst.design.models', 'kst.design.orders', 'kst.design.calls-per-model', 'kst.design.bootstrap-resamples', 'kst.design.sign-flips'];
  const computed = (rs: typeof records, inference?: { resamples: number; flips: number; seed: string }) =>
    Object.fromEntries(kstClaimRows({ published: only(...ids), records: rs, domains, ...(inference ? { inference } : {}) }).map((r) => [r.id, r.computed]));
  // 72 records: 2 models × 2 orders, 36 each; the default inference is the paper's 10,000 / 100,000.
  assert.deepEqual(ids.map((id) => computed(records)[id]), ['2', '2', '36', '10000', '100000']);
  // One record dropped: the models no longer have equal counts, which no single "calls per model" describes.
  assert.equal(computed(records.slice(1))['kst.design.calls-per-model'], 'none (calls per model 35, 36)');
  assert.deepEqual([computed(records, { resamples: 200, flips: 500, seed: 's' })['kst.design.bootstrap-resamples'], computed(records, { resamples: 200, flips: 500, seed: 's' })['kst.design.sign-flips']], ['200', '500']);
});

test('claims added from §4.5.2: both orders in every combination (by construction) and the P2-perfect models\' differing P0 values', async () => {
  const { validateResponses } = await import('../../lib/analysis');
  const { outerFringe } = await import('../../lib/kst');
  const pair = domains.find((d) => d.id === 'pair')!;
  // m1 and m2 answer every state of `pair` in P0 and P2 under both orders; `wrongP0` models answer P0 with nothing.
  const lines = (wrongP0: string[], wrongP2: string[] = []) =>
    ['m1', 'm2'].flatMap((model) =>
      (['P0', 'P2'] as const).flatMap((condition) =>
        [[], ['X'], ['X', 'Y']].flatMap((state) =>
          [1, 2].map((order) => {
            const wrong = (condition === 'P0' ? wrongP0 : wrongP2).includes(model) && state.length === 0;
            return { run_id: `${model}.${condition}.${order}.${state.join('')}`, model, domain: 'pair', condition, order, state, status: 'valid', recommended: wrong ? [] : outerFringe(pair, state) };
          }),
        ),
      ),
    );
  const rows = (ls: ReturnType<typeof lines>) => {
    const records = validateResponses(ls.map((value, i) => ({ line: i + 1, value })), domains);
    return Object.fromEntries(kstClaimRows({ published: only('kst.design.orders-balanced', 'kst.models.perfect-p2-differ-in-p0'), records, domains }).map((r) => [r.id, r.computed]));
  };
  // Both perfect in P2; m2 misses ∅ in P0 under both orders (4 of 6 = 67 %) against m1's 100 %.
  assert.deepEqual(rows(lines(['m2'])), {
    'kst.design.orders-balanced': 'yes (12 model × condition × state combinations, 0 without all 2 orders)',
    'kst.models.perfect-p2-differ-in-p0': 'yes (P0 of the P2-perfect models: 100, 67)',
  });
  // Made wrong on purpose: equal P0 values; only one model perfect in P2; one order-2 record dropped.
  assert.match(rows(lines([]))['kst.models.perfect-p2-differ-in-p0']!, /^no \(P0 of the P2-perfect models: 100, 100\)/);
  assert.equal(rows(lines(['m2']).filter((l) => !(l.model === 'm1' && l.condition === 'P2' && l.order === 2 && l.state.length === 1)))['kst.design.orders-balanced'], 'no (12 model × condition × state combinations, 1 without all 2 orders)');
  // What the table cannot decide is not rebuildable on it, never a yes or no: one P2-perfect model
  // ("every model perfect under P2 differs under P0" needs two), no P0 rows, a P2-perfect model without P0.
  const notes = (ls: ReturnType<typeof lines>) => {
    const records = validateResponses(ls.map((value, i) => ({ line: i + 1, value })), domains);
    return kstClaimRows({ published: only('kst.models.perfect-p2-differ-in-p0'), records, domains }).map((r) => [r.status, r.note]);
  };
  assert.deepEqual(notes(lines(['m2'], ['m2'])), [['not rebuildable', 'cannot be checked on this input: only m1 at 100 % in P2, so no two P2-perfect models to compare in P0']]);
  assert.deepEqual(notes(lines(['m2']).filter((l) => l.condition !== 'P0')), [['not rebuildable', 'cannot be checked on this input: Table 4 has no P0 rows']]);
  assert.deepEqual(notes(lines([]).filter((l) => !(l.model === 'm2' && l.condition === 'P0'))), [['not rebuildable', 'cannot be checked on this input: no P0 exact share for the P2-perfect model m2']]);
});
