import { readdirSync } from 'node:fs';
import { checkJson, parseJsonFile } from '../io/json';
import { refuseProtoKey } from '../io/keys';
import { readInputText } from '../io/read';
import { join } from 'node:path';
import { z } from 'zod';
import { InputError } from '../errors';
import { atomsByItem, basisModel, notionLists } from './basis';
import {
  basisFromBasis,
  basisFromStates,
  basisFromSurmise,
  derivedCoverPairs,
  isQuasiOrdinalBasis,
  type StructureForm,
} from './forms';

/** One task (component) of a domain. */
export interface Component {
  id: string;
  description: string;
  /** The item's name in the file it was imported from, when that name was not a valid ID. */
  label?: string;
  /** Optional search keywords (used by the PSI taxonomy). */
  keywords?: string[];
  /** Optional course week in which the component is taught (used by the PSI taxonomy). */
  week?: number;
}

/**
 * A validated domain: the components in canonical (file) order plus its knowledge structure.
 *
 * `[p, q]` in `prerequisites` means p is a direct prerequisite of q (p ≺ q). The relation is
 * guaranteed acyclic, free of self-loops and of unknown IDs; duplicate pairs have been dropped.
 * - Quasi-ordinal domains (`quasiOrdinal: true`: given as prerequisites, or as a basis, family or
 *   surmise function that is closed under intersection and has no equivalent items): the
 *   prerequisites (given, or derived as the cover pairs) induce exactly the space, and every function
 *   behaves as for a prerequisite file.
 * - Other domains (`quasiOrdinal: false`): `basis` is the space; `prerequisites` holds only the
 *   *necessary* cover pairs (p lies on every route to q) between items of different notions, which
 *   the space satisfies but does not equal. Fringes, states, counts and samples use the basis.
 */
export interface Domain {
  id: string;
  title: string;
  source: string;
  components: Component[];
  ids: string[];
  index: ReadonlyMap<string, number>;
  prerequisites: ReadonlyArray<readonly [string, string]>;
  /** The form the structure was given in. */
  form: StructureForm;
  /** True when the space is induced by `prerequisites` exactly (closed under intersection, no notions). */
  quasiOrdinal: boolean;
  /**
   * The basis as canonical-order ID lists sorted by size, then lexicographically; present for every
   * domain not given as prerequisites.
   */
  basis?: string[][];
  /** Classes of two or more equivalent items (notions), canonical order; [] when discriminative. */
  notions: string[][];
  file?: string;
}

/** A domain or component ID: letters, digits, `_`, `.`, `-`, starting with a letter or digit. */
export const IdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'must be a non-empty ID of letters, digits, "_", "." or "-", starting with a letter or digit');

/** Schema of one component object; unknown keys are rejected so typos such as `descripton` surface. */
export const ComponentSchema = z.strictObject({
  id: IdSchema,
  description: z.string().trim().min(1, 'must be a non-empty description'),
  /** The item's name in the file it was imported from, when that name was not a valid ID (kstbench import). */
  label: z.string().min(1).optional(),
  keywords: z.array(z.string().trim().min(1)).optional(),
  week: z.int().nonnegative().optional(),
});

const ItemSetSchema = z.array(z.string());

/** The four structure keys of a domain file; exactly one must be present. */
export const STRUCTURE_FORMS = ['prerequisites', 'basis', 'states', 'surmise'] as const;

/**
 * Schema of a domain file (`data/raw/domains/<id>.json`). The structure is given by exactly one of
 * `prerequisites` (direct pairs [p, q]), `basis` (basis states), `states` (the whole family) or
 * `surmise` (item → list of clauses, each a list of other items). Structural checks come after.
 */
export const DomainFileSchema = z
  .strictObject({
    id: IdSchema,
    title: z.string().trim().min(1),
    source: z.string().trim().min(1),
    components: z.array(ComponentSchema),
    prerequisites: z.array(z.tuple([z.string(), z.string()])).optional(),
    basis: z.array(ItemSetSchema).optional(),
    states: z.array(ItemSetSchema).optional(),
    surmise: z.record(z.string(), z.array(ItemSetSchema)).optional(),
  })
  .superRefine((file, ctx) => {
    const given = STRUCTURE_FORMS.filter((key) => file[key] !== undefined);
    if (given.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: given.length > 1 ? [given[1]!] : [],
        message:
          given.length === 0
            ? 'give the structure as exactly one of prerequisites, basis, states or surmise (none given)'
            : `give the structure as exactly one of prerequisites, basis, states or surmise (found ${given.join(' and ')})`,
      });
    }
  });

