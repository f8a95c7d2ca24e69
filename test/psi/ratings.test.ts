import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../lib/errors';
import type { RegenerationPair, ScoredRecord } from '../../lib/psi/aggregate';
import { illustrativeRatings, illustrativeYesProbability } from '../../lib/simulation/psi-tutor/illustrative-ratings';
import { interRaterAgreement, parseRatings, raterAgreementWithPsi, type RatingsFile } from '../../lib/psi/ratings';

const rating = (rater: string, run_id: string, mi: boolean, wr: boolean) => ({ rater, run_id, meaningful_improvement: mi, weaknesses_resolved: wr });

test('parseRatings accepts the documented format and keeps extra fields', () => {
  const text = JSON.stringify({
    description: 'x', simulated: false, term: 'spring',
    raters: [{ id: 'R1', role: 'instructor' }],
    ratings: [{ ...rating('R1', 'c1', true, false), note: 'ok' }],
  });
  const file = parseRatings(text, 'ratings.json');
  assert.equal(file.ratings[0]!.note, 'ok');
  assert.equal((file as Record<string, unknown>)['term'], 'spring');
});

test('parseRatings names the file and item of each problem', () => {
  const base = { simulated: false, raters: [{ id: 'R1' }, { id: 'R2' }] };
  const bad = (obj: unknown, re: RegExp, item?: string) =>
    assert.throws(() => parseRatings(JSON.stringify(obj), 'r.json'), (e: unknown) => e instanceof InputError && re.test(e.message) && (item === undefined || e.where.item === item));
  bad({ ...base, ratings: [rating('R1', 'c1', true, true), { ...rating('R1', 'c2', true, true), weaknesses_resolved: 'yes' }] }, /r\.json: ratings\[1\]\.weaknesses_resolved/, 'ratings[1].weaknesses_resolved');
  bad({ ...base, ratings: [rating('R9', 'c1', true, true)] }, /ratings\[0\]: rater "R9" is not declared/, 'ratings[0]');
  bad({ ...base, ratings: [rating('R1', 'c1', true, true), rating('R1', 'c1', false, true)] }, /ratings\[1\]: rater "R1" rates "c1" a second time/);
  bad({ simulated: false, raters: [{ id: 'R1' }, { id: 'R1' }], ratings: [] }, /raters\[1\]: duplicate rater id "R1"/);
  bad({ raters: [{ id: 'R1' }], ratings: [] }, /simulated/);
  assert.throws(() => parseRatings('{oops', 'r.json'), /r\.json:1: not valid JSON/);
});

function pair(id: string, before: number, after: number, sdBefore = 0.1, sdAfter = 0.1): RegenerationPair {
  const r = (round: 1 | 2, psi: number, sd: number): ScoredRecord => ({
    run_id: `${round === 2 ? 'r2' : 'r1'}-${id}`, round, scenario: id, variant: 'defective', model: 'm', psi,
    subscores: { kd: 0.5, tv: 0.5, sd, ef: 0.5, cl: 0.5, ra: 0.5 }, scoreSource: 'rescored',
  });
  return { model: 'm', scenario: id, before: r(1, before, sdBefore), after: r(2, after, sdAfter), gain: after - before };
}

test("inter-rater κ over the cases both raters rated (worked by hand)", () => {
  // Shared cases c1..c4: A = y y n n, B = y n n n → p_o = 3/4; p_e = .5·.25 + .5·.75 = .5; κ = .5.
  // c5 is rated by A only and must be ignored.
  const file: RatingsFile = {
    simulated: false,
    raters: [{ id: 'A' }, { id: 'B' }, { id: 'C' }],
    ratings: [
      rating('A', 'c1', true, true), rating('A', 'c2', true, true), rating('A', 'c3', false, true), rating('A', 'c4', false, true), rating('A', 'c5', true, true),
      rating('B', 'c4', false, true), rating('B', 'c3', false, true), rating('B', 'c2', false, true), rating('B', 'c1', true, true),
    ],
  };
  const [ab, ac, bc] = interRaterAgreement(file, 'meaningful_improvement');
  assert.deepEqual([ab!.raterA, ab!.raterB, ab!.n, ab!.observedAgreement], ['A', 'B', 4, 0.75]);
  assert.ok(Math.abs(ab!.kappa - 0.5) < 1e-12);
  assert.equal(ac!.n, 0);
  assert.ok(Number.isNaN(ac!.kappa) && Number.isNaN(bc!.kappa));
  // All "yes" from both on weaknesses_resolved: p_e = 1, κ undefined.
  assert.ok(Number.isNaN(interRaterAgreement(file, 'weaknesses_resolved')[0]!.kappa));
});

