import { CONDITIONS, type Condition } from '../../lib/conditions';
import { loadStudy } from '../../lib/study/manifest';
import { formatPlan, planStudy } from '../../lib/study/plan-study';
import { parseOptions, UsageError } from '../common';
import { flag } from '../flags';
import type { Subcommand } from './study';

const HELP = `Usage: kstbench study plan DIR [options]

Estimates by simulation the power of the study's own procedure (state-level sign-flip test, Holm
across the design's adjacent contrasts) to detect a chosen contrast of a chosen size, for candidate
designs (states × repeats); prints the states needed for the target power and the cost of each
design from the catalogue; writes DIR/<output>/plan/{plan.json,plan.csv,power-curve.svg,png}.
Nothing is sent to any model: the baseline comes from the simulated respondent or from --rates.

Options:
  --contrast C      P1-P0, P2-P1 or P3-P2 (default: the design's first adjacent contrast)
  --effect X        size to detect, later − earlier in accuracy units, e.g. 0.05 (default 0.05)
  --rates LIST      baseline accuracy per condition, e.g. P0=0.3,P1=0.35,P2=0.8,P3=0.95
                    (default: the simulated respondent on the study's own design)
  --profiles LIST   simulated profiles of that baseline (default: the study's simulated models,
                    else sim-a … sim-f)
  --states LIST     candidate numbers of states (default 10,20,30,50,75,100,150,200,300 and the
                    study's own)
  --repeats LIST    candidate repeats per cell (default 1,2,3)
  --studies N       simulated studies per candidate design (default 1000)
  --flips N         sign flips per test (default 2000)
  --alpha X         family-wise level (default 0.05)
  --state-sd X      sd of the state difficulty on the logit scale (default 0.5; 0: all states alike)
  --target X        power to reach (default 0.8)
  --seed S          seed of every draw (default 20260908; recorded in plan.json)
  --no-figure       skip the power curve (no browser)
  -h, --help        show this help
`;

/** The largest candidate states or repeats: each sizes a simulated study, so it is capped like any count flag. */
const MAX_CANDIDATE = 100_000;

/** A contrast of size zero has nothing to detect. */
function nonZero(effect: number): number {
  if (effect === 0) throw new UsageError('--effect must be a size other than 0 (e.g. --effect 0.05)');
  return effect;
}

function ints(v: unknown, name: string): number[] | undefined {
  if (v === undefined) return undefined;
  const xs = String(v).split(',').map((s) => s.trim());
  if (xs.some((s) => !/^[1-9]\d*$/.test(s) || Number(s) > MAX_CANDIDATE)) {
    throw new UsageError(`--${name} must be whole numbers in 1..${MAX_CANDIDATE} separated by commas (e.g. --${name} 20,50), got ${JSON.stringify(v)}`);
  }
  return [...new Set(xs.map(Number))].sort((a, b) => a - b);
}

function rates(v: unknown): Partial<Record<Condition, number>> | undefined {
  if (v === undefined) return undefined;
  const out: Partial<Record<Condition, number>> = {};
  for (const part of String(v).split(',')) {
    const m = /^\s*(P[0-3])\s*=\s*([0-9.]+)\s*$/.exec(part);
    if (!m || !(CONDITIONS as readonly string[]).includes(m[1]!) || !(Number(m[2]) >= 0 && Number(m[2]) <= 1)) {
      throw new UsageError(`--rates: ${JSON.stringify(part)} is not CONDITION=RATE with a rate in [0, 1] (e.g. P0=0.3)`);
    }
    out[m[1] as Condition] = Number(m[2]);
  }
  return out;
}

const PLAN_FLAGS = {
  contrast: flag.enum(['P1-P0', 'P2-P1', 'P3-P2'] as const),
  effect: flag.number(-0.99, 0.99, 0.05),
  rates: flag.string(),
  profiles: flag.string(),
  states: flag.string(),
  repeats: flag.string(),
  studies: flag.int(1, 100_000, 1000),
  flips: flag.int(1, 1_000_000, 2000),
  alpha: flag.number(0, 1, 0.05, true),
  'state-sd': flag.number(0, 10, 0.5),
  target: flag.number(0, 0.999, 0.8, true),
  seed: flag.seed(),
  'no-figure': flag.boolean(),
} as const;

export const plan: Subcommand = {
  help: HELP,
  flags: PLAN_FLAGS,
  async run(argv) {
    const parsed = parseOptions(argv, PLAN_FLAGS, HELP, true);
    if (!parsed) return 0;
    const v = parsed.values;
    if (parsed.positionals.length !== 1) throw new UsageError(`study plan takes one study folder (got ${parsed.positionals.length} arguments)`);
    const study = loadStudy(parsed.positionals[0]!);
    const given = rates(v.rates);
    const result = await planStudy(
      study,
      {
        ...(v.contrast !== undefined ? { contrast: v.contrast } : {}),
        effect: nonZero(v.effect ?? 0.05),
        ...(given ? { rates: given } : {}),
        ...(v.profiles !== undefined ? { profiles: String(v.profiles).split(',').map((s) => (s.includes(':') ? s.trim() : `simulated:${s.trim()}`)) } : {}),
        ...(v.states !== undefined ? { stateCounts: ints(v.states, 'states')! } : {}),
        repeats: ints(v.repeats, 'repeats') ?? [1, 2, 3],
        studies: v.studies ?? 1000,
        flips: v.flips ?? 2000,
        alpha: v.alpha ?? 0.05,
        stateSd: v['state-sd'] ?? 0.5,
        target: v.target ?? 0.8,
        seed: v.seed ?? '20260908',
        figure: !v['no-figure'],
      },
      (line) => process.stderr.write(`kstbench study plan: ${line}\n`),
    );
    process.stdout.write(formatPlan(study, result, !v['no-figure']));
    return 0;
  },
};
