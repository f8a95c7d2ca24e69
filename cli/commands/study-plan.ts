import { CONDITIONS, type Condition } from '../../lib/conditions';
import { loadStudy } from '../../lib/study/manifest';
import { formatPlan, planStudy } from '../../lib/study/plan-study';
import { intOption, parseOptions, UsageError } from '../common';
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

function number(v: unknown, name: string, fallback: number, ok: (x: number) => boolean): number {
  if (v === undefined) return fallback;
  const x = typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  if (!Number.isFinite(x) || !ok(x)) throw new UsageError(`--${name}: ${JSON.stringify(v)} is out of range`);
  return x;
}

function ints(v: unknown, name: string): number[] | undefined {
  if (v === undefined) return undefined;
  const xs = String(v).split(',').map((s) => s.trim());
  if (xs.some((s) => !/^[1-9]\d*$/.test(s))) throw new UsageError(`--${name}: expected whole numbers ≥ 1 separated by commas, got ${JSON.stringify(v)}`);
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

export const plan: Subcommand = {
  help: HELP,
  async run(argv) {
    const parsed = parseOptions(
      argv,
      {
        contrast: { type: 'string' },
        effect: { type: 'string' },
        rates: { type: 'string' },
        profiles: { type: 'string' },
        states: { type: 'string' },
        repeats: { type: 'string' },
        studies: { type: 'string' },
        flips: { type: 'string' },
        alpha: { type: 'string' },
        'state-sd': { type: 'string' },
        target: { type: 'string' },
        seed: { type: 'string' },
        'no-figure': { type: 'boolean' },
      },
      HELP,
      true,
    );
    if (!parsed) return 0;
    const v = parsed.values;
    if (parsed.positionals.length !== 1) throw new UsageError(`study plan takes one study folder (got ${parsed.positionals.length} arguments)`);
    const study = loadStudy(parsed.positionals[0]!);
    const given = rates(v.rates);
    const result = await planStudy(
      study,
      {
        ...(v.contrast !== undefined ? { contrast: v.contrast } : {}),
        effect: number(v.effect, 'effect', 0.05, (x) => x !== 0 && Math.abs(x) < 1),
        ...(given ? { rates: given } : {}),
        ...(v.profiles !== undefined ? { profiles: String(v.profiles).split(',').map((s) => (s.includes(':') ? s.trim() : `simulated:${s.trim()}`)) } : {}),
        ...(v.states !== undefined ? { stateCounts: ints(v.states, 'states')! } : {}),
        repeats: ints(v.repeats, 'repeats') ?? [1, 2, 3],
        studies: intOption(v, 'studies', 1000, 1),
        flips: intOption(v, 'flips', 2000, 1),
        alpha: number(v.alpha, 'alpha', 0.05, (x) => x > 0 && x < 1),
        stateSd: number(v['state-sd'], 'state-sd', 0.5, (x) => x >= 0 && x <= 10),
        target: number(v.target, 'target', 0.8, (x) => x > 0 && x < 1),
        seed: v.seed ?? '20260908',
        figure: !v['no-figure'],
      },
      (line) => process.stderr.write(`kstbench study plan: ${line}\n`),
    );
    process.stdout.write(formatPlan(study, result, !v['no-figure']));
    return 0;
  },
};
