import { keyedObject } from '../io/keys';
import { InputError } from '../errors';
import { csvRecords } from '../io/csv';
// The lib/kst modules themselves, not its index: the index also loads sampling and presentation
// (seedrandom, lib/stats), which `kstbench space` and `export` never use (CLI start-up).
import { atomCodes } from '../kst/basis';
import { DomainFileSchema, IdSchema, buildDomain, type Domain, type DomainFile } from '../kst/domain';
import { basisOfStateRows } from '../kst/forms';
import { domainBasisModel, reduceNotions, surmiseFunction } from '../kst/general';
import { UNLIMITED } from '../kst/budget';
import { walkSpace, type WalkedSpace } from '../kst/space';
import { domainLabel } from '../kst/structure';
import { itemCsvReadings, matrixRow, parseMatrixFile, formatMatrixChunks, shown, splitLines, type MatrixFormat, type ParsedMatrix, type SrbtStruct } from './formats';
import { streamStates, type ChunkSink } from './stream';

export type { ChunkSink } from './stream';

/** What a structure file holds, for import and export. */
export const STRUCTURE_KINDS = ['basis', 'space', 'structure', 'relation', 'surmise'] as const;
export type StructureKind = (typeof STRUCTURE_KINDS)[number];

export interface ImportOptions {
  format?: MatrixFormat;
  kind?: StructureKind;
  id: string;
  title?: string;
  source?: string;
  /** Item IDs and descriptions from an `id,description` CSV (readItemDescriptions). */
  items?: ItemDescriptions;
  /** ID prefix for files without item names (default "I": I1, I2, …, like the phsg items). */
  idPrefix?: string;
  reduceNotions?: boolean;
}

export interface ItemDescriptions {
  file: string;
  /** The item names as the file writes them (mapped to IDs by itemIdsFromNames on import). */
  ids: string[];
  descriptions: Map<string, string>;
}

/**
 * Reads an `id,description` CSV (header required): R's write.csv quoting and the project's CSV reader's
 * (csvRecords), so a quoted description may hold commas, quotes and line breaks, as export writes it.
 * An error names the line its record starts on.
 */
export function readItemDescriptions(text: string, file: string): ItemDescriptions {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const parsed = csvRecords(text, file);
  // Blank lines at the end are dropped, as kstIO's readers (splitLines) drop them.
  const blank = (cells: string[]): boolean => cells.length === 1 && /^[ \t]*$/.test(cells[0]!);
  while (parsed.length > 0 && blank(parsed[parsed.length - 1]!.cells)) parsed.pop();
  if (parsed.length === 0) throw new InputError(`${file}: ${text.length === 0 ? 'empty file' : 'the file has only blank lines'}`, { file });
  const header = parsed[0]!.cells.map((c) => c.toLowerCase());
  if (header.length !== 2 || header[0] !== 'id' || header[1] !== 'description') {
    throw new InputError(`${file}:${parsed[0]!.line}: expected the header id,description, found ${shown(parsed[0]!.cells.join(','))}`, { file, line: parsed[0]!.line });
  }
  const ids: string[] = [];
  const descriptions = new Map<string, string>();
  for (const { line, cells } of parsed.slice(1)) {
    if (cells.length !== 2) throw new InputError(`${file}:${line}: ragged row: ${cells.length} field(s) where the header has 2`, { file, line });
    const [id, description] = cells as [string, string];
    if (id.trim() === '') throw new InputError(`${file}:${line}: empty item ID`, { file, line });
    if (descriptions.has(id)) throw new InputError(`${file}:${line}: item ${shown(id)} listed twice`, { file, line });
    if (description.trim() === '') throw new InputError(`${file}:${line}: item ${shown(id)} has an empty description`, { file, line });
    ids.push(id);
    descriptions.set(id, description.trim());
  }
  if (ids.length === 0) throw new InputError(`${file}: no items after the header`, { file });
  return { file, ids, descriptions };
}

