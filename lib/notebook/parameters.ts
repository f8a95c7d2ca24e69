import { isPrototypeName } from '../io/keys';
import { InputError } from '../errors';
import { cellSource, cellTags, type Cell, type Notebook } from './ipynb';

/**
 * Papermill-style parameters for TypeScript notebooks. The cell tagged `parameters` declares the
 * defaults (`const resamples = 1000;`); the runner inserts a cell tagged `injected-parameters` right
 * after it that re-declares the overridden names (tslab allows re-declaring a top-level name in a
 * later cell, which then shadows the earlier one). A previous injected cell is replaced, not stacked.
 */

/** Parameter values by name, JSON-typed. */
export type ParameterValues = Record<string, unknown>;

/**
 * Parameters given on the command line, as the text typed (`-p seed 7` → `{ seed: '7' }`): for every
 * notebook, and for single notebooks by file stem. The text is turned into a value only per notebook,
 * by `coerceParameters`, against the type of the default that notebook declares.
 */
export interface ParameterArgs {
  all: Record<string, string>;
  byNotebook: Record<string, Record<string, string>>;
}

const NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Reads a value as JSON when it parses, else as a plain string — the rule for a parameter whose default
 * has no usable type (`const weights: unknown = "equal"`):
 * `2000` → 2000, `true` → true, `["a","b"]` → array, `data/raw` → "data/raw", `'"123"'` → "123".
 */
export function parseParameterValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function addParameter(into: ParameterArgs, key: string, rawValue: string): void {
  const colon = key.indexOf(':');
  const notebook = colon >= 0 ? key.slice(0, colon) : undefined;
  const name = colon >= 0 ? key.slice(colon + 1) : key;
  if (!NAME.test(name) || notebook === '') {
    throw new InputError(`parameter ${JSON.stringify(key)}: expected NAME or NOTEBOOK:NAME (NAME a TypeScript identifier)`, {
      item: key,
    });
  }
  const builtin = [name, notebook ?? ''].find(isPrototypeName);
  if (builtin !== undefined) {
    throw new InputError(`parameter ${JSON.stringify(key)}: "${builtin}" is a name every JavaScript object has; choose another name`, { item: key });
  }
  if (notebook === undefined) into.all[name] = rawValue;
  else (into.byNotebook[notebook] ??= {})[name] = rawValue;
}

/**
 * Splits `-p name value`, `--param name=value` and `--param=name=value` (name may be `notebook:name`,
 * notebook = file name without `.ipynb`) out of `argv`; returns the parameters and the other arguments.
 */
export function parseParameterArgs(argv: readonly string[]): { params: ParameterArgs; rest: string[] } {
  const params: ParameterArgs = { all: {}, byNotebook: {} };
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-p' || arg === '--parameters') {
      const name = argv[i + 1];
      const value = argv[i + 2];
      if (name === undefined || value === undefined) throw new InputError(`${arg} needs a name and a value`, { item: arg });
      addParameter(params, name, value);
      i += 2;
    } else if (arg === '--param' || arg.startsWith('--param=')) {
      const spec = arg === '--param' ? argv[++i] : arg.slice('--param='.length);
      const eq = spec === undefined ? -1 : spec.indexOf('=');
      if (spec === undefined || eq <= 0) throw new InputError(`--param needs name=value, got ${JSON.stringify(spec ?? '')}`, { item: arg });
      addParameter(params, spec.slice(0, eq), spec.slice(eq + 1));
    } else {
      rest.push(arg);
    }
  }
  return { params, rest };
}

/**
 * The parameters that apply to one notebook (file stem), still as typed: the global ones that its
 * parameters cell declares (so `-p seed 7` reaches every notebook with a `seed` and leaves the others
 * alone), overridden by the ones addressed to it as `notebook:name` (which must be declared: see
 * `coerceParameters`). Pass `declared` = null to apply every global parameter.
 */
export function parametersFor(args: ParameterArgs, notebookStem: string, declared: readonly string[] | null = null): Record<string, string> {
  const global = Object.fromEntries(Object.entries(args.all).filter(([name]) => declared === null || declared.includes(name)));
  return { ...global, ...(args.byNotebook[notebookStem] ?? {}) };
}

/** Names declared by a notebook's `parameters` cell (empty when it has none). */
export function parameterNames(nb: Notebook, file: string): string[] {
  return (readParametersCell(nb, file)?.declarations ?? []).map((d) => d.name);
}

/** The parameters cell of a notebook, found and parsed once: its index and its declarations. */
export interface ParametersCell {
  at: number;
  declarations: ParameterDeclaration[];
}

