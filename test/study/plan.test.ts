import { test } from 'node:test';
import assert from 'node:assert/strict';
import seedrandom from 'seedrandom';
import { holm, signFlipTest } from '../../lib/stats';
import { designContrasts, detects, normalPower, planPower, powerCurveSpec, simulatePower, statesNeeded, type PlanInput } from '../../lib/study/plan';

const base: PlanInput = {
  conditions: ['P0', 'P1'],
  rates: { P0: 0.5, P1: 0.5 },
  contrast: 'P1-P0',
  effect: 0.15,
  responsesPerRepeat: 6,
  stateCounts: [30],
  repeats: [1],
  studies: 1000,
  flips: 1000,
  alpha: 0.05,
  stateSd: 0,
  seed: 'plan-test',
};

test('with one contrast and alike states, the simulated power matches the paired normal approximation', () => {
  // p0 = .5, p1 = .58, R = 6, n = 100: σ² = (.2436 + .25)/6, δ√n/σ = 2.789 → Φ(2.789 − 1.960) ≈ 0.796.
  // (At n = 100 the normal approximation of the paired test holds; at n = 30 the discrete,
  // sign-flip test is visibly less powerful than z, as it should be.)
  const analytic = normalPower({ p0: 0.5, p1: 0.58, responses: 6, states: 100, alpha: 0.05 });
  assert.ok(Math.abs(analytic - 0.796) < 0.002, `normal approximation ${analytic}`);
  const simulated = simulatePower(base, { P0: 0.5, P1: 0.58 }, 100, 1);
  // Monte-Carlo se ≈ 0.013.
  assert.ok(Math.abs(simulated - analytic) < 0.04, `simulated ${simulated} vs normal ${analytic}`);
  // A wrong analytic target would not pass: the power at half the effect is far lower.
  assert.ok(simulatePower(base, { P0: 0.5, P1: 0.54 }, 100, 1) < analytic - 0.3);
});

test('with no effect the procedure rejects at most α of the time (its size)', () => {
  const size = simulatePower({ ...base, effect: 0.0001 }, { P0: 0.5, P1: 0.5 }, 30, 1);
  assert.ok(size <= 0.05 / 2 + 0.02, `one-sided rejection rate ${size}`);
});

test('the shortcut decision equals the full Holm over every contrast', () => {
  const conditions = ['P0', 'P1', 'P2', 'P3'] as const;
  const contrasts = designContrasts([...conditions]);
  const rng = seedrandom('shortcut');
  for (let trial = 0; trial < 200; trial += 1) {
    const n = 12;
    const means = new Map(conditions.map((c, i) => [c, Float64Array.from({ length: n }, () => Math.min(1, Math.max(0, 0.3 + 0.15 * i * rng() + 0.3 * (rng() - 0.5))))] as const));
    for (const chosen of [0, 1, 2]) {
      const seed = `t${trial}`;
      const ps = contrasts.map((c, j) => {
        const d = Array.from({ length: n }, (_, s) => means.get(c.later)![s]! - means.get(c.earlier)![s]!);
        return signFlipTest(d, { flips: 500, seed: `${seed}:flip:${j}` });
      });
      const full = holm(ps.map((x) => x.p))[chosen]! < 0.05 && Math.sign(ps[chosen]!.observed) === 1;
      const fast = detects(contrasts, chosen, 1, { alpha: 0.05, flips: 500 }, means, n, seed, Math.ceil(0.05 * 501) - 2);
      assert.equal(fast, full, `trial ${trial}, contrast ${chosen}`);
    }
  }
});

test('planPower: seeded (same rows twice), more states and repeats give more power, statesNeeded picks the first ≥ 80 %', () => {
  const input = { ...base, rates: { P0: 0.4, P1: 0.4 }, effect: 0.1, stateCounts: [10, 40, 120], repeats: [1, 2], studies: 200 };
  const a = planPower(input);
  assert.deepEqual(planPower(input), a);
  const power = (s: number, r: number) => a.rows.find((x) => x.states === s && x.repeats === r)!.power;
  assert.ok(power(10, 1) < power(120, 1) && power(40, 1) < power(40, 2));
  const needed = statesNeeded(a.rows, 0.8);
  for (const n of needed) {
    const hit = a.rows.filter((x) => x.repeats === n.repeats && x.power >= 0.8).map((x) => x.states);
    assert.equal(n.states, hit.length ? Math.min(...hit) : null);
  }
  assert.throws(() => planPower({ ...input, contrast: 'P2-P1' }), /--contrast P2-P1: not an adjacent contrast of the design's conditions \(P1-P0\)/);
  assert.throws(() => planPower({ ...input, effect: 0.7 }), /--effect 0\.7: P0 0\.4 \+ effect = 1\.1 is not a rate in \(0, 1\)/);
});

test('powerCurveSpec prints power, target and effect by the one percentage rule (percent), rounded once', () => {
  // 0.5005·1000 is 500.49999… in binary, so Math.round(x·1000)/10 said 50.0 where percent says 50.1;
  // −0.0125 is a negative half: percent rounds it away from zero (−1.3), as every table does.
  const rows = [{ states: 10, repeats: 1, responses: 6, power: 0.5005, se: 0.01, normal: 0.5 }];
  const spec = powerCurveSpec(rows, { contrast: 'P1-P0', effect: -0.0125, target: 0.805 });
  const line = spec.data[0] as { y: number[] };
  assert.deepEqual(line.y, [50.1]);
  assert.equal((spec.data[1] as { name: string }).name, '81 % power');
  assert.equal((spec.layout.title as { text: string }).text, 'Power to detect P1-P0 = -1.3 points');
});
