import { checkJson, readInputText, writeFileAtomic } from '../../lib/io';
import { BudgetError, buildDomain, DomainFileSchema, countStatesExact, DEFAULT_WORK_BUDGET, workBudget } from '../../lib/kst';
import { MATRIX_FORMATS, STRUCTURE_KINDS, importStructure, readItemDescriptions, type MatrixFormat, type StructureKind } from '../../lib/kst-io';
import { flagCommand, required, UsageError } from '../common';
import { flag } from '../flags';

const flags = {
  id: flag.string(),
  out: flag.path(),
  format: flag.enum(MATRIX_FORMATS),
  kind: flag.enum(STRUCTURE_KINDS),
  items: flag.path(),
  title: flag.string(),
  source: flag.string(),
  'id-prefix': flag.string(),
  'reduce-notions': flag.boolean(),
} as const;

const help = `Usage: kstbench import FILE --id ID --out DOMAIN.json [options]

Turns a structure file of the KST ecosystem (kstIO formats, as kst, kstMatrix, pks, DAKS and CDSS
write them) into a kstbench domain file. Formats: matrix, kst (KST Tools), srbt (SRBT v2.0), csv,
surmise-csv; detected automatically unless --format is given. Malformed files are refused with
file:line and the reason.

Options:
  --id ID              the domain's id
  --out FILE           the domain file to write (atomically)
  --format F           ${MATRIX_FORMATS.join(', ')}
  --kind K             what the file holds: ${STRUCTURE_KINDS.join(', ')} (from the SRBT header; otherwise
                       basis when a 2 appears, else space). Give --kind basis for a 0/1 basis file.
  --items FILE         item IDs and descriptions, a CSV with the header id,description (in item order
                       for files without names; matching the header for CSV files)
  --title TEXT         the domain's title (default: the id)
  --source TEXT        provenance text (default: the file and its format)
  --id-prefix P        IDs for files without names: P1, P2, ... (default I)
  --reduce-notions     collapse each class of equivalent items (notion) to its first item
  -h, --help           show this help
`;

export const command = flagCommand(
  help,
  flags,
  async (parsed) => {
    if (parsed.positionals.length !== 1) throw new UsageError('give exactly one structure file to import');
    const input = parsed.positionals[0]!;
    const id = required(parsed.values, 'id');
    const out = required(parsed.values, 'out');
    const format = parsed.values.format;
    const kind = parsed.values.kind;
    const items = parsed.values.items ? readItemDescriptions(readText(parsed.values.items), parsed.values.items) : undefined;
    const domainFile = importStructure(readText(input), input, {
      id,
      ...(format ? { format: format as MatrixFormat } : {}),
      ...(kind ? { kind: kind as StructureKind } : {}),
      ...(items ? { items } : {}),
      ...(parsed.values.title ? { title: parsed.values.title } : {}),
      ...(parsed.values.source ? { source: parsed.values.source } : {}),
      ...(parsed.values['id-prefix'] ? { idPrefix: parsed.values['id-prefix'] } : {}),
      reduceNotions: parsed.values['reduce-notions'] === true,
    });
    // The schema every domain file is read with: what import writes, load reads (an ID like __proto__ is refused here, by name).
    checkJson(domainFile, input, DomainFileSchema);
    const domain = buildDomain(domainFile, out);
    const states = describeCount(domain);
    writeFileAtomic(out, `${JSON.stringify(domainFile, null, 2)}\n`);
    const notions = domain.notions.length > 0 ? `; notions: ${domain.notions.map((n) => `{${n.join(', ')}}`).join(', ')}` : '';
    process.stderr.write(
      `kstbench import: wrote ${out}: ${domain.ids.length} items, ${states} states, ${domain.quasiOrdinal ? 'quasi-ordinal' : 'not quasi-ordinal'}${notions}\n`,
    );
    return 0;
  },
  { positionals: true },
);

/** The exact state count for the summary line, or "more than N" past the default work budget (the import itself needs no count). */
function describeCount(domain: ReturnType<typeof buildDomain>): string {
  try {
    return String(countStatesExact(domain, workBudget(DEFAULT_WORK_BUDGET)));
  } catch (err) {
    if (!(err instanceof BudgetError)) throw err;
    return `more than ${DEFAULT_WORK_BUDGET}`;
  }
}

/** Structure and item files are read with lib/io's size limit; a device or FIFO is refused by type. */
function readText(file: string): string {
  return readInputText(file);
}