/**
 * Item IDs for item names from another tool (a CSV header, an items file), by one documented rule
 * (lib/kst-io/README.md, "Item names"): a name the loader accepts as an ID (IdSchema) is kept; any other
 * name is trimmed, each run of characters other than ASCII letters, digits, "_", "." and "-" becomes
 * one "_", leading "_", "." and "-" are dropped, and an empty result becomes `<prefix><position>`; a
 * mapped ID that another item already has gets "_2", "_3", … Valid names are placed first, so a mapped
 * name never takes a valid name's ID. Returns the IDs and, per item, the original name when it changed.
 */
export function itemIdsFromNames(names: readonly string[], prefix = 'I'): { ids: string[]; labels: Array<string | undefined> } {
  const taken = new Set(names.filter(validId));
  const ids = names.map((name, i) => {
    if (validId(name)) return name;
    const base = mappedBase(name, i, prefix);
    let id = base;
    for (let k = 2; taken.has(id); k++) id = `${base}_${k}`;
    taken.add(id);
    return id;
  });
  return { ids, labels: names.map((name, i) => (ids[i] === name ? undefined : name)) };
}

const validId = (name: string): boolean => IdSchema.safeParse(name).success;

/** The ID itemIdsFromNames maps a name that is not an ID to at `position` (0-based), before a "_2", "_3", … suffix. */
function mappedBase(name: string, position: number, prefix: string): string {
  const base = name.trim().replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^[_.-]+/, '');
  return base === '' ? `${prefix}${position + 1}` : base;
}

/**
 * The names export writes where a format carries item names (a CSV header, the surmise CSV's Item
 * column, the items file's first column): each item's label (its name in the file it was imported
 * from) when import, by itemIdsFromNames with the default prefix, maps the names back to exactly these
 * IDs; otherwise that item's ID. A label is not written when it holds a line break (a CSV line cannot
 * hold it), is blank, is an earlier item's name or another item's ID too, or would be imported as
 * another ID; `notes` says so, one line per item. Each pass replaces every label that fails by its ID
 * (a pass is about linear: one itemIdsFromNames, no search per item), so the loop ends (IDs map to
 * themselves); a replaced label can change how the others map, hence the next pass.
 */
export function exportedItemNames(domain: Domain): { names: string[]; notes: string[] } {
  const ids = domain.ids;
  const names = domain.components.map((c) => c.label ?? c.id);
  const notes: string[] = [];
  while (replaceUnwrittenLabels(names, ids, notes)) {
    // Until a pass finds every label written.
  }
  return { names, notes };
}

/**
 * One pass over the items in order: replaces by its ID each label that would not come back, with its
 * note; returns whether it replaced any. The duplicate rule follows the replacements as they are made
 * (an item renamed to its ID frees its label for a later item). The mapping is the pass's start's: a
 * label whose mapping the others decide (its item's ID is its mapped base or base_N) ends the pass
 * once a label was replaced, so the next pass judges it on the current names, as one replacement at a
 * time would.
 */
function replaceUnwrittenLabels(names: string[], ids: readonly string[], notes: string[]): boolean {
  const mapped = itemIdsFromNames(names).ids;
  // The items holding each name, ascending, kept current through the pass.
  const holders = new Map<string, number[]>();
  const hold = (name: string, j: number): void => {
    const list = holders.get(name);
    if (list === undefined) holders.set(name, [j]);
    else list.splice(sortedIndex(list, j), 0, j);
  };
  names.forEach((name, j) => hold(name, j));
  const idIndex = new Map(ids.map((id, j) => [id, j]));
  let replaced = false;
  for (let k = 0; k < names.length; k++) {
    const name = names[k]!;
    if (name === ids[k]) continue;
    if (replaced && mappingDependsOnOthers(name, k, ids[k]!)) return true;
    let why: string | undefined;
    if (/[\r\n\u2028\u2029]/.test(name)) why = 'holds a line break, which a line of the file cannot hold';
    else if (name.trim() === '') why = 'is blank, which import refuses as an item name';
    else {
      // The first of two items with one name keeps it, and an item named by its own ID always does.
      const first = holders.get(name)![0]!;
      const owner = idIndex.get(name);
      const other = first < k ? first : owner !== undefined && owner !== k && names[owner] === name ? owner : -1;
      if (other >= 0) why = `is also the name of item ${ids[other]}`;
      else if (mapped[k] !== ids[k]) why = `would be imported as ${mapped[k]} (lib/kst-io/README.md, "Item names")`;
    }
    if (why === undefined) continue;
    notes.push(`item ${ids[k]}: its label ${shown(name)} ${why}, so the file names it ${ids[k]}`);
    const list = holders.get(name)!;
    list.splice(sortedIndex(list, k), 1);
    names[k] = ids[k]!;
    hold(names[k]!, k);
    replaced = true;
  }
  return replaced;
}

