/**
 * Calibration of the simulated respondent (lib/simulation/kst-respondent/README.md).
 *
 *   node --import tsx lib/simulation/kst-respondent/calibrate.ts [--domains DIR] [--replicates N] [--search]
 *     [--spurious-share X] [--json FILE]
 *
 * Without --search it REPORTS, for the profiles as shipped in profiles.ts:
 *   - realized exact-set accuracy: the study design itself (every state × condition × 2 orders), i.e.
 *     what `npm run corpus` will produce (invalid answers count as incorrect);
 *   - expected accuracy: the mean over N replicate seed streams (the profile's name gets a `~r<k>`
 *     suffix, which changes every seed but no parameter), i.e. the behaviour the parameters imply;
 *   - the same per domain × condition, and the order agreement (exact, valid pairs only).
 *
 * With --search it fits the parameters by coordinate descent over small grids and prints the fitted
 * values (which are then copied into profiles.ts by hand, so the shipped table is readable):
 *   1. domain difficulty multipliers (shared by all profiles) against the paper's domain × P0/P1 cells;
 *   2. per profile and ungrounded condition, the miss rate (spurious = SPURIOUS_SHARE · miss);
 *   3. per profile, the P2 and P3 slip rates;
 *   4. the shared order consistency against the 85.25 % order agreement.
 * The loss of one grid point is max(|expected − target|, |realized − target|) in percentage points,
 * so that the parameters describe the profile's typical behaviour AND the shipped corpus lands near
 * the published row. Deterministic: no Math.random, seeds are fixed strings.
 */
import { loadDomainDir, type Domain } from '../../kst';
import { CONDITIONS, type Condition } from '../../conditions';
import { writeFileAtomic } from '../../io';
import {
  DOMAIN_DIFFICULTY,
  SIMULATED_PROFILES,
  decide,
  type SimulatedProfile,
} from './provider';
import { designCells, type Cell } from './fit';

/** Published domain × condition exact-set accuracy ([KST-2026] §4.5.2; G2E / E2G from the domain totals). */
export const PUBLISHED_DOMAIN_UNGROUNDED: Record<string, { P0: number; P1: number }> = {
  slope: { P0: 36.4, P1: 25.8 },
  'linear-modelling': { P0: 58.3, P1: 60.1 },
  // Graph to Equation: P1 target 86.1 = 93/108, one response below Figure 3's counts (17+17+16+15+15+14 = 94/108
  // = 87.0 %); left as is: correcting it means a new --search and corpus. P0 from the 89.6 % domain total.
  'graph-to-equation': { P0: 76.0, P1: 86.1 },
  // Equation to Graph: 97.0 % over all conditions; P0 and P1 assumed equal.
  'equation-to-graph': { P0: 95.5, P1: 95.5 },
};
export const PUBLISHED_ORDER_AGREEMENT = 85.25;
/** Spurious-pair rate as a share of the miss rate (precision < recall in the paper: extra steps dominate). */
export let SPURIOUS_SHARE = 0.6;


interface Tally {
  correct: number;
  total: number;
}
export interface Evaluation {
  /** profile name → condition → accuracy in % */
  byProfile: Record<string, Record<Condition, number>>;
  /** domain → condition → accuracy in % (all profiles pooled) */
  byDomain: Record<string, Record<Condition, number>>;
  /** exact order agreement in % over valid pairs */
  agreement: number;
  invalidShare: number;
}

function pct(t: Tally): number {
  return t.total === 0 ? NaN : (100 * t.correct) / t.total;
}

