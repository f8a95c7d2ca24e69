import { InputError } from '../errors';
import { atomsByItem, basisModel, countUnionStates, forEachUnionState, isStateFromBasis, type BasisModel } from './basis';
import { bitsKey, compareItemSets, emptyBits, popcount32, wordsFor } from './bitset';

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

/**
 * Basis of a family given state by state. The basis is the set of atoms (for each item x, the minimal
 * states containing x); the family is a knowledge space exactly when it contains ∅ and Q and every
 * union S ∪ B of a state and a basis element is again a state (if some union of states were missing,
 * the shortest missing union B1 ∪ … ∪ Bk gives the pair S = B1 ∪ … ∪ B(k−1), B = Bk).
 */
export function basisFromStates(ctx: Ctx, sets: readonly (readonly string[])[]): Uint32Array[] {
  const rows = sets.map((set, i) => toBits(ctx, set, `states[${i}]`));
  return familyBasis(ctx, rows.length, (i, out) => out.set(rows[i]!));
}

/**
 * The basis of a family of `rows` states, row i written into `out` by `fill` (all zero before the
 * call), with no limit on the family's size but memory: the rows are kept packed (n/32 words and one
 * hash slot each, so 787,355 states over 28 items take about 10 MB), never as ID lists. Checks, with
 * the messages of the `states` form (rows named `states[i]`): no repeated row, ∅ and Q present, and
 * closure under union. Every row K is the union of the atoms inside it (each x ∈ K has a minimal
 * state containing it inside K), so the family lies inside the union closure of its atoms and is a
 * knowledge space exactly when it has as many states as that closure; the closure is counted by the
 * union-closure walk, stopped as soon as it passes the family's size. Only when the counts differ are
 * the pairs S ∪ B searched for the missing union to name.
 */
export function familyBasis(ctx: Ctx, rows: number, fill: (i: number, out: Uint32Array) => void): Uint32Array[] {
  const n = ctx.ids.length;
  const words = wordsFor(n);
  const packed = new Uint32Array(rows * words);
  const row = (i: number): Uint32Array => packed.subarray(i * words, (i + 1) * words);
  const set = new FamilySet(packed, words, rows);
  for (let i = 0; i < rows; i++) {
    fill(i, row(i));
    const j = set.add(i);
    if (j !== i) fail(ctx, `states[${i}] repeats states[${j}] ${setLabel(ctx.ids, row(i))}`);
  }
  const probe = new Uint32Array(words);
  if (set.find(probe) < 0) fail(ctx, 'states does not contain the empty state ∅ (not a knowledge space)');
  for (let x = 0; x < n; x++) probe[x >>> 5]! |= 1 << (x & 31);
  if (set.find(probe) < 0) fail(ctx, 'states does not contain the full domain Q (not a knowledge space)');
  // Rows by size (counting sort): a row is an atom at x when no smaller atom at x lies inside it.
  const sizes = new Int32Array(rows);
  const bySize = new Int32Array(n + 2);
  for (let i = 0; i < rows; i++) {
    let size = 0;
    for (let w = 0; w < words; w++) size += popcount32(packed[i * words + w]!);
    sizes[i] = size;
    bySize[size + 1]!++;
  }
  for (let k = 1; k < bySize.length; k++) bySize[k]! += bySize[k - 1]!;
  const order = new Int32Array(rows);
  for (let i = 0; i < rows; i++) order[bySize[sizes[i]!]!++] = i;
  const atomsAt: number[][] = Array.from({ length: n }, () => []);
  const isAtom = new Uint8Array(rows);
  for (const i of order) {
    const o = i * words;
    for (let x = 0; x < n; x++) {
      if ((packed[o + (x >>> 5)]! & (1 << (x & 31))) === 0) continue;
      const list = atomsAt[x]!;
      let dominated = false;
      for (let k = 0; k < list.length && !dominated; k++) {
        const a = list[k]! * words;
        let inside = true;
        for (let w = 0; w < words; w++) if ((packed[a + w]! & ~packed[o + w]!) !== 0) inside = false;
        dominated = inside;
      }
      if (!dominated) {
        list.push(i);
        isAtom[i] = 1;
      }
    }
  }
  const basisRows: number[] = [];
  for (let i = 0; i < rows; i++) if (isAtom[i]) basisRows.push(i);
  const basis = basisRows.map((i) => row(i).slice());
  if (unionClosureExceeds(basisModel(n, basis), rows)) {
    const union = new Uint32Array(words);
    for (let i = 0; i < rows; i++) {
      for (const b of basisRows) {
        for (let w = 0; w < words; w++) union[w] = packed[i * words + w]! | packed[b * words + w]!;
        if (set.find(union) < 0) {
          fail(ctx, `states is not closed under union: states[${i}] ∪ states[${b}] = ${setLabel(ctx.ids, union)} is not in the family`);
        }
      }
    }
  }
  return basis.sort(compareItemSets);
}

