import { writeFileAtomic } from '../../lib/io';
import { loadDomain, sampleStates } from '../../lib/kst';
import { intOption, parseOptions, required, UsageError, type Command } from '../common';

const help = `Usage: kstbench sample --domain FILE --n N --seed S [--out FILE] [--burn-in N] [--thin N]

Draws a seeded sample of knowledge states (sampleStates in lib/kst) and writes the state-sample file
that 'kstbench collect --states FILE' reads: {scheme, domain, seed, draws, burnIn, thin, states,
counts, weights}. Quasi-ordinal domains use the lazy up-down Markov chain (approximately uniform,
burn-in and thinning recorded); other domains draw uniformly from the enumerated space. Give --domain
several times for several domains (the file is then an array, one sample per domain). Same domain,
N and seed give the same file.

Options:
  --domain FILE   a domain file (repeatable)
  --n N           number of draws per domain (distinct states are listed once, with their counts)
  --seed S        seed string, recorded in the file
  --out FILE      output file (atomically); standard output when omitted
  --burn-in N     chain steps before the first draw (default max(1000, 100·n))
  --thin N        chain steps between draws (default 2·n)
  -h, --help      show this help
`;

export const command: Command = {
  help,
  async run(argv) {
    const parsed = parseOptions(
      argv,
      {
        domain: { type: 'string', multiple: true },
        n: { type: 'string' },
        seed: { type: 'string' },
        out: { type: 'string' },
        'burn-in': { type: 'string' },
        thin: { type: 'string' },
      },
      help,
    );
    if (!parsed) return 0;
    const files = parsed.values.domain ?? [];
    if (files.length === 0) throw new UsageError('missing required option --domain');
    if (parsed.values.n === undefined) throw new UsageError('missing required option --n');
    const size = intOption(parsed.values, 'n', 0, 1);
    const seed = required(parsed.values, 'seed');
    const burnIn = parsed.values['burn-in'] === undefined ? undefined : intOption(parsed.values, 'burn-in', 0, 0);
    const thin = parsed.values.thin === undefined ? undefined : intOption(parsed.values, 'thin', 0, 1);
    const samples = files.map((file) =>
      sampleStates(loadDomain(file), { size, seed, ...(burnIn !== undefined ? { burnIn } : {}), ...(thin !== undefined ? { thin } : {}) }),
    );
    const text = `${JSON.stringify(samples.length === 1 ? samples[0] : samples, null, 2)}\n`;
    if (parsed.values.out) writeFileAtomic(parsed.values.out, text);
    else process.stdout.write(text);
    return 0;
  },
};