/** Scores the profiles on the study cells; `suffix` renames every profile (a different seed stream). */
function evaluate(profiles: readonly SimulatedProfile[], cells: readonly Cell[], suffix = ''): Evaluation {
  const byProfile = new Map<string, Tally>();
  const byDomain = new Map<string, Tally>();
  const answers = new Map<string, string | null>();
  let invalid = 0;
  let total = 0;
  let agree = 0;
  let pairs = 0;
  const bump = (map: Map<string, Tally>, key: string, ok: boolean) => {
    const t = map.get(key) ?? { correct: 0, total: 0 };
    t.total++;
    if (ok) t.correct++;
    map.set(key, t);
  };
  for (const base of profiles) {
    const profile = suffix ? { ...base, name: `${base.name}${suffix}` } : base;
    for (const cell of cells) {
      const d = decide(profile, cell);
      const answer = d.invalid === null ? d.recommendations.map((r) => r.id).join(',') : null;
      const ok = answer === cell.fringeKey;
      total++;
      if (d.invalid !== null) invalid++;
      bump(byProfile, `${base.name}|${cell.condition}`, ok);
      bump(byDomain, `${cell.domain.id}|${cell.condition}`, ok);
      const key = `${base.name}|${cell.domain.id}|${cell.state.join(',')}|${cell.condition}`;
      if (cell.presentation.order === 1) answers.set(key, answer);
      else {
        const other = answers.get(key);
        if (other !== null && other !== undefined && answer !== null) {
          pairs++;
          if (other === answer) agree++;
        }
      }
    }
  }
  const table = (keys: string[], map: Map<string, Tally>) =>
    Object.fromEntries(keys.map((k) => [k, Object.fromEntries(CONDITIONS.map((c) => [c, pct(map.get(`${k}|${c}`) ?? { correct: 0, total: 0 })]))])) as Record<
      string,
      Record<Condition, number>
    >;
  return {
    byProfile: table(profiles.map((p) => p.name), byProfile),
    byDomain: table([...new Set(cells.map((c) => c.domain.id))], byDomain),
    agreement: pairs === 0 ? NaN : (100 * agree) / pairs,
    invalidShare: (100 * invalid) / total,
  };
}

/** Mean evaluation over `replicates` alternative seed streams. */
function expected(profiles: readonly SimulatedProfile[], cells: readonly Cell[], replicates: number): Evaluation {
  const runs = Array.from({ length: replicates }, (_, k) => evaluate(profiles, cells, `~r${k + 1}`));
  const avg = (f: (e: Evaluation) => number) => runs.reduce((s, e) => s + f(e), 0) / runs.length;
  const first = runs[0]!;
  const mapTable = (pick: (e: Evaluation) => Record<string, Record<Condition, number>>) =>
    Object.fromEntries(
      Object.keys(pick(first)).map((k) => [k, Object.fromEntries(CONDITIONS.map((c) => [c, avg((e) => pick(e)[k]![c])]))]),
    ) as Record<string, Record<Condition, number>>;
  return {
    byProfile: mapTable((e) => e.byProfile),
    byDomain: mapTable((e) => e.byDomain),
    agreement: avg((e) => e.agreement),
    invalidShare: avg((e) => e.invalidShare),
  };
}

const MISS_GRID = Array.from({ length: 40 }, (_, i) => Math.round((0.01 + i * 0.015) * 1000) / 1000);
const SLIP_GRID = Array.from({ length: 26 }, (_, i) => i / 100);
const DIFFICULTY_GRID = [0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.1, 1.25, 1.4, 1.6, 1.8, 2, 2.3, 2.6, 3, 3.5, 4, 5];
const CONSISTENCY_GRID = [0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1];

function loss(expectedValue: number, realizedValue: number, target: number): number {
  return Math.max(Math.abs(expectedValue - target), Math.abs(realizedValue - target));
}

/**
 * The fixed starting point of the search, so that `--search` reproduces the shipped table exactly:
 * every profile's belief rates at miss 0.2 / spurious 0.04, P2/P3 slips 0, every domain difficulty 1,
 * consistency 0.85. Not fitted: the names, the published rows, the P0/P1 lapse (slip) rates and the
 * invalid-output rates, which are taken from the shipped table as they are.
 */
