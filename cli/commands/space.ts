// lib/kst's and lib/kst-io's modules, not their indexes, which also load sampling and presentation
// (seedrandom, lib/stats) and the import parsers: start-up of `kstbench space` is part of its time.
import { DEFAULT_WORK_BUDGET, workBudget } from '../../lib/kst/budget';
import { loadDomain } from '../../lib/kst/domain';
import { checkSpace } from '../../lib/kst/general';
import { countStatesExact, walkSpace } from '../../lib/kst/space';
import { exportStructure } from '../../lib/kst-io/convert';
import { openFileSink, stdoutSink, type FileSink } from '../../lib/kst-io/sink';
import { consumingSink, writeSpaceJsonLines } from '../../lib/kst-io/stream';
import { flagCommand, required } from '../common';
import { flag } from '../flags';

const flags = {
  domain: flag.path(),
  format: flag.enum(['jsonl', 'srbt'] as const),
  out: flag.path(),
  count: flag.boolean(),
  check: flag.boolean(),
  'max-states': flag.int(0, Number.MAX_SAFE_INTEGER, DEFAULT_WORK_BUDGET),
} as const;

const help = `Usage: kstbench space --domain FILE [--format jsonl|srbt] [--out FILE] [--count] [--check]

Streams the knowledge space of a domain, one state at a time (never one big string), so spaces with
millions of states work:
  jsonl (default)  JSON Lines: a first line {"domain","components","structure","notions","states"},
                   then one line per state {"state":[IDs],"outer_fringe":[IDs]} in enumeration order
  srbt             the kstIO SRBT v2.0 space file (0/1 matrix, one line per state)
Both headers carry the number of states; for a space given by a basis, the walk that counts it keeps
the states (up to 128 MiB of bitsets) for the writer, so that the space is walked once.
--count prints only the number of states, computed without enumerating where the structure allows.
--check prints the structure checks (knowledge space, quasi-ordinal, learning space, notions) as JSON.

Options:
  --domain FILE     a domain file (see docs/domain-files.md)
  --format F        jsonl or srbt (default jsonl)
  --out FILE        write to FILE (atomically: nothing is left on failure) instead of standard output
  --count           print the number of states and exit
  --check           print the structure checks and exit
  --max-states N    work budget (default 50000000; 0 = no limit): the space is streamed exactly when
                    --count under the same budget counts it and it has at most N states; --count
                    and --check stop after N steps; the error says so
Counts are exact decimal integers (2^64 prints as 18446744073709551616); the JSON Lines header
carries "states" as a number up to 2^53-1 and as a string of digits above it.
  -h, --help        show this help
`;

export const command = flagCommand(help, flags, async (parsed) => {
  const file = required(parsed.values, 'domain');
  const format = parsed.values.format ?? 'jsonl';
  const maxStates = parsed.values['max-states'] ?? DEFAULT_WORK_BUDGET;
  const budget = workBudget(maxStates);
  const domain = loadDomain(file);
  // The one line of --count and --check goes straight to fd 1, as the streamed space does (stdoutSink):
  // a command runs in a worker thread, whose process.stdout hands each write to the main thread
  // through a message port, and setting that up cost about 6 ms CPU of a --count's profile.
  if (parsed.values.count) {
    stdoutSink().write(`${countStatesExact(domain, budget)}\n`);
    return 0;
  }
  if (parsed.values.check) {
    stdoutSink().write(`${JSON.stringify(checkSpace(domain, parsed.values['max-states'] === undefined ? {} : { maxStates: budget.limit }))}\n`);
    return 0;
  }
  // One rule for both formats (docs/cli.md, "--max-states"): the space is streamed exactly when
  // `--count` under the same budget counts it and it has at most that many states. The walk that
  // finds the count of a space given by a basis keeps its states for the writer (walkSpace).
  const space = walkSpace(domain, budget, (count) => `streaming the ${count === undefined ? '' : `${count} `}states of ${file} (count them with --count, sample them with 'kstbench sample')`);
  const sink: FileSink = parsed.values.out ? openFileSink(parsed.values.out) : stdoutSink();
  // The sink writes each chunk synchronously, so the writers may fill their one buffer again.
  const write = consumingSink((c) => sink.write(c));
  try {
    if (format === 'srbt') exportStructure(domain, 'space', 'srbt', write, undefined, space);
    else writeSpaceJsonLines(domain, space, write);
    sink.commit();
  } catch (err) {
    sink.abort();
    throw err;
  }
  return 0;
});