export type DomainFile = z.infer<typeof DomainFileSchema>;

/**
 * Parses and validates the text of a domain file. Throws InputError naming `file` and the offending
 * item for: malformed JSON (`file:line: not valid JSON (…)`, lib/io's one wording), schema violations
 * (`file: components[2].description: …`, with the JSON path), an empty component list, duplicate
 * component IDs, unknown IDs in a prerequisite pair, self-loops, and cycles (printed as
 * `A -> B -> C -> A`). Duplicate prerequisite pairs are accepted silently and kept once (first
 * occurrence), since they do not change the relation.
 */
export function parseDomain(text: string, file: string): Domain {
  const json: unknown = parseJsonFile(text, file, z.unknown());
  // The surmise record is keyed by task IDs; zod would silently drop a "__proto__" key.
  refuseProtoKey((json as { surmise?: unknown } | null)?.surmise, `${file}: surmise`);
  return buildDomain(checkJson(json, file, DomainFileSchema), file);
}

/** Structural validation of schema-valid data; see parseDomain for the error classes. */
export function buildDomain(data: DomainFile, file?: string): Domain {
  const where = file ?? `domain ${data.id}`;
  if (data.components.length === 0) {
    throw new InputError(`${where}: domain "${data.id}" has no components`, { file, item: 'components' });
  }
  const index = new Map<string, number>();
  data.components.forEach((component, i) => {
    if (index.has(component.id)) {
      throw new InputError(`${where}: duplicate component ID "${component.id}" at components[${i}]`, {
        file,
        item: component.id,
      });
    }
    index.set(component.id, i);
  });
  const ids = data.components.map((c) => c.id);
  const components = data.components.map((c) => {
    const out: Component = { id: c.id, description: c.description };
    if (c.label !== undefined) out.label = c.label;
    if (c.keywords !== undefined) out.keywords = [...c.keywords];
    if (c.week !== undefined) out.week = c.week;
    return out;
  });
  if (data.prerequisites === undefined) return buildFromSets(data, components, ids, index, where, file);
  const seen = new Set<string>();
  const prerequisites: Array<readonly [string, string]> = [];
  data.prerequisites.forEach(([p, q], i) => {
    for (const id of [p, q]) {
      if (!index.has(id)) {
        throw new InputError(`${where}: prerequisites[${i}] ["${p}", "${q}"] names unknown component "${id}"`, {
          file,
          item: id,
        });
      }
    }
    if (p === q) {
      throw new InputError(`${where}: prerequisites[${i}] is a self-loop: "${p}" cannot be its own prerequisite`, {
        file,
        item: p,
      });
    }
    const key = `${p}\u0000${q}`;
    if (seen.has(key)) return;
    seen.add(key);
    prerequisites.push([p, q] as const);
  });
  const cycle = findCycle(ids, index, prerequisites);
  if (cycle) {
    throw new InputError(`${where}: prerequisite cycle ${describeCycle(cycle)}`, { file, item: cycle[0] });
  }
  return assembleDomain(data, { components, ids, index, prerequisites, form: 'prerequisites', quasiOrdinal: true, notions: [] }, file);
}

/**
 * The one place a Domain object is put together, so both structure forms give the same key order
 * (anything that serializes a domain sees one shape): the file's header fields, then what was derived.
 */
function assembleDomain(
  data: DomainFile,
  derived: Omit<Domain, 'id' | 'title' | 'source' | 'file'>,
  file: string | undefined,
): Domain {
  const { components, ids, index, prerequisites, form, quasiOrdinal, basis, notions } = derived;
  return {
    id: data.id,
    title: data.title,
    source: data.source,
    components,
    ids,
    index,
    prerequisites,
    form,
    quasiOrdinal,
    ...(basis !== undefined ? { basis } : {}),
    notions,
    ...(file !== undefined ? { file } : {}),
  };
}

/** Basis bitsets of the domains built from basis/states/surmise, for compileStructure. */
export const basisBitsOf = new WeakMap<Domain, Uint32Array[]>();