/** Whether the other names decide if `name` maps to `id`: it is not an ID itself and `id` is its mapped base or base_N. */
function mappingDependsOnOthers(name: string, position: number, id: string): boolean {
  if (validId(name)) return false;
  const base = mappedBase(name, position, 'I');
  return id === base || (id.startsWith(`${base}_`) && /^\d+$/.test(id.slice(base.length + 1)));
}

/** Where `value` goes in the ascending `list` (binary search). */
function sortedIndex(list: readonly number[], value: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Refuses a domain ID or ID prefix that would make IDs the loader rejects, naming the value. */
function checkIdOption(value: string, what: string): void {
  const result = IdSchema.safeParse(value);
  if (!result.success) throw new InputError(`${what} ${shown(value)} is not a valid ID: it ${result.error.issues[0]!.message}`);
}

/** Maps "basis[i]" / "states[i]" / "surmise.x[k]" in a domain-construction message to the file line of that row. */
function relocate(err: unknown, parsed: ParsedMatrix, file: string, clauseRows?: Map<string, number[]>): never {
  if (!(err instanceof InputError)) throw err;
  let firstLine: number | undefined;
  const at = (row: number): string => {
    const line = parsed.lines[row]!;
    firstLine ??= line;
    return `line ${line}`;
  };
  const message = err.message
    .replace(/^[^:]*: /, '')
    .replace(/^states (does|is) /, 'the family $1 ')
    .replace(/\b(basis|states)\[(\d+)\]/g, (_, _form, i: string) => at(Number(i)))
    .replace(/\bsurmise\.([^\s[]+)\[(\d+)\]/g, (whole, item: string, k: string) => {
      const row = clauseRows?.get(item)?.[Number(k)];
      return row === undefined ? whole : `the clause of ${item} on ${at(row)}`;
    });
  throw new InputError(firstLine === undefined ? `${file}: ${message}` : `${file}:${firstLine}: ${message}`, { file, line: firstLine });
}

/**
 * Turns a kstIO structure file into a validated domain file (DomainFile JSON). Basis, space and
 * structure files become `basis` (a structure must be a knowledge space, else refused naming the
 * lines of a union that is missing; a space streams from the packed rows into its basis, with no
 * limit on its size but memory); basis codes 1/2, when present, must agree with the atoms; a surmise
 * relation becomes `prerequisites` (or `basis` when it has equivalent items); a surmise-function CSV
 * becomes `surmise`. Data files (response patterns) are refused: they are not a structure. The result
 * passes the loader's own schema (DomainFileSchema), so `kstbench space` reads what import writes.
 */
export function importStructure(text: string, file: string, options: ImportOptions): DomainFile {
  checkIdOption(options.id, 'the domain ID');
  if (options.idPrefix !== undefined) checkIdOption(options.idPrefix, 'the ID prefix');
  if (options.format === undefined) {
    const readings = itemCsvReadings(text);
    if (readings?.surmise && readings.plain) return importEitherCsv(text, file, options);
  }
  const parsed = parseMatrixFile(text, file, options.format);
  const kind = resolveKind(parsed, file, options.kind);
  const { ids, labels, names } = itemIds(parsed, file, options);
  const components = ids.map((id, j) => ({
    id,
    description: options.items?.descriptions.get(names[j]!) ?? `Item ${labels[j] ?? id} (no description given; add them with --items id,description CSV).`,
    ...(labels[j] !== undefined ? { label: labels[j] } : {}),
  }));
  const base = {
    id: options.id,
    title: options.title ?? options.id,
    source: options.source ?? `Imported by kstbench from ${file} (${parsed.format}${parsed.struct ? ` ${parsed.struct}` : ''}).`,
    components,
  };
  const rowSet = (k: number): string[] => {
    const row = matrixRow(parsed, k);
    return ids.filter((_, j) => row[j] !== 0);
  };
  const rowSets = (): string[][] => Array.from({ length: parsed.rowCount }, (_, k) => rowSet(k));
  let domain: Domain;
  let file$: DomainFile;
  if (kind === 'basis') {
    try {
      domain = buildDomain({ ...base, basis: rowSets() }, file);
    } catch (err) {
      relocate(err, parsed, file);
    }
    if (parsed.hasTwo) checkBasisCodes(domain, parsed, file, ids);
    file$ = { ...base, basis: domain.basis! };
  } else if (kind === 'space' || kind === 'structure') {
    file$ = { ...base, basis: spaceBasis(parsed, file, ids, options.kind === undefined) };
    domain = buildDomain(file$, file);
  } else if (kind === 'relation') {
    file$ = importRelation(parsed, file, ids, base);
    domain = buildDomain(file$, file);
  } else {
    // Keyed by item names from the file: a Map, so `constructor` is an item and not Object's.
    const clauses = new Map<string, string[][]>();
    const clauseRows = new Map<string, number[]>();
    for (let k = 0; k < parsed.rowCount; k++) {
      const name = parsed.rowItems![k]!;
      const item = ids[parsed.ids!.indexOf(name)]!;
      const row = matrixRow(parsed, k);
      const j = ids.indexOf(item);
      // kstMatrix writes each clause as the item's atom, the item included, and kmbasis reads the rows
      // as basis states: a row without its item would be a different state there, so it is refused.
      if (row[j] === 0) {
        throw new InputError(
          `${file}:${parsed.lines[k]}: the clause of ${shown(name)} does not contain ${shown(name)} itself; each row is the item's atom, the item included (as kmsurmisefunction writes it)`,
          { file, line: parsed.lines[k]! },
        );
      }
      clauses.set(item, [...(clauses.get(item) ?? []), rowSet(k).filter((x) => x !== item)]);
      clauseRows.set(item, [...(clauseRows.get(item) ?? []), k]);
    }
    const surmise = keyedObject(clauses);
    file$ = { ...base, surmise };
    try {
      domain = buildDomain(file$, file);
    } catch (err) {
      relocate(err, parsed, file, clauseRows);
    }
  }
  if (options.reduceNotions && domain.notions.length > 0) {
    const reduced = reduceNotions(domain);
    file$ = { id: reduced.id, title: reduced.title, source: reduced.source, components: reduced.components, basis: reduced.basis! };
  }
  return validated(file$, file);
}

/**
 * A CSV whose rows fit both a surmise function and states whose first item is named "Item" (its items
 * are named 0, 1, 2): the reading that imports is taken; when both import, the file is refused, since
 * only its writer knows which it is.
 */
function importEitherCsv(text: string, file: string, options: ImportOptions): DomainFile {
  const attempt = (format: MatrixFormat): DomainFile | InputError => {
    try {
      return importStructure(text, file, { ...options, format });
    } catch (err) {
      if (err instanceof InputError) return err;
      throw err;
    }
  };
  const surmise = attempt('surmise-csv');
  const plain = attempt('csv');
  if (!(surmise instanceof InputError) && !(plain instanceof InputError)) {
    throw new InputError(
      `${file}: this CSV reads both as a surmise function (column "Item" naming each row's item) and as states whose first item is named "Item"; say which with --format surmise-csv or --format csv`,
      { file },
    );
  }
  if (!(surmise instanceof InputError)) return surmise;
  if (!(plain instanceof InputError)) return plain;
  throw new InputError(`${surmise.message} (read as a surmise-function CSV; --format csv reads it as states whose first item is named "Item")`, surmise.where);
}

/** The domain file checked by the loader's schema; a failure here is a bug in the mapping, named as such. */
function validated(domainFile: DomainFile, file: string): DomainFile {
  const result = DomainFileSchema.safeParse(domainFile);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new InputError(`${file}: the domain made from this file would not load (${issue.path.join('.')}: ${issue.message})`, { file });
  }
  return domainFile;
}

/**
 * The basis of a space or structure file, streamed from the packed rows (basisOfStateRows: no state
 * is built as an ID list, no limit on the number of states). When the rows are not a knowledge space
 * and the kind was guessed, a square matrix with a full diagonal gets the hint that it looks like a
 * surmise relation.
 */
function spaceBasis(parsed: ParsedMatrix, file: string, ids: readonly string[], guessed: boolean): string[][] {
  if (parsed.hasTwo) {
    const k = Array.from({ length: parsed.rowCount }, (_, i) => i).find((i) => matrixRow(parsed, i).includes(2))!;
    throw new InputError(`${file}:${parsed.lines[k]}: the code 2 appears, which only basis files use; import it with --kind basis`, { file, line: parsed.lines[k] });
  }
  const n = parsed.items;
  try {
    return basisOfStateRows(ids, parsed.rowCount, (k, out) => {
      const o = k * n;
      for (let j = 0; j < n; j++) if (parsed.cells[o + j] !== 0) out[j >>> 5]! |= 1 << (j & 31);
    }, file);
  } catch (err) {
    if (guessed && err instanceof InputError && looksLikeRelation(parsed)) {
      try {
        relocate(err, parsed, file);
      } catch (located) {
        const message = `${(located as Error).message}; a square 0/1 matrix with 1 all along its diagonal is what a surmise-relation file looks like: import it with --kind relation (or --kind basis for a basis)`;
        throw new InputError(message, (located as InputError).where);
      }
    }
    relocate(err, parsed, file);
  }
}

function looksLikeRelation(parsed: ParsedMatrix): boolean {
  if (parsed.rowCount !== parsed.items) return false;
  for (let i = 0; i < parsed.items; i++) if (parsed.cells[i * parsed.items + i] !== 1) return false;
  return true;
}

function resolveKind(parsed: ParsedMatrix, file: string, kind: StructureKind | undefined): StructureKind {
  if (parsed.format === 'surmise-csv') {
    if (kind !== undefined && kind !== 'surmise') throw new InputError(`${file}: a surmise-function CSV holds a surmise function, not a ${kind}`, { file });
    return 'surmise';
  }
  if (parsed.struct === 'data') {
    throw new InputError(`${file}:1: an SRBT data file holds response patterns, not a knowledge structure; import a basis, space, structure or relation`, { file, line: 1 });
  }
  if (parsed.struct !== undefined) {
    const fromHeader = parsed.struct as StructureKind;
    if (kind !== undefined && kind !== fromHeader) throw new InputError(`${file}:1: the SRBT header says ${parsed.struct}, but --kind ${kind} was given`, { file, line: 1 });
    return fromHeader;
  }
  if (kind !== undefined) {
    if (kind === 'surmise') throw new InputError(`${file}: a surmise function is read from a surmise-function CSV (first column "Item")`, { file });
    return kind;
  }
  return parsed.hasTwo ? 'basis' : 'space';
}

/** The item IDs (mapped from the file's or the items file's names), their labels, and the names as written. */
function itemIds(parsed: ParsedMatrix, file: string, options: ImportOptions): { ids: string[]; labels: Array<string | undefined>; names: string[] } {
  const items = options.items;
  const n = parsed.items;
  let names: string[];
  if (parsed.ids) {
    if (items) {
      const header = [...parsed.ids].sort().join('\u0000');
      const listed = [...items.ids].sort().join('\u0000');
      if (header !== listed) {
        throw new InputError(
          `${file}:1: the header's items (${parsed.ids.map(shown).join(', ')}) do not match the items of ${items.file} (${items.ids.map(shown).join(', ')})`,
          { file, line: 1 },
        );
      }
    }
    names = parsed.ids;
  } else if (items) {
    if (items.ids.length !== n) {
      throw new InputError(`${file}: the structure has ${n} item(s), ${items.file} lists ${items.ids.length}`, { file });
    }
    names = items.ids;
  } else {
    const prefix = options.idPrefix ?? 'I';
    names = Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);
  }
  return { ...itemIdsFromNames(names, options.idPrefix ?? 'I'), names };
}

