import { InputError } from '../../lib/errors';
import { checkSpace, compileStructure, countStates, forEachStateBits, loadDomain, outerFringeBits } from '../../lib/kst';
import { exportStructure, openFileSink, stdoutSink, type FileSink } from '../../lib/kst-io';
import { parseOptions, required, UsageError, type Command } from '../common';

const help = `Usage: kstbench space --domain FILE [--format jsonl|srbt] [--out FILE] [--count] [--check]

Streams the knowledge space of a domain, one state at a time (never one big string), so spaces with
millions of states work:
  jsonl (default)  JSON Lines: a first line {"domain","components","structure","notions","states"},
                   then one line per state {"state":[IDs],"outer_fringe":[IDs]} in enumeration order
  srbt             the kstIO SRBT v2.0 space file (0/1 matrix, one line per state)
--count prints only the number of states, computed without enumerating where the structure allows.
--check prints the structure checks (knowledge space, quasi-ordinal, learning space, notions) as JSON.

Options:
  --domain FILE     a domain file (see docs/domain-files.md)
  --format F        jsonl or srbt (default jsonl)
  --out FILE        write to FILE (atomically: nothing is left on failure) instead of standard output
  --count           print the number of states and exit
  --check           print the structure checks and exit
  --max-states N    refuse spaces with more than N states (default 50000000; 0 = no limit)
  -h, --help        show this help
`;

export const command: Command = {
  help,
  async run(argv) {
    const parsed = parseOptions(
      argv,
      {
        domain: { type: 'string' },
        format: { type: 'string' },
        out: { type: 'string' },
        count: { type: 'boolean' },
        check: { type: 'boolean' },
        'max-states': { type: 'string' },
      },
      help,
    );
    if (!parsed) return 0;
    const file = required(parsed.values, 'domain');
    const format = parsed.values.format ?? 'jsonl';
    if (format !== 'jsonl' && format !== 'srbt') throw new UsageError(`--format must be jsonl or srbt, got ${JSON.stringify(format)}`);
    const maxText = parsed.values['max-states'] ?? '50000000';
    if (!/^\d+$/.test(maxText)) throw new UsageError(`--max-states must be an integer >= 0, got ${JSON.stringify(maxText)}`);
    const maxStates = Number(maxText);
    const domain = loadDomain(file);
    if (parsed.values.count) {
      process.stdout.write(`${countStates(domain)}\n`);
      return 0;
    }
    if (parsed.values.check) {
      process.stdout.write(`${JSON.stringify(checkSpace(domain))}\n`);
      return 0;
    }
    const total = countStates(domain);
    if (maxStates > 0 && total > maxStates) {
      throw new InputError(
        `${file}: the space has ${total} states, more than --max-states ${maxStates}; count it with --count, sample it with 'kstbench sample', or raise --max-states`,
        { file },
      );
    }
    const sink: FileSink = parsed.values.out ? openFileSink(parsed.values.out) : stdoutSink();
    try {
      if (format === 'srbt') exportStructure(domain, 'space', 'srbt', (c) => sink.write(c));
      else streamJsonLines(domain, total, (c) => sink.write(c));
      sink.commit();
    } catch (err) {
      sink.abort();
      throw err;
    }
    return 0;
  },
};

/** Header line, then one JSON line per state, in batches (each state built as a small string). */
function streamJsonLines(domain: ReturnType<typeof loadDomain>, total: number, write: (chunk: string) => void): void {
  const s = compileStructure(domain);
  write(
    `${JSON.stringify({ domain: domain.id, components: domain.ids, structure: domain.quasiOrdinal ? 'quasi-ordinal' : 'general', notions: domain.notions, states: total })}\n`,
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

