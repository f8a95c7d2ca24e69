import { keyedObject } from '../io/keys';
import { InputError } from '../errors';
import {
  atomCodes,
  buildDomain,
  compileStructure,
  countStates,
  domainBasisModel,
  forEachStateBits,
  reduceNotions,
  surmiseFunction,
  type Domain,
  type DomainFile,
} from '../kst';
import { csvCells, parseMatrixFile, formatMatrixChunks, type MatrixFormat, type ParsedMatrix, type SrbtStruct } from './formats';

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
  ids: string[];
  descriptions: Map<string, string>;
}

/** Reads an `id,description` CSV (header required, R's write.csv quoting accepted). */
export function readItemDescriptions(text: string, file: string): ItemDescriptions {
  const parsed = parseCsvRows(text, file);
  const header = parsed[0]!.cells.map((c) => c.toLowerCase());
  if (header.length !== 2 || header[0] !== 'id' || header[1] !== 'description') {
    throw new InputError(`${file}:1: expected the header id,description, found ${parsed[0]!.cells.join(',')}`, { file, line: 1 });
  }
  const ids: string[] = [];
  const descriptions = new Map<string, string>();
  for (const { line, cells } of parsed.slice(1)) {
    if (cells.length !== 2) throw new InputError(`${file}:${line}: ragged row: ${cells.length} field(s) where the header has 2`, { file, line });
    const [id, description] = cells as [string, string];
    if (id.trim() === '') throw new InputError(`${file}:${line}: empty item ID`, { file, line });
    if (descriptions.has(id)) throw new InputError(`${file}:${line}: item ${JSON.stringify(id)} listed twice`, { file, line });
    if (description.trim() === '') throw new InputError(`${file}:${line}: item ${JSON.stringify(id)} has an empty description`, { file, line });
    ids.push(id);
    descriptions.set(id, description.trim());
  }
  if (ids.length === 0) throw new InputError(`${file}: no items after the header`, { file });
  return { file, ids, descriptions };
}

function parseCsvRows(text: string, file: string): Array<{ line: number; cells: string[] }> {
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  if (lines[lines.length - 1] === '') lines.pop();
  if (lines.length === 0) throw new InputError(`${file}: empty file`, { file });
  return lines.map((l, i) => ({ line: i + 1, cells: csvCells(file, i + 1, l) }));
}

/** Maps "basis[i]" / "states[i]" in a domain-construction message to the file line of row i. */
function relocate(err: unknown, parsed: ParsedMatrix, file: string): never {
  if (!(err instanceof InputError)) throw err;
  let firstLine: number | undefined;
  const message = err.message.replace(/^[^:]*: /, '').replace(/^states (does|is) /, 'the family $1 ').replace(/\b(basis|states)\[(\d+)\]/g, (_, _form, i: string) => {
    const line = parsed.lines[Number(i)]!;
    firstLine ??= line;
    return `line ${line}`;
  });
  throw new InputError(firstLine === undefined ? `${file}: ${message}` : `${file}:${firstLine}: ${message}`, { file, line: firstLine });
}

/**
 * Turns a kstIO structure file into a validated domain file (DomainFile JSON). Basis, space and
 * structure files become `basis` (a structure must be a knowledge space, else refused naming the
 * lines of a union that is missing); basis codes 1/2, when present, must agree with the atoms; a
 * surmise relation becomes `prerequisites` (or `basis` when it has equivalent items); a surmise-function
 * CSV becomes `surmise`. Data files (response patterns) are refused: they are not a structure.
 */
export function importStructure(text: string, file: string, options: ImportOptions): DomainFile {
  const parsed = parseMatrixFile(text, file, options.format);
  const kind = resolveKind(parsed, file, options.kind);
  const n = parsed.items;
  const ids = itemIds(parsed, file, options, n);
  const components = ids.map((id) => ({
    id,
    description: options.items?.descriptions.get(id) ?? `Item ${id} (no description given; add them with --items id,description CSV).`,
  }));
  const base = {
    id: options.id,
    title: options.title ?? options.id,
    source: options.source ?? `Imported by kstbench from ${file} (${parsed.format}${parsed.struct ? ` ${parsed.struct}` : ''}).`,
    components,
  };
  const setOf = (row: Uint8Array): string[] => ids.filter((_, j) => row[j] !== 0);
  let domain: Domain;
  let file$: DomainFile;
  if (kind === 'basis') {
    try {
      domain = buildDomain({ ...base, basis: parsed.rows.map(setOf) }, file);
    } catch (err) {
      relocate(err, parsed, file);
    }
    if (parsed.rows.some((row) => row.includes(2))) checkBasisCodes(domain, parsed, file, ids);
    file$ = { ...base, basis: domain.basis! };
  } else if (kind === 'space' || kind === 'structure') {
    if (parsed.rows.some((row) => row.includes(2))) {
      throw new InputError(`${file}: the code 2 appears, which only basis files use; import it with --kind basis`, { file });
    }
    try {
      domain = buildDomain({ ...base, states: parsed.rows.map(setOf) }, file);
    } catch (err) {
      relocate(err, parsed, file);
    }
    file$ = { ...base, basis: domain.basis! };
  } else if (kind === 'relation') {
    file$ = importRelation(parsed, file, ids, base);
    domain = buildDomain(file$, file);
  } else {
    // Keyed by item names from the file: a Map, so `constructor` is an item and not Object's.
    const clauses = new Map<string, string[][]>();
    parsed.rows.forEach((row, k) => {
      const item = parsed.rowItems![k]!;
      const j = ids.indexOf(item);
      if (row[j] === 0) row[j] = 1; // kstMatrix writes the atom, the item included; accept either
      const list = clauses.get(item) ?? [];
      list.push(setOf(row).filter((x) => x !== item));
      clauses.set(item, list);
    });
    const surmise = keyedObject(clauses);
    file$ = { ...base, surmise };
    domain = buildDomain(file$, file);
  }
  if (options.reduceNotions && domain.notions.length > 0) {
    const reduced = reduceNotions(domain);
    return { id: reduced.id, title: reduced.title, source: reduced.source, components: reduced.components, basis: reduced.basis! };
  }
  return file$;
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
  return parsed.rows.some((row) => row.includes(2)) ? 'basis' : 'space';
}

