// lib/kst's and lib/kst-io's modules, not their indexes (which also load sampling, presentation and
// the import parsers' callers): start-up is part of an export's time, as of `kstbench space`.
import { DEFAULT_WORK_BUDGET, workBudget } from '../../lib/kst/budget';
import { loadDomain } from '../../lib/kst/domain';
import { walkSpace, type WalkedSpace } from '../../lib/kst/space';
import { EXPORT_FORMATS, EXPORT_WHATS, exportStructure, type ExportWhat } from '../../lib/kst-io/convert';
import { MATRIX_FORMATS, type MatrixFormat } from '../../lib/kst-io/formats';
import { openFileSink, stdoutSink } from '../../lib/kst-io/sink';
import { consumingSink } from '../../lib/kst-io/stream';
import { flagCommand, required, UsageError } from '../common';
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
kstMatrix's surmise-function CSV; items is the id,description CSV. Where a format carries item names
(csv, surmise-csv, items), each item is named by its label (its name in the file it was imported
from) when import maps the names back to the same IDs, else by its ID, with a note on stderr saying
why. A space streams row by row (one given by a basis is walked once, its states, up to 128 MiB of
bitsets, kept until its count is known).

Options:
  --domain FILE    a domain file
  --what W         ${EXPORT_WHATS.join(', ')}
  --format F       ${MATRIX_FORMATS.join(', ')}
  --out FILE       write to FILE (atomically) instead of standard output
  --comment TEXT   SRBT header comment
  --max-states N   work budget for --what space, as for kstbench space: exported exactly when
                   space --count under it counts the space and it has at most N states
                   (default 50000000; 0 = no limit)
  -h, --help       show this help
`;

/** How many of export's notes on labels it could not write are printed one per line. */
const NOTES_SHOWN = 20;

export const command = flagCommand(help, flags, async (parsed) => {
  const file = required(parsed.values, 'domain');
  const what = required(parsed.values, 'what');
  const format = required(parsed.values, 'format');
  if (!(EXPORT_FORMATS[what as ExportWhat] as readonly string[]).includes(format)) {
    throw new UsageError(`--what ${what} is written as ${EXPORT_FORMATS[what as ExportWhat].join(' or ')}, not ${JSON.stringify(format)}`);
  }
  const domain = loadDomain(file);
  // The rule of `kstbench space` (docs/cli.md, "--max-states"): exported exactly when `space --count`
  // under the same budget counts it and it has at most that many states; the walk that finds the
  // count of a space given by a basis keeps its states for the rows (walkSpace).
  let space: WalkedSpace | undefined;
  if (what === 'space') {
    const budget = workBudget(parsed.values['max-states'] ?? DEFAULT_WORK_BUDGET);
    space = walkSpace(domain, budget, (count) => `exporting the ${count === undefined ? '' : `${count} `}states of ${file}`);
  }
  const sink = parsed.values.out ? openFileSink(parsed.values.out) : stdoutSink();
  try {
    const notes = exportStructure(domain, what as ExportWhat, format as MatrixFormat, consumingSink((c) => sink.write(c)), parsed.values.comment, space);
    sink.commit();
    // A label not written as the item's name is said, so that a round trip's lost name is never silent;
    // past NOTES_SHOWN, one line counts the rest (a big file with hand-added labels is not a screenful each).
    for (const note of notes.slice(0, NOTES_SHOWN)) process.stderr.write(`kstbench export: ${note}\n`);
    if (notes.length > NOTES_SHOWN) {
      process.stderr.write(`kstbench export: and ${notes.length - NOTES_SHOWN} more items named by their ID, as their labels would not come back (lib/kst-io/README.md, "Item names")\n`);
    }
  } catch (err) {
    sink.abort();
    throw err;
  }
  return 0;
});