export function searchStart(profiles: readonly SimulatedProfile[], domainIds: readonly string[]): SimulatedProfile[] {
  return profiles.map((p) => ({
    ...p,
    belief: { P0: { miss: 0.2, spurious: 0.04 }, P1: { miss: 0.2, spurious: 0.04 } },
    slip: { ...p.slip, P2: 0, P3: 0 },
    consistency: 0.85,
    domainDifficulty: Object.fromEntries(domainIds.map((id) => [id, { P0: 1, P1: 1 }])),
  }));
}

function search(start: readonly SimulatedProfile[], cells: readonly Cell[], replicates: number, log: (s: string) => void): SimulatedProfile[] {
  let profiles = start.map((p) => ({ ...p, belief: { P0: { ...p.belief.P0 }, P1: { ...p.belief.P1 } }, slip: { ...p.slip }, domainDifficulty: { ...(p.domainDifficulty ?? DOMAIN_DIFFICULTY) } }));
  const ungrounded = cells.filter((c) => c.condition === 'P0' || c.condition === 'P1');
  const domainIds = [...new Set(cells.map((c) => c.domain.id))];
  for (let round = 1; round <= 2; round++) {
    // 1. Domain difficulty (shared by all profiles), per ungrounded condition.
    for (const id of domainIds) {
      const target = PUBLISHED_DOMAIN_UNGROUNDED[id];
      if (!target) continue;
      for (const condition of ['P0', 'P1'] as const) {
        const domainCells = ungrounded.filter((c) => c.domain.id === id && c.condition === condition);
        const set = (ps: readonly SimulatedProfile[], value: number) =>
          ps.map((p) => {
            const old = p.domainDifficulty?.[id] ?? { P0: 1, P1: 1 };
            return { ...p, domainDifficulty: { ...p.domainDifficulty, [id]: { ...old, [condition]: value } } };
          });
        let best = { value: NaN, loss: Infinity };
        for (const value of DIFFICULTY_GRID) {
          const trial = set(profiles, value);
          const e = expected(trial, domainCells, replicates).byDomain[id]![condition];
          const r = evaluate(trial, domainCells).byDomain[id]![condition];
          const l = loss(e, r, target[condition]);
          if (l < best.loss) best = { value, loss: l };
        }
        profiles = set(profiles, best.value);
        log(`round ${round}: difficulty ${id} ${condition} = ${best.value} (loss ${best.loss.toFixed(1)} pp)`);
      }
    }
    // 2. Miss rates per profile and ungrounded condition.
    profiles = profiles.map((p) => {
      let current = p;
      for (const condition of ['P0', 'P1'] as const) {
        const own = ungrounded.filter((c) => c.condition === condition);
        let best = { miss: current.belief[condition].miss, loss: Infinity };
        for (const miss of MISS_GRID) {
          const trial = { ...current, belief: { ...current.belief, [condition]: { miss, spurious: Math.round(miss * SPURIOUS_SHARE * 1e4) / 1e4 } } };
          const e = expected([trial], own, replicates).byProfile[p.name]![condition];
          const r = evaluate([trial], own).byProfile[p.name]![condition];
          const l = loss(e, r, p.published[condition]);
          if (l < best.loss) best = { miss, loss: l };
        }
        current = { ...current, belief: { ...current.belief, [condition]: { miss: best.miss, spurious: Math.round(best.miss * SPURIOUS_SHARE * 1e4) / 1e4 } } };
        log(`round ${round}: ${p.name} ${condition} miss = ${best.miss} (loss ${best.loss.toFixed(1)} pp)`);
      }
      return current;
    });
  }
  // 3. Slip rates under the supplied structure.
  profiles = profiles.map((p) => {
    let current = p;
    for (const condition of ['P2', 'P3'] as const) {
      const own = cells.filter((c) => c.condition === condition);
      let best = { slip: 0, loss: Infinity };
      for (const slip of SLIP_GRID) {
        const trial = { ...current, slip: { ...current.slip, [condition]: slip } };
        const e = expected([trial], own, replicates).byProfile[p.name]![condition];
        const r = evaluate([trial], own).byProfile[p.name]![condition];
        const l = loss(e, r, p.published[condition]);
        if (l < best.loss - 1e-9) best = { slip, loss: l };
      }
      current = { ...current, slip: { ...current.slip, [condition]: best.slip } };
      log(`${p.name} ${condition} slip = ${best.slip} (loss ${best.loss.toFixed(1)} pp)`);
    }
    return current;
  });
  // 4. Order consistency (shared by all profiles) against the published order agreement.
  let bestC = { value: profiles[0]!.consistency, loss: Infinity };
  for (const value of CONSISTENCY_GRID) {
    const trial = profiles.map((p) => ({ ...p, consistency: value }));
    const l = loss(expected(trial, cells, Math.max(1, Math.floor(replicates / 4))).agreement, evaluate(trial, cells).agreement, PUBLISHED_ORDER_AGREEMENT);
    if (l < bestC.loss) bestC = { value, loss: l };
  }
  log(`consistency = ${bestC.value} (loss ${bestC.loss.toFixed(1)} pp)`);
  return profiles.map((p) => ({ ...p, consistency: bestC.value }));
}