/** A domain given as basis, states or surmise: validated basis, notions, derived prerequisites. */
function buildFromSets(
  data: DomainFile,
  components: Component[],
  ids: string[],
  index: Map<string, number>,
  where: string,
  file: string | undefined,
): Domain {
  const ctx = { where, file, ids, index };
  const form: StructureForm = data.basis !== undefined ? 'basis' : data.states !== undefined ? 'states' : 'surmise';
  const bits =
    form === 'basis' ? basisFromBasis(ctx, data.basis!) : form === 'states' ? basisFromStates(ctx, data.states!) : basisFromSurmise(ctx, data.surmise!);
  const model = basisModel(ids.length, bits);
  const notions = notionLists(model)
    .filter((items) => items.length > 1)
    .map((items) => items.map((i) => ids[i]!));
  // The atoms once, for both: each is a pass over every pair of basis elements.
  const atoms = atomsByItem(model);
  const quasiOrdinal = notions.length === 0 && isQuasiOrdinalBasis(model, atoms);
  const prerequisites = derivedCoverPairs(model, atoms).map(([p, q]) => [ids[p]!, ids[q]!] as const);
  const basis = bits.map((b) => ids.filter((_, i) => (b[i >>> 5]! & (1 << (i & 31))) !== 0));
  const domain = assembleDomain(data, { components, ids, index, prerequisites, form, quasiOrdinal, basis, notions }, file);
  basisBitsOf.set(domain, bits);
  return domain;
}

/**
 * Returns one directed cycle as a closed ID path (`[A, B, C, A]`, each a prerequisite of the next), or
 * undefined when the relation is acyclic. Kahn's algorithm strips every node not on or behind a cycle;
 * each remaining node has a remaining prerequisite, so walking prerequisites backwards must revisit a node.
 */
function findCycle(
  ids: readonly string[],
  index: ReadonlyMap<string, number>,
  pairs: ReadonlyArray<readonly [string, string]>,
): string[] | undefined {
  const n = ids.length;
  const indegree = new Int32Array(n);
  const successors: number[][] = Array.from({ length: n }, () => []);
  const predecessors: number[][] = Array.from({ length: n }, () => []);
  for (const [p, q] of pairs) {
    const pi = index.get(p)!;
    const qi = index.get(q)!;
    successors[pi]!.push(qi);
    predecessors[qi]!.push(pi);
    indegree[qi]!++;
  }
  const queue: number[] = [];
  for (let i = 0; i < n; i++) if (indegree[i] === 0) queue.push(i);
  const removed = new Uint8Array(n);
  for (let head = 0; head < queue.length; head++) {
    const v = queue[head]!;
    removed[v] = 1;
    for (const s of successors[v]!) if (--indegree[s]! === 0) queue.push(s);
  }
  if (queue.length === n) return undefined;
  // Walk backwards from the first remaining node until a node repeats.
  let v = removed.indexOf(0);
  const step = new Map<number, number>();
  while (!step.has(v)) {
    const prev = predecessors[v]!.find((u) => removed[u] === 0)!;
    step.set(v, prev);
    v = prev;
  }
  // v is on the cycle; collect it backwards, then reverse into prerequisite -> dependent order.
  const backwards = [v];
  for (let u = step.get(v)!; u !== v; u = step.get(u)!) backwards.push(u);
  const forward = backwards.reverse();
  // A loop, not Math.min(...forward): spreading a 200,000-node cycle into arguments overflows the stack.
  let start = 0;
  for (let i = 1; i < forward.length; i++) if (forward[i]! < forward[start]!) start = i;
  const rotated = [...forward.slice(start), ...forward.slice(0, start)];
  return [...rotated, rotated[0]!].map((i) => ids[i]!);
}

/** A cycle as `A -> B -> A`, shortened in the middle past 12 steps (the error stays one readable line). */
function describeCycle(cycle: readonly string[]): string {
  if (cycle.length <= 13) return cycle.join(' -> ');
  const steps = cycle.length - 1;
  return `${cycle.slice(0, 6).join(' -> ')} -> … ${steps - 11} more … -> ${cycle.slice(-6).join(' -> ')} (${steps} components)`;
}

/** Reads and parses one domain file; InputError if it cannot be read. */
export function loadDomain(file: string): Domain {
  return parseDomain(readInputText(file, 'domain file'), file);
}

/** Loads every `*.json` file in `dir`, sorted by domain id; InputError on two files with the same id. */
export function loadDomainDir(dir: string): Domain[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch (err) {
    throw new InputError(`${dir}: cannot read domain directory (${(err as NodeJS.ErrnoException).code ?? String(err)})`, {
      file: dir,
    });
  }
  const domains = names.sort().map((name) => loadDomain(join(dir, name)));
  const byId = new Map<string, string>();
  for (const d of domains) {
    const other = byId.get(d.id);
    if (other !== undefined) {
      throw new InputError(`${d.file}: domain id "${d.id}" is also used by ${other}`, { file: d.file, item: d.id });
    }
    byId.set(d.id, d.file!);
  }
  return domains.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