/** The notebook's parameters cell, parsed; undefined when no cell is tagged `parameters`. */
export function readParametersCell(nb: Notebook, file: string): ParametersCell | undefined {
  const at = findParametersCell(nb, file);
  return at < 0 ? undefined : { at, declarations: parameterDeclarations(cellSource(nb.cells[at]!)) };
}

/**
 * The parameters cell, checked to declare every name in `names`. InputError when values are given but
 * no cell is tagged `parameters`, or a name is not declared there (a typo would otherwise be silently
 * ignored). Undefined when `names` is empty and the notebook has no parameters cell.
 */
function declaringCell(nb: Notebook, names: readonly string[], file: string): ParametersCell | undefined {
  const cell = readParametersCell(nb, file);
  if (names.length === 0) return cell;
  if (cell === undefined) {
    throw new InputError(`${file}: parameters ${names.join(', ')} given but no cell is tagged "parameters"`, { file });
  }
  const unknown = names.filter((n) => !cell.declarations.some((d) => d.name === n));
  if (unknown.length > 0) {
    throw new InputError(
      `${file}: unknown parameter(s) ${unknown.join(', ')}; the parameters cell declares ${cell.declarations.map((d) => d.name).join(', ') || 'nothing'}`,
      { file, item: unknown[0] },
    );
  }
  return cell;
}

/** A declared parameter: its name, the type annotation if any, and the default's literal source. */
export interface ParameterDeclaration {
  name: string;
  keyword: 'const' | 'let' | 'var';
  /** The written type annotation (`number | null`), or undefined. */
  annotation?: string;
  /** The initialiser as written (`10000`, `"s1"`, `["a", "b"]`). */
  literal: string;
}

/** The declarations of a parameters cell with annotation and default literal (one per line, as the convention asks). */
export function parameterDeclarations(source: string): ParameterDeclaration[] {
  const out: ParameterDeclaration[] = [];
  for (const m of source.matchAll(/^(?:export\s+)?(const|let|var)\s+([A-Za-z_$][A-Za-z0-9_$]*)\s*(?::([^=\n]+))?=\s*(.+?);?\s*(?:\/\/.*)?$/gm)) {
    const d: ParameterDeclaration = { keyword: m[1] as ParameterDeclaration['keyword'], name: m[2]!, literal: m[4]!.trim().replace(/;$/, '') };
    if (m[3] !== undefined) d.annotation = m[3].trim();
    out.push(d);
  }
  return out;
}

/** What a parameter's value must be, read from its default (and annotation): the coercion target. */
type ParameterKind =
  | { kind: 'string' | 'number' | 'boolean' | 'object' | 'any'; nullable: boolean }
  | { kind: 'array'; element: 'string' | 'number' | 'boolean' | 'any'; nullable: boolean };

function kindOf(value: unknown): 'string' | 'number' | 'boolean' | 'array' | 'object' | 'null' | 'any' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const t = typeof value;
  return t === 'string' || t === 'number' || t === 'boolean' || t === 'object' ? t : 'any';
}

