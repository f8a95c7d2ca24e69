import seedrandom from 'seedrandom';
import { errorFunction } from 'simple-statistics';
import { designContrasts, type Condition } from '../conditions';
import { InputError } from '../errors';
import { holm, signFlipTest, significantAt } from '../stats';
import { percent } from '../stats/prints-as';

/**
 * The planner: before anyone pays for a run, the power of the study's own procedure to detect a chosen
 * contrast of a chosen size, estimated by simulating whole studies.
 *
 * Data-generating model of one simulated study (documented in docs/study.md):
 * - n knowledge states; under each condition c a state's responses (R = models × orders × repeats of
 *   them) are Bernoulli with p_{s,c} = logistic(logit(p_c) + u_s), u_s ~ N(0, τ²): a state difficulty
 *   shared by every condition (τ = `stateSd`; 0 makes every state alike);
 * - p_c are the baseline rates per condition, with the chosen contrast's later condition set to
 *   p_earlier + effect.
 * The procedure is the analysis' own: state means per condition, paired differences for each adjacent
 * contrast of the design, the two-sided sign-flip test (lib/stats signFlipTest), Holm across those
 * contrasts; a study detects the effect when the chosen contrast's Holm-adjusted p < α and its estimate
 * has the effect's sign. Models are treated as exchangeable, which overstates the spread of a state
 * mean when models differ (so the power is, if anything, understated).
 * Every draw comes from seedrandom.alea(`${seed}:${states}:${repeats}:${study}`), recorded in the plan.
 */

export interface PlanInput {
  conditions: readonly Condition[];
  /** Baseline exact-set accuracy per condition (the design's conditions). */
  rates: Readonly<Partial<Record<Condition, number>>>;
  contrast: string;
  /** later − earlier, in accuracy (probability) units. */
  effect: number;
  /** Responses per state and condition from models × orders (repeats multiply it). */
  responsesPerRepeat: number;
  stateCounts: readonly number[];
  repeats: readonly number[];
  studies: number;
  flips: number;
  alpha: number;
  stateSd: number;
  seed: string;
  target?: number;
}

export interface PlanRow {
  states: number;
  repeats: number;
  /** Responses per state and condition (models × orders × repeats). */
  responses: number;
  power: number;
  /** Monte-Carlo standard error of `power`. */
  se: number;
  /** Normal approximation of a single paired test at α (no Holm, no state heterogeneity). */
  normal: number;
}

const logit = (p: number) => Math.log(p / (1 - p));
const logistic = (x: number) => 1 / (1 + Math.exp(-x));
const clampRate = (p: number) => Math.min(1 - 1e-9, Math.max(1e-9, p));

/** Φ, the standard normal distribution function. */
export function normalCdf(x: number): number {
  return 0.5 * (1 + errorFunction(x / Math.SQRT2));
}

/**
 * Φ⁻¹ by bisection on normalCdf (simple-statistics' probit is a coarse approximation: 1.9572 for 0.975).
 * @example
 * Math.round(normalQuantile(0.975) * 1e4) / 1e4; // => 1.96
 */