function report(profiles: readonly SimulatedProfile[], cells: readonly Cell[], replicates: number): Record<string, unknown> {
  const realized = evaluate(profiles, cells);
  const exp = expected(profiles, cells, replicates);
  const f = (x: number) => x.toFixed(1).padStart(5);
  const lines: string[] = [];
  lines.push('profile  mirrors                  cond  published  realized  expected');
  for (const p of profiles) {
    for (const c of CONDITIONS) {
      lines.push(`${p.name.padEnd(8)} ${p.mirrors.padEnd(24)} ${c}    ${f(p.published[c])}     ${f(realized.byProfile[p.name]![c])}     ${f(exp.byProfile[p.name]![c])}`);
    }
  }
  lines.push('', 'domain              cond  published  realized  expected');
  for (const id of Object.keys(realized.byDomain)) {
    for (const c of CONDITIONS) {
      const pub = (c === 'P0' || c === 'P1') && PUBLISHED_DOMAIN_UNGROUNDED[id] ? PUBLISHED_DOMAIN_UNGROUNDED[id]![c] : NaN;
      lines.push(`${id.padEnd(19)} ${c}    ${f(pub)}     ${f(realized.byDomain[id]![c])}     ${f(exp.byDomain[id]![c])}`);
    }
  }
  lines.push('', `order agreement: published ${PUBLISHED_ORDER_AGREEMENT}, realized ${realized.agreement.toFixed(2)}, expected ${exp.agreement.toFixed(2)}`);
  lines.push(`invalid share: realized ${realized.invalidShare.toFixed(2)} %, expected ${exp.invalidShare.toFixed(2)} %`);
  process.stdout.write(`${lines.join('\n')}\n`);
  return { replicates, realized, expected: exp };
}

function main(argv: string[]): void {
  const arg = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const domains = loadDomainDir(arg('--domains') ?? 'data/raw/domains');
  const replicates = Number(arg('--replicates') ?? 40);
  if (arg('--spurious-share') !== undefined) SPURIOUS_SHARE = Number(arg('--spurious-share'));
  const cells = designCells(domains);
  let profiles: readonly SimulatedProfile[] = SIMULATED_PROFILES;
  if (argv.includes('--search')) {
    profiles = search(searchStart(profiles, domains.map((d) => d.id)), cells, replicates, (s) => process.stderr.write(`${s}\n`));
    process.stdout.write(
      `${JSON.stringify(
        profiles.map((p) => ({ name: p.name, belief: p.belief, slip: p.slip, consistency: p.consistency })),
        null,
        1,
      )}\ndomain difficulty: ${JSON.stringify(profiles[0]!.domainDifficulty)}\n\n`,
    );
  }
  const result = report(profiles, cells, replicates);
  const out = arg('--json');
  if (out) writeFileAtomic(out, `${JSON.stringify(result, null, 2)}\n`);
}

if (require.main === module) main(process.argv.slice(2));