function itemIds(parsed: ParsedMatrix, file: string, options: ImportOptions, n: number): string[] {
  const items = options.items;
  if (parsed.ids) {
    if (items) {
      const header = [...parsed.ids].sort().join(',');
      const listed = [...items.ids].sort().join(',');
      if (header !== listed) {
        throw new InputError(`${file}:1: the header's items (${parsed.ids.join(', ')}) do not match the items of ${items.file} (${items.ids.join(', ')})`, {
          file,
          line: 1,
        });
      }
    }
    return parsed.ids;
  }
  if (items) {
    if (items.ids.length !== n) {
      throw new InputError(`${file}: the structure has ${n} item(s), ${items.file} lists ${items.ids.length}`, { file });
    }
    return items.ids;
  }
  const prefix = options.idPrefix ?? 'I';
  return Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);
}

function checkBasisCodes(domain: Domain, parsed: ParsedMatrix, file: string, ids: readonly string[]): void {
  const model = domainBasisModel(domain);
  const codes = atomCodes(model);
  const key = (ids2: readonly string[]): string => ids2.join('\u0000');
  const byState = new Map(domain.basis!.map((b, i) => [key(b), codes[i]!]));
  const order = domain.ids;
  parsed.rows.forEach((row, k) => {
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
  });
}

/** A surmise relation (row i, column j = 1: i is surmised from j) → prerequisites, or a basis with notions. */
function importRelation(parsed: ParsedMatrix, file: string, ids: readonly string[], base: Omit<DomainFile, 'prerequisites'>): DomainFile {
  const n = ids.length;
  if (parsed.rows.length !== n) throw new InputError(`${file}: a relation needs ${n} rows for ${n} items, found ${parsed.rows.length}`, { file });
  const r = parsed.rows;
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
 * surmise: kstMatrix's layout, items in canonical order; items: `id,description`.
 */
export function exportStructure(domain: Domain, what: ExportWhat, format: MatrixFormat, sink: (chunk: string) => void, comment?: string): void {
  const allowed = EXPORT_FORMATS[what] as readonly string[];
  if (!allowed.includes(format)) {
    throw new InputError(`cannot write ${what} as ${format}; use one of ${allowed.join(', ')}`);
  }
  const n = domain.ids.length;
  const quote = (s: string): string => `"${s.replace(/"/g, '""')}"`;
  const emit = (chunks: Iterable<string>): void => {
    for (const c of chunks) sink(c);
  };
  if (what === 'items') {
    sink('"id","description"\n');
    for (const c of domain.components) sink(`${quote(c.id)},${quote(c.description)}\n`);
    return;
  }
  const common = { format, items: n, ids: domain.ids, ...(comment ? { comment } : {}) };
  if (what === 'basis') {
    const rows = atomCodes(domainBasisModel(domain));
    emit(formatMatrixChunks(rows, { ...common, rowCount: rows.length, struct: 'basis' as SrbtStruct }));
    return;
  }
  if (what === 'space') {
    const total = countStates(domain);
    emit(formatMatrixChunks([], { ...common, rowCount: total, struct: 'space' }));
    streamStates(domain, format === 'csv' ? ',' : '', sink);
    return;
  }
  if (what === 'relation') {
    const surmise = surmiseFunction(domain);
    const rows = domain.ids.map((id) =>
      Uint8Array.from(domain.ids, (q) => (q === id || surmise[q]!.every((clause) => clause.includes(id)) ? 1 : 0)),
    );
    emit(formatMatrixChunks(rows, { ...common, rowCount: n, struct: 'relation' }));
    return;
  }
  const surmise = surmiseFunction(domain);
  const rows: Uint8Array[] = [];
  const rowItems: string[] = [];
  domain.ids.forEach((id) => {
    for (const clause of surmise[id]!) {
      rows.push(Uint8Array.from(domain.ids, (x) => (x === id || clause.includes(x) ? 1 : 0)));
      rowItems.push(id);
    }
  });
  emit(formatMatrixChunks(rows, { ...common, rowItems }));
}

/** Rows per chunk handed to the sink when streaming a space. */
const STREAM_BATCH = 4096;

/** Every state as a 0/1 line (cells joined by `separator`), in batches of STREAM_BATCH lines. */
export function streamStates(domain: Domain, separator: string, sink: (chunk: string) => void): number {
  const s = compileStructure(domain);
  const n = s.n;
  let lines: string[] = [];
  const codes: string[] = new Array(n);
  const count = forEachStateBits(s, (bits) => {
    for (let i = 0; i < n; i++) codes[i] = (bits[i >>> 5]! >>> (i & 31)) & 1 ? '1' : '0';
    lines.push(codes.join(separator));
    if (lines.length === STREAM_BATCH) {
      sink(`${lines.join('\n')}\n`);
      lines = [];
    }
  });
  if (lines.length > 0) sink(`${lines.join('\n')}\n`);
  return count;
}