function checkBasisCodes(domain: Domain, parsed: ParsedMatrix, file: string, ids: readonly string[]): void {
  const model = domainBasisModel(domain);
  const codes = atomCodes(model);
  const key = (ids2: readonly string[]): string => ids2.join('\u0000');
  const byState = new Map(domain.basis!.map((b, i) => [key(b), codes[i]!]));
  const order = domain.ids;
  for (let k = 0; k < parsed.rowCount; k++) {
    const row = matrixRow(parsed, k);
    const set = ids.filter((_, j) => row[j] !== 0);
    const canonical = order.filter((id) => set.includes(id));
    const expected = byState.get(key(canonical))!;
    ids.forEach((id, j) => {
      const want = expected[order.indexOf(id)]!;
      if (row[j] !== want) {
        const why = want === 1 ? 'the state is minimal for it (code 1)' : 'another basis state containing it lies inside this one (code 2)';
        throw new InputError(`${file}:${parsed.lines[k]}: item ${id} is coded ${row[j]}, but ${why}`, { file, line: parsed.lines[k], item: id });
      }
    });
  }
}

/** A surmise relation (row i, column j = 1: i is surmised from j) → prerequisites, or a basis with notions. */
function importRelation(parsed: ParsedMatrix, file: string, ids: readonly string[], base: Omit<DomainFile, 'prerequisites'>): DomainFile {
  const n = ids.length;
  if (parsed.rowCount !== n) {
    throw new InputError(`${file}:${parsed.lines[Math.min(n, parsed.rowCount) - 1]}: a relation needs ${n} rows for ${n} items, found ${parsed.rowCount}`, { file });
  }
  const r = Array.from({ length: n }, (_, i) => matrixRow(parsed, i));
  for (let i = 0; i < n; i++) {
    if (r[i]![i] !== 1) {
      throw new InputError(`${file}:${parsed.lines[i]}: the diagonal entry of ${ids[i]} is ${r[i]![i]}; a surmise relation is reflexive`, {
        file,
        line: parsed.lines[i],
        item: ids[i],
      });
    }
    for (let j = 0; j < n; j++) {
      if (r[i]![j] === 2) throw new InputError(`${file}:${parsed.lines[i]}: the code 2 appears in a relation`, { file, line: parsed.lines[i] });
      if (!r[i]![j]) continue;
      for (let k = 0; k < n; k++) {
        if (r[j]![k] && !r[i]![k]) {
          throw new InputError(
            `${file}:${parsed.lines[i]}: not transitive: ${ids[i]} is surmised from ${ids[j]} and ${ids[j]} from ${ids[k]}, but ${ids[i]} not from ${ids[k]}`,
            { file, line: parsed.lines[i], item: ids[i] },
          );
        }
      }
    }
  }
  const columns = ids.map((_, j) => ids.filter((_, i) => r[i]![j] === 1));
  const unique = [...new Map(columns.map((c) => [c.join('\u0000'), c])).values()];
  const asBasis = buildDomain({ ...base, basis: unique }, file);
  if (asBasis.quasiOrdinal) return { ...base, prerequisites: asBasis.prerequisites.map(([p, q]) => [p, q] as [string, string]) };
  return { ...base, basis: asBasis.basis! };
}