export function normalQuantile(q: number): number {
  let lo = -40;
  let hi = 40;
  for (let i = 0; i < 200 && hi - lo > 1e-12; i += 1) {
    const mid = (lo + hi) / 2;
    if (normalCdf(mid) < q) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * Normal approximation of the power of a two-sided paired test of mean zero over `states` paired
 * differences d = X/R − Y/R, X ~ Bin(R, p1), Y ~ Bin(R, p0) independent: σ² = (p1(1−p1) + p0(1−p0))/R,
 * power = Φ(δ√n/σ − z) + Φ(−δ√n/σ − z), z = Φ⁻¹(1 − α/2).
 * @example
 * Math.round(normalPower({ p0: 0.5, p1: 0.6, responses: 10, states: 50, alpha: 0.05 }) * 1000) / 1000; // => 0.891
 */
export function normalPower(o: { p0: number; p1: number; responses: number; states: number; alpha: number }): number {
  const sd = Math.sqrt((o.p1 * (1 - o.p1) + o.p0 * (1 - o.p0)) / o.responses);
  if (sd === 0) return o.p1 === o.p0 ? 0 : 1;
  const z = normalQuantile(1 - o.alpha / 2);
  const shift = (Math.abs(o.p1 - o.p0) * Math.sqrt(o.states)) / sd;
  return normalCdf(shift - z) + normalCdf(-shift - z);
}

/** The rates with the chosen contrast's later condition set to earlier + effect; RangeError outside (0, 1). */
export function effectRates(input: Pick<PlanInput, 'conditions' | 'rates' | 'contrast' | 'effect'>): Record<string, number> {
  const spec = designContrasts(input.conditions).find((c) => c.name === input.contrast);
  if (!spec) {
    throw new InputError(`--contrast ${input.contrast}: not an adjacent contrast of the design's conditions (${designContrasts(input.conditions).map((c) => c.name).join(', ') || 'none'})`, { item: 'contrast' });
  }
  const rates: Record<string, number> = {};
  for (const c of input.conditions) {
    const r = input.rates[c];
    if (r === undefined || !(r >= 0 && r <= 1)) throw new InputError(`rate of ${c}: needs a baseline accuracy in [0, 1] (got ${r})`, { item: c });
    rates[c] = r;
  }
  const later = rates[spec.earlier]! + input.effect;
  if (!(later > 0 && later < 1)) throw new InputError(`--effect ${input.effect}: ${spec.earlier} ${rates[spec.earlier]} + effect = ${later} is not a rate in (0, 1)`, { item: 'effect' });
  rates[spec.later] = later;
  return rates;
}

// The design's adjacent contrasts: one home in lib/conditions (the analysis lists the same ones).
export { designContrasts };

/** Share of simulated studies in which the procedure detects the chosen contrast. */
export function simulatePower(input: PlanInput, rates: Readonly<Record<string, number>>, states: number, repeats: number): number {
  const contrasts = designContrasts(input.conditions);
  const chosen = contrasts.findIndex((c) => c.name === input.contrast);
  const sign = Math.sign(input.effect);
  const R = input.responsesPerRepeat * repeats;
  const base = new Map(input.conditions.map((c) => [c, logit(clampRate(rates[c]!))] as const));
  const means = new Map(input.conditions.map((c) => [c, new Float64Array(states)] as const));
  const stopAbove = Math.ceil(input.alpha * (input.flips + 1)) - 2;
  let detected = 0;
  for (let study = 0; study < input.studies; study += 1) {
    const rng = seedrandom.alea(`${input.seed}:${states}:${repeats}:${study}`);
    for (let s = 0; s < states; s += 1) {
      const u = input.stateSd > 0 ? input.stateSd * gaussian(rng) : 0;
      for (const c of input.conditions) {
        const p = logistic(base.get(c)! + u);
        let k = 0;
        for (let i = 0; i < R; i += 1) if (rng() < p) k += 1;
        means.get(c)![s] = k / R;
      }
    }
    if (detects(contrasts, chosen, sign, input, means, states, `${input.seed}:${states}:${repeats}:${study}`, stopAbove)) detected += 1;
  }
  return detected / input.studies;
}

/**
 * Whether one simulated study detects the chosen contrast: its Holm-adjusted sign-flip p < α with the
 * effect's sign. Decided with as few tests as give the same answer as testing every contrast: the
 * chosen contrast first; wrong sign or p ≥ α → no; m·p < α → yes (no other p can raise its Holm value
 * above m·p); otherwise the others are tested and Holm applied. A test stops once its p ≥ α
 * (stopAbove): such a contrast is never detected and, sorted after any that is, changes no Holm value.
 */
export function detects(
  contrasts: ReturnType<typeof designContrasts>,
  chosen: number,
  sign: number,
  input: Pick<PlanInput, 'alpha' | 'flips'>,
  means: ReadonlyMap<Condition, Float64Array>,
  states: number,
  seed: string,
  stopAbove: number,
): boolean {
  const test = (j: number) => {
    const c = contrasts[j]!;
    const later = means.get(c.later)!;
    const earlier = means.get(c.earlier)!;
    const d = Array.from({ length: states }, (_, s) => later[s]! - earlier[s]!);
    return signFlipTest(d, { flips: input.flips, seed: `${seed}:flip:${j}`, stopAbove });
  };
  const own = test(chosen);
  if (Math.sign(own.observed) !== sign || !significantAt(own.p, input.alpha)) return false;
  if (significantAt(contrasts.length * own.p, input.alpha)) return true;
  const ps = contrasts.map((_, j) => (j === chosen ? own.p : test(j).p));
  return significantAt(holm(ps)[chosen]!, input.alpha);
}

/** Box–Muller from two uniforms of the study's generator. */
function gaussian(rng: () => number): number {
  const u = 1 - rng();
  const v = rng();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** Power of every candidate design (states × repeats), with the normal approximation beside it. */
export function planPower(input: PlanInput, onRow: (done: number, total: number) => void = () => {}): { rates: Record<string, number>; rows: PlanRow[] } {
  if (input.effect === 0) throw new InputError('--effect must not be 0 (there would be nothing to detect)', { item: 'effect' });
  const rates = effectRates(input);
  const spec = designContrasts(input.conditions).find((c) => c.name === input.contrast)!;
  const rows: PlanRow[] = [];
  const total = input.stateCounts.length * input.repeats.length;
  for (const repeats of input.repeats) {
    for (const states of input.stateCounts) {
      const power = simulatePower(input, rates, states, repeats);
      const responses = input.responsesPerRepeat * repeats;
      rows.push({
        states,
        repeats,
        responses,
        power,
        se: Math.sqrt((power * (1 - power)) / input.studies),
        normal: normalPower({ p0: rates[spec.earlier]!, p1: rates[spec.later]!, responses, states, alpha: input.alpha }),
      });
      onRow(rows.length, total);
    }
  }
  return { rates, rows };
}

/** Per repeats value, the fewest candidate states reaching `target` power (null when none does). */
export function statesNeeded(rows: readonly PlanRow[], target = 0.8): Array<{ repeats: number; states: number | null }> {
  const repeats = [...new Set(rows.map((r) => r.repeats))];
  return repeats.map((rep) => {
    const hit = rows.filter((r) => r.repeats === rep && r.power >= target).sort((a, b) => a.states - b.states)[0];
    return { repeats: rep, states: hit ? hit.states : null };
  });
}

/** The power curve: one line per repeats value, the target as a dashed line. */
export function powerCurveSpec(rows: readonly PlanRow[], options: { contrast: string; effect: number; target: number }): { data: Array<Record<string, unknown>>; layout: Record<string, unknown> } {
  const repeats = [...new Set(rows.map((r) => r.repeats))];
  const xs = [...new Set(rows.map((r) => r.states))].sort((a, b) => a - b);
  return {
    data: [
      ...repeats.map((rep) => {
        const line = rows.filter((r) => r.repeats === rep).sort((a, b) => a.states - b.states);
        return { type: 'scatter', mode: 'lines+markers', name: `${rep} repeat${rep === 1 ? '' : 's'}`, x: line.map((r) => r.states), y: line.map((r) => percent(r.power)) };
      }),
      { type: 'scatter', mode: 'lines', name: `${percent(options.target, 0)} % power`, x: [xs[0], xs[xs.length - 1]], y: [options.target * 100, options.target * 100], line: { dash: 'dash', color: 'black', width: 1 } },
    ],
    layout: {
      title: { text: `Power to detect ${options.contrast} = ${options.effect >= 0 ? '+' : ''}${percent(options.effect).toFixed(1)} points` },
      xaxis: { title: { text: 'Knowledge states in the design' } },
      yaxis: { title: { text: 'Power (%)' }, range: [0, 100] },
      legend: { orientation: 'h', y: -0.2 },
      width: 760,
      height: 460,
    },
  };
}