/** The coercion target of a declaration: from the default's value, or from the annotation when the default is null. */
export function parameterKind(d: ParameterDeclaration): ParameterKind {
  const annotation = d.annotation ?? '';
  const nullable = /\bnull\b/.test(annotation);
  if (/^(unknown|any)$/.test(annotation)) return { kind: 'any', nullable: true };
  const value = jsonish(d.literal);
  const kind = kindOf(value);
  if (kind === 'array') {
    const elements = (value as unknown[]).map(kindOf);
    const first = elements[0];
    const element = first !== undefined && elements.every((e) => e === first) && (first === 'string' || first === 'number' || first === 'boolean') ? first : 'any';
    return { kind: 'array', element: (value as unknown[]).length === 0 ? 'any' : element, nullable };
  }
  if (kind === 'null') {
    const other = /\b(string|number|boolean)\b/.exec(annotation)?.[1] as 'string' | 'number' | 'boolean' | undefined;
    return { kind: other ?? 'any', nullable: true };
  }
  if (kind === 'string' && !/^["'`]/.test(d.literal)) return { kind: 'any', nullable }; // an expression, not a literal
  return { kind: kind as 'string' | 'number' | 'boolean' | 'object' | 'any', nullable };
}

function describeKind(k: ParameterKind): string {
  const base = k.kind === 'array' ? (k.element === 'any' ? 'an array' : `an array of ${k.element}s`) : k.kind === 'object' ? 'an object' : `a ${k.kind}`;
  return k.nullable && k.kind !== 'any' ? `${base} or null` : base;
}

/** A command line that works for this parameter, built from its default. */
function exampleFor(name: string, d: ParameterDeclaration, k: ParameterKind): string {
  const value = jsonish(d.literal);
  const shellQuote = (s: string) => (/^[A-Za-z0-9_./:@+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  if (k.kind === 'string') return `-p ${name} ${shellQuote(String(value))}`;
  if (k.kind === 'number') return `-p ${name} ${typeof value === 'number' ? value : 1}`;
  if (k.kind === 'boolean') return `-p ${name} ${value === true ? 'false' : 'true'}`;
  return `-p ${name} ${shellQuote(JSON.stringify(value))}`;
}

function scalar(text: string, kind: 'string' | 'number' | 'boolean' | 'any'): { ok: true; value: unknown } | { ok: false } {
  if (kind === 'any') return { ok: true, value: parseParameterValue(text) };
  if (kind === 'string') {
    // `-p seed 7` is the string "7"; a JSON string literal ('"7"') is taken as its content.
    if (/^".*"$/s.test(text)) {
      try {
        return { ok: true, value: JSON.parse(text) as string };
      } catch {
        return { ok: true, value: text };
      }
    }
    return { ok: true, value: text };
  }
  if (kind === 'number') {
    const t = text.trim();
    // Not a number (NaN) and ±Infinity are refused, with every other non-finite value, by coerceParameter.
    return { ok: true, value: t === '' ? NaN : Number(t) };
  }
  if (text === 'true' || text === 'false') return { ok: true, value: text === 'true' };
  return { ok: false };
}

/**
 * Turns a command-line text into a value of the type the parameter's default has: `-p seed 7` with
 * `const seed = "20260908"` gives the string "7"; with `const resamples = 10000`, `-p resamples 2000`
 * gives 2000; booleans take `true`/`false`; arrays take JSON (`'["a","b"]'`) or a comma-separated list
 * (`a,b`), each element coerced to the default's element type; `null` is accepted where the annotation
 * allows it. Undefined when the text cannot be read as that type.
 */
export function coerceParameter(text: string, d: ParameterDeclaration): { ok: true; value: unknown } | { ok: false } {
  const c = coerceByKind(text, parameterKind(d));
  // JSON reads 1e999 as Infinity, which the injected cell (JSON again) would silently write as null.
  return c.ok && hasNonFiniteNumber(c.value) ? { ok: false } : c;
}

/** Whether `value` is, or holds at any depth, a number that is not finite (±Infinity, NaN). */
function hasNonFiniteNumber(value: unknown): boolean {
  if (typeof value === 'number') return !Number.isFinite(value);
  if (value !== null && typeof value === 'object') return Object.values(value).some(hasNonFiniteNumber);
  return false;
}

function coerceByKind(text: string, k: ParameterKind): { ok: true; value: unknown } | { ok: false } {
  if (k.nullable && text.trim() === 'null') return { ok: true, value: null };
  if (k.kind === 'array') {
    let items: unknown[];
    const parsed = parseParameterValue(text);
    if (Array.isArray(parsed)) items = parsed;
    else if (text.trim().startsWith('[')) return { ok: false };
    else items = text.trim() === '' ? [] : text.split(',').map((s) => s.trim());
    const out: unknown[] = [];
    for (const item of items) {
      if (typeof item !== 'string') {
        if (k.element !== 'any' && kindOf(item) !== k.element) return { ok: false };
        out.push(item);
        continue;
      }
      const c = scalar(item, k.element);
      if (!c.ok) return c;
      out.push(c.value);
    }
    return { ok: true, value: out };
  }
  if (k.kind === 'object') {
    const parsed = parseParameterValue(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? { ok: true, value: parsed } : { ok: false };
  }
  return scalar(text, k.kind);
}

/**
 * The typed values for one notebook: each text given on the command line coerced to the type of the
 * default its parameters cell declares. InputError when the notebook has no parameters cell, a name is
 * not declared there (a typo would otherwise be silently ignored), or a text cannot be read as the
 * declared type — the message names the notebook, the parameter, the type and a command that works.
 */
export function coerceParameters(nb: Notebook, given: Readonly<Record<string, string>>, file: string): ParameterValues {
  const names = Object.keys(given);
  if (names.length === 0) return {};
  const { declarations } = declaringCell(nb, names, file)!;
  const out: ParameterValues = {};
  for (const name of names) {
    const d = declarations.find((x) => x.name === name)!;
    const c = coerceParameter(given[name]!, d);
    if (!c.ok) {
      const k = parameterKind(d);
      throw new InputError(
        `${file}: parameter ${name} is ${describeKind(k)} (default ${d.literal}); cannot read ${JSON.stringify(given[name])} as one. Example: ${exampleFor(name, d, k)}`,
        { file, item: name },
      );
    }
    out[name] = c.value;
  }
  return out;
}

/**
 * Checks that every global parameter is declared by at least one of the notebooks to be run, so a typo
 * is reported before anything runs instead of being silently ignored everywhere.
 */
export function checkGlobalParameters(args: ParameterArgs, declaredByNotebook: ReadonlyMap<string, readonly string[]>): void {
  for (const name of Object.keys(args.all)) {
    if (![...declaredByNotebook.values()].some((names) => names.includes(name))) {
      throw new InputError(`-p ${name}: no notebook being run declares a parameter "${name}"`, { item: name });
    }
  }
}

/** Index of the cell tagged `parameters`, or -1. InputError if more than one cell has the tag. */
export function findParametersCell(nb: Notebook, file: string): number {
  const found = nb.cells.flatMap((c, i) => (cellTags(c).includes('parameters') ? [i] : []));
  if (found.length > 1) {
    throw new InputError(`${file}: cells ${found.join(' and ')} are both tagged "parameters"; tag exactly one`, { file });
  }
  return found[0] ?? -1;
}

/**
 * Top-level names declared in a parameters cell with their keyword, in order:
 * `const seed = "a";\nlet n: number = 3;` → [{name:'seed', keyword:'const'}, {name:'n', keyword:'let'}].
 * Only simple one-name declarations on one line count (the parameters-cell convention): the same
 * reading as `parameterDeclarations`, without the literal.
 */
export function declaredParameters(source: string): Array<{ name: string; keyword: 'const' | 'let' | 'var' }> {
  return parameterDeclarations(source).map(({ name, keyword }) => ({ name, keyword }));
}

/**
 * TypeScript source of the injected cell: one declaration per overridden name, values as JSON literals,
 * each with the type annotation its parameters-cell declaration has. Without it a `const` would take
 * the literal's type: `const domainId = "slope"` is of type "slope", and the notebook's own
 * `domainId === ""` (the "derive it" test) would no longer compile.
 */
export function injectedSource(
  values: ParameterValues,
  declared: ReadonlyArray<{ name: string; keyword: string; annotation?: string }>,
): string {
  const lines = ['// Parameters injected by the runner (papermill convention).'];
  for (const [name, value] of Object.entries(values)) {
    const declaration = declared.find((d) => d.name === name);
    const annotation = declaration?.annotation === undefined ? '' : `: ${declaration.annotation}`;
    lines.push(`${declaration?.keyword ?? 'const'} ${name}${annotation} = ${JSON.stringify(value)};`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Returns a copy of `nb` with an `injected-parameters` cell after the `parameters` cell (an old
 * injected cell is removed first). No values → the notebook minus any old injected cell.
 * InputError when values are given but the notebook has no parameters cell, or a name is not declared
 * there (a typo would otherwise be silently ignored).
 */
export function injectParameters(nb: Notebook, values: ParameterValues, file: string): Notebook {
  const cells = nb.cells.filter((c) => !cellTags(c).includes('injected-parameters'));
  const base: Notebook = { ...nb, cells };
  const names = Object.keys(values);
  if (names.length === 0) return base;
  const { at, declarations } = declaringCell(base, names, file)!;
  const injected: Cell = {
    cell_type: 'code',
    id: 'injected-parameters',
    metadata: { tags: ['injected-parameters'] },
    source: injectedSource(values, declarations),
    outputs: [],
    execution_count: null,
  };
  return { ...base, cells: [...cells.slice(0, at + 1), injected, ...cells.slice(at + 1)] };
}

/**
 * The effective parameter values of a notebook: its defaults (literal JSON-like initialisers in the
 * parameters cell, evaluated as JSON where possible) overridden by `values`. Used for environment.md.
 */
export function effectiveParameters(nb: Notebook, values: ParameterValues, file: string): ParameterValues {
  const out: ParameterValues = {};
  for (const d of readParametersCell(nb, file)?.declarations ?? []) out[d.name] = jsonish(d.literal);
  return { ...out, ...values };
}

function jsonish(literal: string): unknown {
  try {
    return JSON.parse(literal);
  } catch {
    const single = /^'([^'\\]*)'$/.exec(literal);
    return single ? single[1] : literal;
  }
}