test('each rater against PSI-judged improvement', () => {
  // PSI improved: c1 yes, c2 yes, c3 no, c4 no. Rater A says y, n, y, n → both yes 1, human only 1,
  // psi only 1, both no 1 → agreement .5, κ 0.
  const pairs = [pair('c1', 0.4, 0.5), pair('c2', 0.4, 0.45), pair('c3', 0.5, 0.5), pair('c4', 0.5, 0.4)];
  const file: RatingsFile = {
    simulated: false,
    raters: [{ id: 'A' }, { id: 'B' }],
    ratings: [rating('A', 'r2-c1', false, true), rating('A', 'r2-c2', false, false), rating('A', 'r2-c3', false, true), rating('A', 'r2-c4', false, false)],
  };
  const [a, b] = raterAgreementWithPsi(file, pairs, 'weaknesses_resolved');
  assert.deepEqual({ ...a }, { rater: 'A', criterion: 'weaknesses_resolved', n: 4, humanRate: 0.5, psiRate: 0.5, bothYes: 1, humanOnly: 1, psiOnly: 1, bothNo: 1, observedAgreement: 0.5, kappa: 0 });
  assert.equal(b!.n, 0);
  const unknown: RatingsFile = { ...file, ratings: [rating('A', 'r2-zz', true, true)] };
  assert.throws(() => raterAgreementWithPsi(unknown, pairs, 'weaknesses_resolved'), /ratings\[0\]: run "r2-zz" is not a regenerated/);
});

test('illustrative ratings: the documented probabilities, seeded, stable per case, and a valid file', () => {
  assert.ok(Math.abs(illustrativeYesProbability(pair('x', 0.5, 0.54), 'weaknesses_resolved', 0) - 1 / (1 + Math.exp(-2))) < 1e-12);
  // ΔSD 0.15 − 0.05 = 0.1, /0.05 = 2, leniency −0.05 → (0.05)/0.05 = 1.
  assert.ok(Math.abs(illustrativeYesProbability(pair('x', 0.5, 0.5, 0.1, 0.25), 'meaningful_improvement', -0.05) - 1 / (1 + Math.exp(-1))) < 1e-12);
  const pairs = Array.from({ length: 30 }, (_, i) => pair(`c${String(i).padStart(2, '0')}`, 0.5, 0.5 + (i - 10) / 200, 0.1, 0.1 + i / 100));
  const one = illustrativeRatings(pairs, { seed: 's1' });
  assert.deepEqual(illustrativeRatings([...pairs].reverse(), { seed: 's1' }), one);
  assert.notDeepEqual(illustrativeRatings(pairs, { seed: 's2' }).ratings, one.ratings);
  assert.equal(one.simulated, true);
  assert.match(one.description!, /^ILLUSTRATIVE/);
  assert.equal(one.ratings.length, 90);
  assert.deepEqual(parseRatings(JSON.stringify(one), 'gen.json'), one);
  // Adding a case leaves the other verdicts unchanged.
  const more = illustrativeRatings([...pairs, pair('zz', 0.3, 0.6)], { seed: 's1' });
  for (const r of one.ratings) assert.deepEqual(more.ratings.find((m) => m.rater === r.rater && m.run_id === r.run_id), r);
  // Large gains are judged resolved, large losses not (P > 0.9999 / < 0.0001 here).
  const sure = illustrativeRatings([pair('up', 0.3, 0.6), pair('down', 0.6, 0.3)], { seed: 's1' });
  assert.deepEqual(sure.ratings.map((r) => r.weaknesses_resolved), [false, true, false, true, false, true]);
  assert.throws(() => illustrativeRatings(pairs, { seed: '' }), InputError);
  assert.throws(() => illustrativeRatings(pairs, { seed: 's', raters: [{ id: 'A', leniency: 0 }, { id: 'A', leniency: 1 }] }), InputError);
});
