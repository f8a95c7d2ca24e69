import { test } from 'node:test';
import assert from 'node:assert/strict';
import seedrandom from 'seedrandom';
import { InputError } from '../../lib/errors';
import { compareProportions, competitionRanks, type Proportion } from '../../lib/stats';

test('standard competition ranking "1224"', () => {
  assert.deepEqual(competitionRanks([0.9, 0.8, 0.8, 0.7]), [1, 2, 2, 4]);
  assert.deepEqual(competitionRanks([0.7, 0.8, 0.9, 0.8]), [4, 2, 1, 2]);
  assert.deepEqual(competitionRanks([0.9, 0.8, 0.8, 0.7], { descending: false }), [4, 2, 2, 1]);
  assert.deepEqual(competitionRanks([1, 1, 1]), [1, 1, 1]);
  assert.deepEqual(competitionRanks([5, 5, 3, 3, 3, 1]), [1, 1, 3, 3, 3, 6]);
  assert.deepEqual(competitionRanks([]), []);
});

test('rank = 1 + number of strictly better values (brute force, many ties)', () => {
  const gen = seedrandom.alea('ranks');
  for (let trial = 0; trial < 30; trial += 1) {
    const values = Array.from({ length: 1 + Math.floor(gen() * 12) }, () => Math.floor(gen() * 4));
    const expectedDesc = values.map((v) => 1 + values.filter((w) => w > v).length);
    const expectedAsc = values.map((v) => 1 + values.filter((w) => w < v).length);
    assert.deepEqual(competitionRanks(values), expectedDesc);
    assert.deepEqual(competitionRanks(values, { descending: false }), expectedAsc);
  }
});

test('proportions given as counts tie exactly where floating means would split them', () => {
  // 3 of 10 exact answers, accumulated as a running mean of 0/1 scores vs. 6 of 20 divided directly
  const accumulated = 0.1 + 0.1 + 0.1; // 0.30000000000000004
  assert.deepEqual(competitionRanks([accumulated, 6 / 20, 0.5]), [2, 3, 1]); // split by rounding
  const props: Proportion[] = [{ k: 3, n: 10 }, { k: 6, n: 20 }, { k: 1, n: 2 }];
  assert.deepEqual(competitionRanks(props, { compare: compareProportions }), [2, 2, 1]);
  assert.deepEqual(competitionRanks(props, { compare: compareProportions, descending: false }), [1, 1, 3]);
  assert.equal(compareProportions({ k: 1, n: 3 }, { k: 2, n: 6 }), 0);
  assert.equal(compareProportions({ k: 1, n: 3 }, { k: 1, n: 2 }), -1);
  assert.equal(compareProportions({ k: 18, n: 18 }, { k: 17, n: 18 }), 1);
});

test('rejects NaN and malformed proportions', () => {
  assert.throws(() => competitionRanks([1, Number.NaN]), InputError);
  assert.throws(() => compareProportions({ k: 3, n: 2 }, { k: 1, n: 2 }), InputError);
  assert.throws(() => compareProportions({ k: 1, n: 0 }, { k: 1, n: 2 }), InputError);
  assert.throws(() => compareProportions({ k: 0.5, n: 2 }, { k: 1, n: 2 }), InputError);
});
