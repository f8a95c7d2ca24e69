import { InputError } from '../errors';
import { atomsByItem, basisModel, countUnionStates, forEachUnionState, isStateFromBasis, type BasisModel } from './basis';
import { bitsKey, emptyBits, wordsFor } from './bitset';

/**
 * The four ways a domain file may give its knowledge structure, all reduced here to one validated basis
 * (item bitsets over canonical indices). Each failure is an InputError naming the offending state,
 * item or clause, located as `<where>: <form>[i]`.
 *
 *   prerequisites  [p, q] pairs (handled in domain.ts: acyclic, the quasi-ordinal case);
 *   basis          the basis states;
 *   states         the whole family (must contain ∅ and Q and be closed under union);
 *   surmise        item → clauses; a clause is a set of other items that together let the item be
 *                  learned; within a clause AND, across clauses OR. An item not listed has one empty
 *                  clause (no prerequisites).
 */
export type StructureForm = 'prerequisites' | 'basis' | 'states' | 'surmise';

/** Sort key of an item bitset: by size, then lexicographically by item indices (∅ first, Q last). */
export function compareItemSets(a: Uint32Array, b: Uint32Array): number {
  let sa = 0;
  let sb = 0;
  for (let w = 0; w < a.length; w++) {
    sa += popcount(a[w]!);
    sb += popcount(b[w]!);
  }
  if (sa !== sb) return sa - sb;
  for (let w = 0; w < a.length; w++) {
    const d = a[w]! ^ b[w]!;
    if (d !== 0) return (a[w]! & d & -d) !== 0 ? -1 : 1;
  }
  return 0;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

interface Ctx {
  where: string;
  file?: string;
  ids: readonly string[];
  index: ReadonlyMap<string, number>;
}

function fail(ctx: Ctx, message: string, item?: string): never {
  throw new InputError(`${ctx.where}: ${message}`, { file: ctx.file, item });
}

function toBits(ctx: Ctx, ids: readonly string[], label: string): Uint32Array {
  const bits = emptyBits(ctx.ids.length);
  for (const id of ids) {
    const i = ctx.index.get(id);
    if (i === undefined) fail(ctx, `${label} names unknown component "${id}"`, id);
    bits[i >>> 5]! |= 1 << (i & 31);
  }
  return bits;
}

export function setLabel(ids: readonly string[], bits: Uint32Array): string {
  const out: string[] = [];
  for (let i = 0; i < ids.length; i++) if ((bits[i >>> 5]! & (1 << (i & 31))) !== 0) out.push(ids[i]!);
  return `{${out.join(', ')}}`;
}

/**
 * Checks that `elements` is a basis of a knowledge space on the items and returns it sorted (by size,
 * then lexicographically): no element empty or repeated, none a union of the others (each is an atom at
 * some item), and every item in some element (so that Q is a state).
 */
export function checkBasis(ctx: Ctx, elements: Uint32Array[], label: string): Uint32Array[] {
  const n = ctx.ids.length;
  const seen = new Map<string, number>();
  elements.forEach((b, i) => {
    if (b.every((w) => w === 0)) fail(ctx, `${label}[${i}] is empty; ∅ is a state of every space but never a basis element`);
    const key = bitsKey(b);
    const j = seen.get(key);
    if (j !== undefined) fail(ctx, `${label}[${i}] repeats ${label}[${j}] ${setLabel(ctx.ids, b)}`);
    seen.set(key, i);
  });
  const covered = emptyBits(n);
  for (const b of elements) for (let w = 0; w < covered.length; w++) covered[w]! |= b[w]!;
  for (let x = 0; x < n; x++) {
    if ((covered[x >>> 5]! & (1 << (x & 31))) === 0) {
      fail(ctx, `component "${ctx.ids[x]}" is in no ${label === 'basis' ? 'basis element' : 'state'}, so Q would not be a state`, ctx.ids[x]);
    }
  }
  const model = basisModel(n, elements);
  const atoms = atomsByItem(model);
  const isAtom = new Uint8Array(elements.length);
  for (const list of atoms) for (const b of list) isAtom[b] = 1;
  elements.forEach((b, i) => {
    if (!isAtom[i]) fail(ctx, `${label}[${i}] ${setLabel(ctx.ids, b)} is the union of other basis elements, so it is not a basis element`);
  });
  return [...elements].sort(compareItemSets);
}

/** Basis given directly. */
export function basisFromBasis(ctx: Ctx, sets: readonly (readonly string[])[]): Uint32Array[] {
  return checkBasis(ctx, sets.map((set, i) => toBits(ctx, set, `basis[${i}]`)), 'basis');
}

/** Upper bound on the family size accepted by the `states` form (its check is quadratic-ish). */
export const MAX_FAMILY_STATES = 200_000;

/**
 * Basis of a family given state by state. The basis is the set of atoms (for each item x, the minimal
 * states containing x); the family is a knowledge space exactly when it contains ∅ and Q and every
 * union S ∪ B of a state and a basis element is again a state (if some union of states were missing,
 * the shortest missing union B1 ∪ … ∪ Bk gives the pair S = B1 ∪ … ∪ B(k−1), B = Bk).
 */
export function basisFromStates(ctx: Ctx, sets: readonly (readonly string[])[]): Uint32Array[] {
  const n = ctx.ids.length;
  if (sets.length > MAX_FAMILY_STATES) {
    fail(ctx, `states lists ${sets.length} states; give families above ${MAX_FAMILY_STATES} states as a basis`);
  }
  const family: Uint32Array[] = [];
  const keys = new Map<string, number>();
  sets.forEach((set, i) => {
    const bits = toBits(ctx, set, `states[${i}]`);
    const key = bitsKey(bits);
    const j = keys.get(key);
    if (j !== undefined) fail(ctx, `states[${i}] repeats states[${j}] ${setLabel(ctx.ids, bits)}`);
    keys.set(key, i);
    family.push(bits);
  });
  const empty = emptyBits(n);
  if (!keys.has(bitsKey(empty))) fail(ctx, 'states does not contain the empty state ∅ (not a knowledge space)');
  const full = emptyBits(n);
  for (let x = 0; x < n; x++) full[x >>> 5]! |= 1 << (x & 31);
  if (!keys.has(bitsKey(full))) fail(ctx, 'states does not contain the full domain Q (not a knowledge space)');
  const order = family.map((_, i) => i).sort((a, b) => compareItemSets(family[a]!, family[b]!));
  const atomSet = new Set<number>();
  const words = wordsFor(n);
  for (let x = 0; x < n; x++) {
    const mask = 1 << (x & 31);
    const minimal: number[] = [];
    for (const i of order) {
      const s = family[i]!;
      if ((s[x >>> 5]! & mask) === 0) continue;
      let dominated = false;
      for (const j of minimal) {
        const t = family[j]!;
        let inside = true;
        for (let w = 0; w < words; w++) if ((t[w]! & ~s[w]!) !== 0) inside = false;
        if (inside) {
          dominated = true;
          break;
        }
      }
      if (!dominated) minimal.push(i);
    }
    for (const i of minimal) atomSet.add(i);
  }
  const basisIdx = [...atomSet].sort((a, b) => a - b);
  const union = new Uint32Array(words);
  for (let i = 0; i < family.length; i++) {
    for (const b of basisIdx) {
      for (let w = 0; w < words; w++) union[w] = family[i]![w]! | family[b]![w]!;
      if (!keys.has(bitsKey(union))) {
        fail(ctx, `states is not closed under union: states[${i}] ∪ states[${b}] = ${setLabel(ctx.ids, union)} is not in the family`);
      }
    }
  }
  return basisIdx.map((i) => family[i]!).sort(compareItemSets);
}

/**
 * Basis of the space of a surmise function. A state is a set K in which every item q has a clause
 * C ⊆ K. Each clause must be *closed* (every r ∈ C has one of its own clauses inside C ∪ {q}) and the
 * clauses of one item must be pairwise incomparable; then the sets C ∪ {q} are exactly the atoms, i.e.
 * the basis (kstMatrix's and DAKS's surmise systems obey the same two axioms).
 */
export function basisFromSurmise(ctx: Ctx, surmise: Readonly<Record<string, readonly (readonly string[])[]>>): Uint32Array[] {
  const n = ctx.ids.length;
  const words = wordsFor(n);
  const clauses: Uint32Array[][] = Array.from({ length: n }, () => []);
  for (const [id, list] of Object.entries(surmise)) {
    const q = ctx.index.get(id);
    if (q === undefined) fail(ctx, `surmise names unknown component "${id}"`, id);
    if (list.length === 0) fail(ctx, `surmise.${id} has no clause; give [[]] for a task without prerequisites`, id);
    list.forEach((clause, k) => {
      const bits = toBits(ctx, clause, `surmise.${id}[${k}]`);
      if ((bits[q >>> 5]! & (1 << (q & 31))) !== 0) fail(ctx, `surmise.${id}[${k}] contains ${id} itself; a clause lists the other tasks`, id);
      bits[q >>> 5]! |= 1 << (q & 31);
      clauses[q]!.push(bits);
    });
  }
  for (let q = 0; q < n; q++) if (clauses[q]!.length === 0) clauses[q]!.push(setOf(n, [q]));
  const inside = (a: Uint32Array, b: Uint32Array): boolean => {
    for (let w = 0; w < words; w++) if ((a[w]! & ~b[w]!) !== 0) return false;
    return true;
  };
  for (let q = 0; q < n; q++) {
    const list = clauses[q]!;
    for (let k = 0; k < list.length; k++) {
      for (let j = 0; j < list.length; j++) {
        if (j !== k && inside(list[j]!, list[k]!)) {
          const why = bitsKey(list[j]!) === bitsKey(list[k]!) ? 'repeats' : 'contains';
          fail(ctx, `surmise.${ctx.ids[q]}[${k}] ${why} surmise.${ctx.ids[q]}[${j}]; the clauses of a task must be pairwise incomparable`, ctx.ids[q]);
        }
      }
      const c = list[k]!;
      for (let r = 0; r < n; r++) {
        if (r === q || (c[r >>> 5]! & (1 << (r & 31))) === 0) continue;
        if (!clauses[r]!.some((own) => inside(own, c))) {
          fail(ctx, notClosedMessage(ctx, q, k, r, c, clauses[r]!), ctx.ids[q]);
        }
      }
    }
  }
  const unique = new Map<string, Uint32Array>();
  for (const list of clauses) for (const c of list) unique.set(bitsKey(c), c);
  return [...unique.values()].sort(compareItemSets);
}

/**
 * Why clause k of item q is not closed, with the clauses that would be: a clause is a whole route, so
 * `d: [["c"]]` when c needs a or b must be written `[["a", "c"], ["b", "c"]]`.
 */
function notClosedMessage(ctx: Ctx, q: number, k: number, r: number, clause: Uint32Array, ownClauses: readonly Uint32Array[]): string {
  const [item, other] = [ctx.ids[q]!, ctx.ids[r]!];
  const routes = ownClauses.map((own) => {
    const merged = clause.slice();
    for (let w = 0; w < merged.length; w++) merged[w]! |= own[w]!;
    merged[q >>> 5]! &= ~(1 << (q & 31));
    return JSON.stringify(ctx.ids.filter((_, i) => (merged[i >>> 5]! & (1 << (i & 31))) !== 0));
  });
  return `surmise.${item}[${k}] is not closed: it contains ${other}, but none of ${other}'s clauses lies inside ${setLabel(ctx.ids, clause)}; a clause spells out a whole route, e.g. ${routes.join(' or ')}`;
}

function setOf(n: number, items: readonly number[]): Uint32Array {
  const bits = emptyBits(n);
  for (const x of items) bits[x >>> 5]! |= 1 << (x & 31);
  return bits;
}

/**
 * The quasi-order a basis implies: p ≤ q when p lies in every atom at q (every route to q passes
 * p). Returns, per item, the bitset of such p (q itself included). Equals the surmise relation of the
 * space exactly when the space is quasi-ordinal.
 */
export function necessaryRows(model: BasisModel): Uint32Array[] {
  const atoms = atomsByItem(model);
  return atoms.map((list) => {
    const row = new Uint32Array(model.words).fill(0xffffffff);
    for (const b of list) for (let w = 0; w < model.words; w++) row[w]! &= model.basis[b * model.words + w]!;
    return row;
  });
}

/** True when every item has exactly one atom: the space is closed under intersection (quasi-ordinal). */
export function isQuasiOrdinalBasis(model: BasisModel): boolean {
  return atomsByItem(model).every((list) => list.length === 1);
}

/**
 * Direct (cover) pairs [p, q] of the strict part of the implied quasi-order between items of different
 * notions, as canonical indices sorted by (p, q). For a discriminative quasi-ordinal basis these are the
 * prerequisites whose space is exactly the union closure; otherwise they are necessary conditions only.
 */
export function derivedCoverPairs(model: BasisModel): Array<[number, number]> {
  const rows = necessaryRows(model);
  const n = model.n;
  const has = (row: Uint32Array, p: number): boolean => (row[p >>> 5]! & (1 << (p & 31))) !== 0;
  const below = (p: number, q: number): boolean => p !== q && has(rows[q]!, p) && !has(rows[p]!, q);
  const pairs: Array<[number, number]> = [];
  for (let q = 0; q < n; q++) {
    for (let p = 0; p < n; p++) {
      if (!below(p, q)) continue;
      let covered = true;
      for (let r = 0; r < n && covered; r++) if (below(p, r) && below(r, q)) covered = false;
      if (covered) pairs.push([p, q]);
    }
  }
  return pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

/** Result of the learning-space check. */
export type LearningSpaceCheck =
  | { wellGraded: true; states: number }
  | { wellGraded: false; state: Uint32Array; states?: number }
  | { wellGraded: undefined; reason: string };

/**
 * Learning space (well-graded) check. For a knowledge space, well-graded ⇔ accessible (every non-empty
 * state has a notion that can be removed, i.e. a non-empty inner fringe; Cosyn & Uzun 2009). The check
 * visits every state with the basis inner fringe and reports the first offending state in the usual
 * order (size, then lexicographic); larger spaces than `maxStates` are not checked.
 */
export function checkLearningSpace(
  model: BasisModel,
  innerFringe: (state: Uint32Array, out: Uint32Array) => Uint32Array,
  maxStates = 2_000_000,
): LearningSpaceCheck {
  // Count first so that an unchecked space is reported rather than walked for minutes.
  const states = countUnionStates(model);
  if (states > maxStates) return { wellGraded: undefined, reason: `${states} states exceed the check's limit of ${maxStates}` };
  const out = new Uint32Array(model.words);
  let offending: Uint32Array | undefined;
  forEachUnionState(model, (state) => {
    if (state.every((w) => w === 0)) return;
    if (offending && compareItemSets(state, offending) > 0) return;
    innerFringe(state, out);
    if (out.every((w) => w === 0)) offending = state.slice();
  });
  return offending ? { wellGraded: false, state: offending, states } : { wellGraded: true, states };
}

export { isStateFromBasis };
