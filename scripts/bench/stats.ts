/**
 * Benchmark of a paper-sized condition contrast (Steiner & Hochweber 2026, §4.4): 50 state-level paired
 * differences, 10,000 bootstrap resamples and 100,000 sign flips. The differences are drawn from a fixed
 * seed as multiples of 1/12 (a state mean over 6 models × 2 orders of 0/1 exact scores), so every run
 * times the same work.
 */
import seedrandom from 'seedrandom';
import { bootstrapMeanInterval, conditionContrast, signFlipTest } from '../../lib/stats';

const STATES = 50;
const RESAMPLES = 10_000;
const FLIPS = 100_000;

/** Paired differences of two state means, each a multiple of 1/12 in [0, 1]. */
function syntheticDifferences(seed: string): number[] {
  const rng = seedrandom.alea(seed);
  const stateMean = (rate: number) => Array.from({ length: 12 }, () => (rng() < rate ? 1 : 0) as number).reduce((a, b) => a + b, 0) / 12;
  return Array.from({ length: STATES }, () => stateMean(0.95) - stateMean(0.62));
}

const REPEATS = 5;

/** Runs `run` REPEATS times; returns the median and minimum wall time in ms and the last result. */
function time<T>(run: () => T): { median: number; min: number; result: T } {
  const times: number[] = [];
  let result = run();
  for (let r = 0; r < REPEATS; r += 1) {
    const start = performance.now();
    result = run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(REPEATS / 2)]!, min: times[0]!, result };
}

const ms = (t: { median: number; min: number }) => `median ${t.median.toFixed(1)} ms, min ${t.min.toFixed(1)} ms (${REPEATS} runs after warm-up)`;

export async function benchStats(print: (line: string) => void): Promise<void> {
  const differences = syntheticDifferences('bench:stats:data');
  const bootstrap = time(() => bootstrapMeanInterval(differences, { seed: 'bench:bootstrap', resamples: RESAMPLES }));
  const signFlip = time(() => signFlipTest(differences, { seed: 'bench:signflip', flips: FLIPS }));
  const contrast = time(() => conditionContrast(differences, { seed: 'bench:contrast', resamples: RESAMPLES, flips: FLIPS }));
  const c = contrast.result;
  print(`stats: bootstrap, ${STATES} values × ${RESAMPLES} resamples: ${ms(bootstrap)}`);
  print(`stats: sign-flip test, ${STATES} values × ${FLIPS} flips: ${ms(signFlip)}`);
  print(`stats: condition contrast (both): ${ms(contrast)}`);
  print(`stats:   estimate ${c.estimate.toFixed(4)}, 95% [${c.low.toFixed(4)}, ${c.high.toFixed(4)}], p ${c.p.toFixed(6)}`);
}

if (require.main === module) {
  benchStats((line) => console.log(line)).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
