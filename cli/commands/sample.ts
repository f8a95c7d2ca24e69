import { writeFileAtomic } from '../../lib/io';
import { loadDomain, sampleStates } from '../../lib/kst';
import { flagCommand, required, UsageError } from '../common';
import { flag } from '../flags';

/** Draws per domain (the sample holds one array entry per distinct state drawn) and chain steps: caps keep both finite. */
export const MAX_DRAWS = 10_000_000;
export const MAX_CHAIN_STEPS = 1_000_000_000;

const flags = {
  domain: flag.paths(),
  n: flag.int(1, MAX_DRAWS, 100),
  seed: flag.seed(),
  out: flag.path(),
  'burn-in': flag.int(0, MAX_CHAIN_STEPS, 1000),
  thin: flag.int(1, MAX_CHAIN_STEPS, 10),
} as const;

const help = `Usage: kstbench sample --domain FILE --n N --seed S [--out FILE] [--burn-in N] [--thin N]

Draws a seeded sample of knowledge states (sampleStates in lib/kst) and writes the state-sample file
that 'kstbench collect --states FILE' reads: {scheme, domain, seed, draws, burnIn, thin, states,
counts, weights}. Quasi-ordinal domains use the lazy up-down Markov chain (approximately uniform,
burn-in and thinning recorded); other domains draw uniformly from the enumerated space. Give --domain
several times for several domains (the file is then an array, one sample per domain). Same domain,
N and seed give the same file.

Options:
  --domain FILE   a domain file (repeatable)
  --n N           number of draws per domain, 1..10000000 (distinct states are listed once, with counts)
  --seed S        an integer up to 2^53-1, or a text hashed to one; the value used is recorded
  --out FILE      output file (atomically); standard output when omitted
  --burn-in N     chain steps before the first draw, 0..1000000000 (default max(1000, 100·n))
  --thin N        chain steps between draws, 1..1000000000 (default 2·n)
  -h, --help      show this help
`;

export const command = flagCommand(help, flags, async (parsed) => {
  const files = parsed.values.domain ?? [];
  if (files.length === 0) throw new UsageError('missing required option --domain');
  if (parsed.values.n === undefined) throw new UsageError('missing required option --n');
  const size = parsed.values.n;
  const seed = required(parsed.values, 'seed');
  const burnIn = parsed.values['burn-in'];
  const thin = parsed.values.thin;
  const samples = files.map((file) =>
    sampleStates(loadDomain(file), { size, seed, ...(burnIn !== undefined ? { burnIn } : {}), ...(thin !== undefined ? { thin } : {}) }),
  );
  const text = `${JSON.stringify(samples.length === 1 ? samples[0] : samples, null, 2)}\n`;
  if (parsed.values.out) writeFileAtomic(parsed.values.out, text);
  else process.stdout.write(text);
  return 0;
});