/** What `export` writes. */
export const EXPORT_WHATS = ['basis', 'space', 'relation', 'surmise', 'items'] as const;
export type ExportWhat = (typeof EXPORT_WHATS)[number];

/** Formats each `what` may be written in. */
export const EXPORT_FORMATS: Record<ExportWhat, readonly MatrixFormat[] | readonly ['csv']> = {
  basis: ['srbt', 'kst', 'csv'],
  space: ['srbt', 'kst', 'matrix', 'csv'],
  relation: ['srbt', 'matrix', 'csv'],
  surmise: ['surmise-csv'],
  items: ['csv'],
};

/**
 * Writes an exported file chunk by chunk to `sink`, so that a space with millions of states streams
 * (no whole-file string is ever built). basis: rows coded 0/1/2 in the domain's basis order; space:
 * every state (0/1, enumeration order; the count comes first, from countStates); relation: row i,
 * column j = 1 when i lies on every route to j (the surmise relation; for a space that is not
 * quasi-ordinal it is that of its quasi-ordinal hull, as kstMatrix's kmsurmiserelation returns);
 * surmise: kstMatrix's layout, items in canonical order; items: `id,description`. `space`, when
 * given, is the space as the caller has walked it already (walkSpace, under the caller's budget):
 * its count heads the file and its states are written in its order. Without it the space is walked
 * here with no budget (walkSpace: one walk for a space given by a basis, its states kept for the rows).
 * The CSV formats and the items file name the items as exportedItemNames does; its notes (the labels
 * written as IDs, and why) are returned for the caller to show.
 */