/**
 * familyBasis for callers outside a domain file (a kstIO space file streamed row by row): the basis of
 * the family as ID lists in canonical order, sorted; messages start with `where` and name rows
 * `states[i]`.
 */
export function basisOfStateRows(ids: readonly string[], rows: number, fill: (i: number, out: Uint32Array) => void, where: string): string[][] {
  const ctx: Ctx = { where, file: where, ids, index: new Map(ids.map((id, i) => [id, i])) };
  return familyBasis(ctx, rows, fill).map((bits) => ids.filter((_, x) => (bits[x >>> 5]! & (1 << (x & 31))) !== 0));
}

/** True when the union closure of the basis has more than `limit` states (the walk stops there). */
function unionClosureExceeds(model: BasisModel, limit: number): boolean {
  const stop = new Error('limit passed');
  let states = 0;
  try {
    forEachUnionState(model, () => {
      if (++states > limit) throw stop;
    });
  } catch (err) {
    if (err === stop) return true;
    throw err;
  }
  return false;
}

/** An open-addressing hash set of the rows of a packed bitset family (row indices; -1 = free slot). */
class FamilySet {
  private readonly slots: Int32Array;
  private readonly mask: number;
  constructor(
    private readonly packed: Uint32Array,
    private readonly words: number,
    rows: number,
  ) {
    let size = 16;
    while (size < 2 * rows) size *= 2;
    this.slots = new Int32Array(size).fill(-1);
    this.mask = size - 1;
  }
  private hash(bits: Uint32Array, offset: number): number {
    let h = 0x811c9dc5;
    for (let w = 0; w < this.words; w++) h = Math.imul(h ^ bits[offset + w]!, 0x01000193) ^ (h >>> 15);
    return Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  }
  private equal(i: number, bits: Uint32Array, offset: number): boolean {
    for (let w = 0; w < this.words; w++) if (this.packed[i * this.words + w] !== bits[offset + w]) return false;
    return true;
  }
  /** Adds row i; returns i, or the earlier row equal to it. */
  add(i: number): number {
    let slot = this.hash(this.packed, i * this.words) & this.mask;
    for (;;) {
      const j = this.slots[slot]!;
      if (j < 0) {
        this.slots[slot] = i;
        return i;
      }
      if (this.equal(j, this.packed, i * this.words)) return j;
      slot = (slot + 1) & this.mask;
    }
  }
  /** The row equal to `bits`, or -1. */
  find(bits: Uint32Array): number {
    let slot = this.hash(bits, 0) & this.mask;
    for (;;) {
      const j = this.slots[slot]!;
      if (j < 0 || this.equal(j, bits, 0)) return j;
      slot = (slot + 1) & this.mask;
    }
  }
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
 * space exactly when the space is quasi-ordinal. `atoms`: atomsByItem(model), when the caller has it.
 */
export function necessaryRows(model: BasisModel, atoms: readonly (readonly number[])[] = atomsByItem(model)): Uint32Array[] {
  return atoms.map((list) => {
    const row = new Uint32Array(model.words).fill(0xffffffff);
    for (const b of list) for (let w = 0; w < model.words; w++) row[w]! &= model.basis[b * model.words + w]!;
    return row;
  });
}

/** True when every item has exactly one atom: the space is closed under intersection (quasi-ordinal). */
export function isQuasiOrdinalBasis(model: BasisModel, atoms: readonly (readonly number[])[] = atomsByItem(model)): boolean {
  return atoms.every((list) => list.length === 1);
}

/**
 * Direct (cover) pairs [p, q] of the strict part of the implied quasi-order between items of different
 * notions, as canonical indices sorted by (p, q). For a discriminative quasi-ordinal basis these are the
 * prerequisites whose space is exactly the union closure; otherwise they are necessary conditions only.
 */
export function derivedCoverPairs(model: BasisModel, atoms: readonly (readonly number[])[] = atomsByItem(model)): Array<[number, number]> {
  const rows = necessaryRows(model, atoms);
  const { n, words } = model;
  const has = (row: Uint32Array, p: number): boolean => (row[p >>> 5]! & (1 << (p & 31))) !== 0;
  // strict[q]: the p strictly below q (p ≤ q, not q ≤ p, so p ≠ q); q's covers are strict[q] without
  // the items strictly below some r of strict[q]. As bitsets, n² · words rather than n³ tests.
  const strict = rows.map((row, q) => {
    const out = new Uint32Array(words);
    for (let p = 0; p < n; p++) if (p !== q && has(row, p) && !has(rows[p]!, q)) out[p >>> 5]! |= 1 << (p & 31);
    return out;
  });
  const covers = strict.map((row) => {
    const out = row.slice();
    for (let r = 0; r < n; r++) if (has(row, r)) for (let w = 0; w < words; w++) out[w]! &= ~strict[r]![w]!;
    return out;
  });
  const pairs: Array<[number, number]> = [];
  for (let p = 0; p < n; p++) for (let q = 0; q < n; q++) if (has(covers[q]!, p)) pairs.push([p, q]);
  return pairs;
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
