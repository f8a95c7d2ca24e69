import { countStatesExact, DEFAULT_WORK_BUDGET, loadDomain, requireBudget, workBudget } from '../../lib/kst';
import { EXPORT_FORMATS, EXPORT_WHATS, MATRIX_FORMATS, exportStructure, openFileSink, stdoutSink, type ExportWhat, type MatrixFormat } from '../../lib/kst-io';
import { parseOptions, required, UsageError, type Command } from '../common';
import { flag } from '../flags';

const flags = {
  domain: flag.path(),
  what: flag.enum(EXPORT_WHATS),
  format: flag.enum(MATRIX_FORMATS),
  out: flag.path(),
  comment: flag.string(),
  'max-states': flag.int(0, Number.MAX_SAFE_INTEGER, DEFAULT_WORK_BUDGET),
} as const;

const help = `Usage: kstbench export --domain FILE --what W --format F [--out FILE] [--comment TEXT]

Writes a domain's structure in a kstIO format, for kst, kstMatrix, pks, DAKS or CDSS:
${EXPORT_WHATS.map((w) => `  --what ${w.padEnd(9)} formats: ${EXPORT_FORMATS[w].join(', ')}`).join('\n')}
basis rows are coded 0/1/2 (1: the state is minimal for the item); relation is the surmise relation
with row i, column j = 1 when i is surmised from j (column j is the minimal state of j); surmise is
kstMatrix's surmise-function CSV; items is the id,description CSV. A space streams row by row.

Options:
  --domain FILE    a domain file
  --what W         ${EXPORT_WHATS.join(', ')}
  --format F       ${MATRIX_FORMATS.join(', ')}
  --out FILE       write to FILE (atomically) instead of standard output
  --comment TEXT   SRBT header comment
  --max-states N   work budget for --what space: at most N states (default 50000000; 0 = no limit)
  -h, --help       show this help
`;

export const command: Command = {
  help,
  flags,
  async run(argv) {
    const parsed = parseOptions(argv, flags, help);
    if (!parsed) return 0;
    const file = required(parsed.values, 'domain');
    const what = required(parsed.values, 'what');
    const format = required(parsed.values, 'format');
    if (!(EXPORT_FORMATS[what as ExportWhat] as readonly string[]).includes(format)) {
      throw new UsageError(`--what ${what} is written as ${EXPORT_FORMATS[what as ExportWhat].join(' or ')}, not ${JSON.stringify(format)}`);
    }
    const domain = loadDomain(file);
    if (what === 'space') {
      const budget = workBudget(parsed.values['max-states'] ?? DEFAULT_WORK_BUDGET);
      const total = countStatesExact(domain, budget);
      requireBudget(budget, total, `exporting the ${total} states of ${file}`);
    }
    const sink = parsed.values.out ? openFileSink(parsed.values.out) : stdoutSink();
    try {
      exportStructure(domain, what as ExportWhat, format as MatrixFormat, (c) => sink.write(c), parsed.values.comment);
      sink.commit();
    } catch (err) {
      sink.abort();
      throw err;
    }
    return 0;
  },
};
