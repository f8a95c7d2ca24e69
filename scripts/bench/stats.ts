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

function time<T>(run: () => T): { ms: number; result: T } {
  const start = performance.now();
  const result = run();
  return { ms: performance.now() - start, result };
}

export async function benchStats(print: (line: string) => void): Promise<void> {
  const differences = syntheticDifferences('bench:stats:data');
  conditionContrast(differences, { seed: 'bench:warmup', resamples: 1_000, flips: 10_000 });
  const bootstrap = time(() => bootstrapMeanInterval(differences, { seed: 'bench:bootstrap', resamples: RESAMPLES }));
  const signFlip = time(() => signFlipTest(differences, { seed: 'bench:signflip', flips: FLIPS }));
  const contrast = time(() => conditionContrast(differences, { seed: 'bench:contrast', resamples: RESAMPLES, flips: FLIPS }));
  const c = contrast.result;
  print(`stats: bootstrap ${STATES} values × ${RESAMPLES} resamples: ${bootstrap.ms.toFixed(1)} ms`);
  print(`stats: sign-flip ${STATES} values × ${FLIPS} flips: ${signFlip.ms.toFixed(1)} ms`);
  print(
    `stats: condition contrast (both): ${contrast.ms.toFixed(1)} ms ` +
      `(estimate ${c.estimate.toFixed(4)}, 95% [${c.low.toFixed(4)}, ${c.high.toFixed(4)}], p ${c.p.toFixed(6)})`,
  );
}

if (require.main === module) {
  benchStats((line) => console.log(line)).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
