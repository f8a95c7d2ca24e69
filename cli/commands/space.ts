// lib/kst's and lib/kst-io's modules, not their indexes, which also load sampling and presentation
// (seedrandom, lib/stats) and the import parsers: start-up of `kstbench space` is part of its time.
import { DEFAULT_WORK_BUDGET, requireBudget, workBudget } from '../../lib/kst/budget';
import { loadDomain } from '../../lib/kst/domain';
import { outerFringeBits } from '../../lib/kst/fringe';
import { checkSpace } from '../../lib/kst/general';
import { countForJson, countStatesExact, forEachStateBits } from '../../lib/kst/space';
import { compileStructure } from '../../lib/kst/structure';
import { bufferStates, exportStructure } from '../../lib/kst-io/convert';
import { openFileSink, stdoutSink, type FileSink } from '../../lib/kst-io/sink';
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
  srbt             the kstIO SRBT v2.0 space file (0/1 matrix, one line per state); for a space given
                   by a basis its rows (up to 128 MiB) are kept until the count for the header is
                   known, so that the space is walked once
--count prints only the number of states, computed without enumerating where the structure allows.
--check prints the structure checks (knowledge space, quasi-ordinal, learning space, notions) as JSON.

Options:
  --domain FILE     a domain file (see docs/domain-files.md)
  --format F        jsonl or srbt (default jsonl)
  --out FILE        write to FILE (atomically: nothing is left on failure) instead of standard output
  --count           print the number of states and exit
  --check           print the structure checks and exit
  --max-states N    work budget (default 50000000; 0 = no limit): a space with more states is not
                    streamed, and --count and --check stop after that many steps; the error says so
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
  if (parsed.values.count) {
    process.stdout.write(`${countStatesExact(domain, budget)}\n`);
    return 0;
  }
  if (parsed.values.check) {
    process.stdout.write(`${JSON.stringify(checkSpace(domain, parsed.values['max-states'] === undefined ? {} : { maxStates: budget.limit }))}\n`);
    return 0;
  }
  // SRBT of a space given by a basis: one walk gives the rows and the count its header needs (counting
  // is a walk there); a space past the budget or too large for memory is counted first, as JSON Lines are.
  const walked = format === 'srbt' && !domain.quasiOrdinal ? bufferStates(domain, '', budget.limit) : undefined;
  const total = walked ? BigInt(walked.count) : countStatesExact(domain, budget);
  requireBudget(budget, total, `streaming the ${total} states of ${file} (count them with --count, sample them with 'kstbench sample')`);
  const sink: FileSink = parsed.values.out ? openFileSink(parsed.values.out) : stdoutSink();
  try {
    if (format === 'srbt') exportStructure(domain, 'space', 'srbt', (c) => sink.write(c), undefined, walked ?? (total <= BigInt(Number.MAX_SAFE_INTEGER) ? { count: Number(total) } : undefined));
    else streamJsonLines(domain, total, (c) => sink.write(c));
    sink.commit();
  } catch (err) {
    sink.abort();
    throw err;
  }
  return 0;
});

/** Header line, then one JSON line per state, in batches (each state built as a small string). */
function streamJsonLines(domain: ReturnType<typeof loadDomain>, total: bigint, write: (chunk: string) => void): void {
  const s = compileStructure(domain);
  write(
    `${JSON.stringify({ domain: domain.id, components: domain.ids, structure: domain.quasiOrdinal ? 'quasi-ordinal' : 'general', notions: domain.notions, states: countForJson(total) })}\n`,
  );
  const ids = s.ids.map((id) => JSON.stringify(id));
  const fringe = new Uint32Array(s.words);
  let batch = '';
  let lines = 0;
  const list = (bits: Uint32Array): string => {
    let out = '';
    for (let w = 0; w < bits.length; w++) {
      let word = bits[w]!;
      while (word !== 0) {
        const low = word & -word;
        out += (out === '' ? '' : ',') + ids[(w << 5) + 31 - Math.clz32(low)]!;
        word ^= low;
      }
    }
    return out;
  };
  forEachStateBits(s, (bits) => {
    outerFringeBits(s, bits, fringe);
    batch += `{"state":[${list(bits)}],"outer_fringe":[${list(fringe)}]}\n`;
    if (++lines === 2048) {
      write(batch);
      batch = '';
      lines = 0;
    }
  });
  if (batch !== '') write(batch);
}

