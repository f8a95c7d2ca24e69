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

/** Parameters given on the command line: for every notebook, and for single notebooks by file stem. */
export interface ParameterArgs {
  all: ParameterValues;
  byNotebook: Record<string, ParameterValues>;
}

const NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Reads a command-line value as JSON when it parses, else as a plain string:
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
  const value = parseParameterValue(rawValue);
  if (notebook === undefined) into.all[name] = value;
  else (into.byNotebook[notebook] ??= {})[name] = value;
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
 * The parameters that apply to one notebook (file stem): the global ones that its parameters cell
 * declares (so `-p seed 7` reaches every notebook with a `seed` and leaves the others alone), overridden
 * by the ones addressed to it as `notebook:name` (which must be declared: see `injectParameters`).
 * Pass `declared` = null to apply every global parameter.
 */
export function parametersFor(args: ParameterArgs, notebookStem: string, declared: readonly string[] | null = null): ParameterValues {
  const global = Object.fromEntries(Object.entries(args.all).filter(([name]) => declared === null || declared.includes(name)));
  return { ...global, ...(args.byNotebook[notebookStem] ?? {}) };
}

/** Names declared by a notebook's `parameters` cell (empty when it has none). */
export function parameterNames(nb: Notebook, file: string): string[] {
  const at = findParametersCell(nb, file);
  return at < 0 ? [] : declaredParameters(cellSource(nb.cells[at]!)).map((d) => d.name);
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
 * Only simple one-name declarations at the start of a line count (the parameters-cell convention).
 */
export function declaredParameters(source: string): Array<{ name: string; keyword: 'const' | 'let' | 'var' }> {
  const out: Array<{ name: string; keyword: 'const' | 'let' | 'var' }> = [];
  for (const m of source.matchAll(/^(?:export\s+)?(const|let|var)\s+([A-Za-z_$][A-Za-z0-9_$]*)\s*[:=]/gm)) {
    out.push({ keyword: m[1] as 'const' | 'let' | 'var', name: m[2]! });
  }
  return out;
}

/** TypeScript source of the injected cell: one declaration per overridden name, values as JSON literals. */
export function injectedSource(
  values: ParameterValues,
  declared: ReadonlyArray<{ name: string; keyword: string }>,
): string {
  const lines = ['// Parameters injected by the runner (papermill convention).'];
  for (const [name, value] of Object.entries(values)) {
    const keyword = declared.find((d) => d.name === name)?.keyword ?? 'const';
    lines.push(`${keyword} ${name} = ${JSON.stringify(value)};`);
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
  const at = findParametersCell(base, file);
  if (at < 0) {
    throw new InputError(`${file}: parameters ${names.join(', ')} given but no cell is tagged "parameters"`, { file });
  }
  const declared = declaredParameters(cellSource(cells[at]!));
  const unknown = names.filter((n) => !declared.some((d) => d.name === n));
  if (unknown.length > 0) {
    throw new InputError(
      `${file}: unknown parameter(s) ${unknown.join(', ')}; the parameters cell declares ${declared.map((d) => d.name).join(', ') || 'nothing'}`,
      { file, item: unknown[0] },
    );
  }
  const injected: Cell = {
    cell_type: 'code',
    id: 'injected-parameters',
    metadata: { tags: ['injected-parameters'] },
    source: injectedSource(values, declared),
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
  const at = findParametersCell(nb, file);
  const out: ParameterValues = {};
  if (at >= 0) {
    const source = cellSource(nb.cells[at]!);
    for (const m of source.matchAll(/^(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][A-Za-z0-9_$]*)\s*(?::[^=\n]+)?=\s*(.+?);?\s*(?:\/\/.*)?$/gm)) {
      const literal = m[2]!.trim().replace(/;$/, '');
      out[m[1]!] = jsonish(literal);
    }
  }
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
