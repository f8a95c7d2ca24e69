import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../lib/errors';
import { regenerationPair as pair } from './helpers';
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
  bad({ ...base, ratings: [rating('R1', 'c1', true, true), { ...rating('R1', 'c2', true, true), weaknesses_resolved: 'yes' }] }, /r\.json:1: ratings\[1\]\.weaknesses_resolved/, 'ratings[1].weaknesses_resolved');
  bad({ ...base, ratings: [rating('R9', 'c1', true, true)] }, /r\.json:1: ratings\[0\]\.rater: rater "R9" is not declared/, 'ratings[0].rater');
  bad({ ...base, ratings: [rating('R1', 'c1', true, true), rating('R1', 'c1', false, true)] }, /ratings\[1\]\.run_id: rater "R1" rates "c1" a second time/);
  bad({ simulated: false, raters: [{ id: 'R1' }, { id: 'R1' }], ratings: [] }, /raters\[1\]\.id: duplicate rater id "R1"/);
  bad({ raters: [{ id: 'R1' }], ratings: [] }, /simulated/);
  assert.throws(() => parseRatings('{oops', 'r.json'), /r\.json:1: not valid JSON/);
});

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

test('ratingRates: the pooled share of yes verdicts per criterion, and each rater\'s own', async () => {
  const { ratingRates } = await import('../../lib/psi/ratings');
  const r = ratingRates({ simulated: false, raters: [{ id: 'A' }, { id: 'B' }], ratings: [rating('A', 'c1', true, false), rating('A', 'c2', true, true), rating('B', 'c1', false, false)] });
  assert.equal(r.ratings, 3);
  assert.equal(r.cases, 2);
  assert.ok(Math.abs(r.rates.meaningful_improvement - 200 / 3) < 1e-9);
  assert.ok(Math.abs(r.rates.weaknesses_resolved - 100 / 3) < 1e-9);
  assert.deepEqual(r.perRater.map((x) => [x.rater, x.n, x.rates.meaningful_improvement]), [['A', 2, 100], ['B', 1, 0]]);
  assert.ok(Number.isNaN(ratingRates({ simulated: false, raters: [{ id: 'A' }], ratings: [] }).rates.weaknesses_resolved));
});

test('a wrong field in a pretty-printed ratings file names the file, its line and the field', () => {
  const text = '{\n  "simulated": false,\n  "raters": [{ "id": "R1" }],\n  "ratings": [\n    { "rater": "R1", "run_id": "a", "meaningful_improvement": true, "weaknesses_resolved": true },\n    { "rater": "R1", "run_id": "b",\n      "meaningful_improvement": "yes", "weaknesses_resolved": true }\n  ]\n}\n';
  assert.throws(() => parseRatings(text, 'r.json'), (e: unknown) => e instanceof InputError && /^r\.json:7: ratings\[1\]\.meaningful_improvement: /.test(e.message) && e.where.line === 7);
  const undeclared = text.replace('"run_id": "b"', '"run_id": "b"').replace('{ "rater": "R1", "run_id": "b"', '{ "rater": "R2", "run_id": "b"').replace('"yes"', 'true');
  assert.throws(() => parseRatings(undeclared, 'r.json'), / r\.json:6: ratings\[1\]\.rater: rater "R2" is not declared/);
});