export function exportStructure(domain: Domain, what: ExportWhat, format: MatrixFormat, sink: ChunkSink, comment?: string, space?: WalkedSpace): string[] {
  const allowed = EXPORT_FORMATS[what] as readonly string[];
  if (!allowed.includes(format)) {
    throw new InputError(`cannot write ${what} as ${format}; use one of ${allowed.join(', ')}`);
  }
  // The comment sits on the SRBT header line: a line break in it would start a line no reader expects.
  if (comment !== undefined && /[\r\n\u2028\u2029]/.test(comment)) {
    throw new InputError(`--comment ${shown(comment)}: an SRBT header comment is one line; it must not contain a line break`);
  }
  const n = domain.ids.length;
  const quote = (s: string): string => `"${s.replace(/"/g, '""')}"`;
  const emit = (chunks: Iterable<string>): void => {
    for (const c of chunks) sink(c);
  };
  // The user's names where the format carries names (the labels import kept), so that import of
  // the export gives the same IDs and labels back; the matrix formats carry none.
  const named = what === 'items' || format === 'csv' || format === 'surmise-csv';
  const { names, notes } = named ? exportedItemNames(domain) : { names: domain.ids, notes: [] };
  if (what === 'items') {
    sink('"id","description"\n');
    domain.components.forEach((c, k) => sink(`${quote(names[k]!)},${quote(c.description)}\n`));
    return notes;
  }
  const common = { format, items: n, ids: names, ...(comment ? { comment } : {}) };
  if (what === 'basis') {
    const rows = atomCodes(domainBasisModel(domain));
    emit(formatMatrixChunks(rows, { ...common, rowCount: rows.length, struct: 'basis' as SrbtStruct }));
    return notes;
  }
  if (what === 'space') {
    // The count heads the file (SRBT, KST): the walk that finds it keeps the states for the rows.
    const known = space ?? walkSpace(domain, UNLIMITED, () => `exporting the states of ${domainLabel(domain)}`);
    if (known.count > BigInt(Number.MAX_SAFE_INTEGER)) {
      throw new InputError(`${domainLabel(domain)}: ${known.count} states is above 2^53, more rows than a file of this format can be written with`, { file: domain.file, item: domain.id });
    }
    emit(formatMatrixChunks([], { ...common, rowCount: Number(known.count), struct: 'space' }));
    streamStates(domain, format === 'csv' ? ',' : '', sink, known);
    return notes;
  }
  if (what === 'relation') {
    const surmise = surmiseFunction(domain);
    const rows = domain.ids.map((id) =>
      Uint8Array.from(domain.ids, (q) => (q === id || surmise[q]!.every((clause) => clause.includes(id)) ? 1 : 0)),
    );
    emit(formatMatrixChunks(rows, { ...common, rowCount: n, struct: 'relation' }));
    return notes;
  }
  const surmise = surmiseFunction(domain);
  const rows: Uint8Array[] = [];
  const rowItems: string[] = [];
  domain.ids.forEach((id, k) => {
    for (const clause of surmise[id]!) {
      rows.push(Uint8Array.from(domain.ids, (x) => (x === id || clause.includes(x) ? 1 : 0)));
      rowItems.push(names[k]!);
    }
  });
  emit(formatMatrixChunks(rows, { ...common, rowItems }));
  return notes;
}
