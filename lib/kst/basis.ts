import { emptyBits, wordsFor } from './bitset';
import { spend, UNLIMITED, type WorkBudget } from './budget';

/**
 * Knowledge spaces given by their basis, in bitset form, for structures that a prerequisite relation
 * cannot express (union-closed but not intersection-closed: a task learnable by more than one route).
 *
 * A knowledge space K on n items is a family of states containing ∅ and Q and closed under union. Its
 * basis is the family of states that are not unions of other states; every state is a union of basis
 * elements, so the basis determines the space. A basis element B is an *atom at q* when q ∈ B and no
 * other state containing q lies inside B (kstIO basis files write 1 there, 2 where B merely contains q).
 * Items q and r are *equivalent* (one *notion*) when exactly the same basis elements contain them.
 *
 * Everything here works on the basis without enumerating the space:
 *   - K is a state  ⇔  ∪{B ∈ basis : B ⊆ K} = K;
 *   - notion N ∩ K = ∅ is in the outer fringe of K  ⇔  some B ⊇ N has B ⊆ K ∪ N
 *     (for each B, B \ K is one whole notion);
 *   - notion N ⊆ K is in the inner fringe of K  ⇔  K \ N is a state  ⇔  no r ∈ K \ N has N inside
 *     I_r = ∩{B ∈ basis : r ∈ B ⊆ K} (I_r is what every route to r inside K uses).
 * Without equivalent items every notion is one item and these are the usual item fringes.
 */
export interface BasisModel {
  /** Number of items. */
  readonly n: number;
  /** Uint32 words per item bitset. */
  readonly words: number;
  /** Number of basis elements. */
  readonly m: number;
  /** Basis element b occupies basis[b·words .. b·words + words − 1]. */
  readonly basis: Uint32Array;
  /** Uint32 words per basis-index bitset. */
  readonly basisWords: number;
  /** column[x·basisWords ..] = the basis elements containing item x (a bitset over basis indices). */
  readonly column: Uint32Array;
  /** notion[x] = index of x's notion; notions are numbered by their smallest item. */
  readonly notion: Int32Array;
  /** notionBits[k·words ..] = the items of notion k. */
  readonly notionBits: Uint32Array;
  /** Number of notions. */
  readonly notions: number;
}

/** Builds the model of a basis given as item bitsets (assumed to be a valid basis; see checkBasis). */
export function basisModel(n: number, elements: readonly Uint32Array[]): BasisModel {
  const words = wordsFor(n);
  const m = elements.length;
  const basisWords = Math.max(1, wordsFor(m));
  const basis = new Uint32Array(m * words);
  elements.forEach((b, i) => basis.set(b.subarray(0, words), i * words));
  const column = new Uint32Array(n * basisWords);
  for (let b = 0; b < m; b++) forEachItem(basis, b * words, words, (x) => (column[x * basisWords + (b >>> 5)]! |= 1 << (b & 31)));
  const notion = notionsOfColumns(n, column, basisWords);
  return { n, words, m, basis, basisWords, column, notion, notionBits: notionBitsOf(notion, words), notions: notionCount(notion) };
}

/**
 * Items with identical columns form one notion, numbered by their smallest item. Columns are grouped
 * by a hash of their non-zero words and compared word by word: no key string per column (a basis of
 * 170,000 elements has columns of 5,313 words, and their keys were tens of MiB of garbage).
 */
function notionsOfColumns(n: number, column: Uint32Array, basisWords: number): Int32Array {
  const notion = new Int32Array(n).fill(-1);
  const firstItemsByHash = new Map<number, number[]>();
  const sameColumn = (x: number, y: number): boolean => {
    for (let j = 0; j < basisWords; j++) if (column[x * basisWords + j] !== column[y * basisWords + j]) return false;
    return true;
  };
  let notions = 0;
  for (let x = 0; x < n; x++) {
    let hash = 0x811c9dc5;
    for (let j = 0; j < basisWords; j++) {
      const word = column[x * basisWords + j]!;
      if (word !== 0) hash = Math.imul(Math.imul(hash ^ j, 16777619) ^ word, 16777619);
    }
    const firstItems = firstItemsByHash.get(hash);
    const first = firstItems?.find((y) => sameColumn(x, y));
    if (first !== undefined) notion[x] = notion[first]!;
    else {
      notion[x] = notions++;
      if (firstItems) firstItems.push(x);
      else firstItemsByHash.set(hash, [x]);
    }
  }
  return notion;
}

function notionCount(notion: Int32Array): number {
  let count = 0;
  for (const k of notion) count = Math.max(count, k + 1);
  return count;
}

/** notionBits[k · words ..] = the items of notion k. */
function notionBitsOf(notion: Int32Array, words: number): Uint32Array {
  const bits = new Uint32Array(notionCount(notion) * words);
  notion.forEach((k, x) => (bits[k * words + (x >>> 5)]! |= 1 << (x & 31)));
  return bits;
}

/** Calls `fn` with each item of the bitset at `bits[offset .. offset + words)`, in increasing order (set bits only: O(words + items)). */
function forEachItem(bits: Uint32Array, offset: number, words: number, fn: (x: number) => void): void {
  for (let w = 0; w < words; w++) {
    let word = bits[offset + w]!;
    while (word !== 0) {
      const lowBit = word & -word;
      fn((w << 5) + 31 - Math.clz32(lowBit));
      word ^= lowBit;
    }
  }
}

/** The notions as lists of item indices, each increasing, ordered by smallest item. */
export function notionLists(model: BasisModel): number[][] {
  const out: number[][] = Array.from({ length: model.notions }, () => []);
  for (let x = 0; x < model.n; x++) out[model.notion[x]!]!.push(x);
  return out;
}

/** True when the basis element stored at `basis[offset .. offset + words)` is a subset of `state`. */
function basisElementWithin(basis: Uint32Array, offset: number, words: number, state: Uint32Array): boolean {
  for (let w = 0; w < words; w++) if ((basis[offset + w]! & ~state[w]!) !== 0) return false;
  return true;
}

/** True when `state` is a union of basis elements. O(m · words). */
export function isStateFromBasis(model: BasisModel, state: Uint32Array): boolean {
  const { words, m, basis } = model;
  const union = new Uint32Array(words);
  for (let b = 0; b < m; b++) {
    const o = b * words;
    if (basisElementWithin(basis, o, words, state)) for (let w = 0; w < words; w++) union[w]! |= basis[o + w]!;
  }
  for (let w = 0; w < words; w++) if (union[w] !== state[w]) return false;
  return true;
}

/**
 * Outer fringe of a state (assumed valid) as an item bitset: the union of the notions N with K ∪ N a
 * state. For each basis element B, D = B \ K is a union of whole notions; K ∪ D is a state, so when D
 * is exactly one notion that notion is in the fringe, and every fringe notion arises this way (K ∪ N
 * is a union of basis elements, one of which must contain N and lie inside K ∪ N). O(m · words).
 */
export function outerFringeFromBasis(model: BasisModel, state: Uint32Array, out: Uint32Array = emptyBits(model.n)): Uint32Array {
  if (model.words <= 3) return outerFringeThreeWords(model, state, out);
  const { words, m, basis, notion, notionBits } = model;
  out.fill(0);
  for (let b = 0; b < m; b++) {
    const o = b * words;
    let low = -1;
    for (let w = 0; w < words; w++) {
      const d = basis[o + w]! & ~state[w]!;
      if (d !== 0) {
        low = (w << 5) + 31 - Math.clz32(d & -d);
        break;
      }
    }
    if (low < 0) continue;
    const k = notion[low]! * words;
    let oneNotion = true;
    for (let w = 0; w < words; w++) {
      if ((basis[o + w]! & ~state[w]! & ~notionBits[k + w]!) !== 0) {
        oneNotion = false;
        break;
      }
    }
    if (oneNotion) for (let w = 0; w < words; w++) out[w]! |= basis[o + w]! & ~state[w]!;
  }
  return out;
}

/** The basis and notion bitsets padded to three words (Int32: no value is a heap number), for outerFringeThreeWords. */
const paddedCache = new WeakMap<BasisModel, { basis: Int32Array; notionBits: Int32Array }>();

function padded(model: BasisModel): { basis: Int32Array; notionBits: Int32Array } {
  let tables = paddedCache.get(model);
  if (!tables) {
    const { words, m, basis, notions, notionBits } = model;
    const pad = (bits: Uint32Array, count: number): Int32Array => {
      const out = new Int32Array(count * 3);
      for (let k = 0; k < count; k++) for (let w = 0; w < words; w++) out[k * 3 + w] = bits[k * words + w]!;
      return out;
    };
    tables = { basis: pad(basis, m), notionBits: pad(notionBits, notions) };
    paddedCache.set(model, tables);
  }
  return tables;
}

/**
 * outerFringeFromBasis for at most 96 items (three words), with the words of the state, of B \ K and
 * of the fringe in local integers: no inner loop over words per basis element. (JSON Lines of
 * `kstbench space` compute one fringe per state: random 77-item basis, 1.4 million states.)
 */
function outerFringeThreeWords(model: BasisModel, state: Uint32Array, out: Uint32Array): Uint32Array {
  const { words, m, notion } = model;
  const { basis, notionBits } = padded(model);
  const s0 = state[0]! | 0;
  const s1 = words > 1 ? state[1]! | 0 : 0;
  const s2 = words > 2 ? state[2]! | 0 : 0;
  let f0 = 0, f1 = 0, f2 = 0;
  for (let o = 0, end = 3 * m; o < end; o += 3) {
    const d0 = basis[o]! & ~s0, d1 = basis[o + 1]! & ~s1, d2 = basis[o + 2]! & ~s2;
    let k: number;
    if (d0 !== 0) k = notion[31 - Math.clz32(d0 & -d0)]! * 3;
    else if (d1 !== 0) k = notion[63 - Math.clz32(d1 & -d1)]! * 3;
    else if (d2 !== 0) k = notion[95 - Math.clz32(d2 & -d2)]! * 3;
    else continue;
    // B \ K is a union of whole notions: one notion when it lies inside its lowest item's.
    if (((d0 & ~notionBits[k]!) | (d1 & ~notionBits[k + 1]!) | (d2 & ~notionBits[k + 2]!)) === 0) {
      f0 |= d0;
      f1 |= d1;
      f2 |= d2;
    }
  }
  out.fill(0);
  out[0] = f0;
  if (words > 1) out[1] = f1;
  if (words > 2) out[2] = f2;
  return out;
}

/**
 * Inner fringe of a state (assumed valid) as an item bitset: the union of the notions N ⊆ K with K \ N
 * a state. I_r = ∩{B : r ∈ B ⊆ K} is what every route to r inside K needs; K \ N is a state exactly
 * when no item r outside N has N ⊆ I_r (otherwise r loses every route), and since notions are never
 * split, N ⊆ I_r ⇔ some item of N is in I_r. O(Σ|B| · words).
 */
export function innerFringeFromBasis(model: BasisModel, state: Uint32Array, out: Uint32Array = emptyBits(model.n)): Uint32Array {
  const { n, words, m, basis, notion, notionBits } = model;
  const need = scratchFor(model, n * words);
  // Only rows of items in the state are read below; reset just those.
  for (let w = 0; w < words; w++) {
    let word = state[w]!;
    while (word !== 0) {
      const lowBit = word & -word;
      need.fill(0xffffffff, ((w << 5) + 31 - Math.clz32(lowBit)) * words, ((w << 5) + 32 - Math.clz32(lowBit)) * words);
      word ^= lowBit;
    }
  }
  for (let b = 0; b < m; b++) {
    const o = b * words;
    if (!basisElementWithin(basis, o, words, state)) continue;
    for (let w = 0; w < words; w++) {
      let word = basis[o + w]!;
      while (word !== 0) {
        const lowBit = word & -word;
        const r = (w << 5) + 31 - Math.clz32(lowBit);
        for (let v = 0; v < words; v++) need[r * words + v]! &= basis[o + v]!;
        word ^= lowBit;
      }
    }
  }
  out.fill(0);
  for (let w = 0; w < words; w++) {
    let word = state[w]!;
    while (word !== 0) {
      const lowBit = word & -word;
      const r = (w << 5) + 31 - Math.clz32(lowBit);
      const k = notion[r]! * words;
      for (let v = 0; v < words; v++) out[v]! |= need[r * words + v]! & ~notionBits[k + v]!;
      word ^= lowBit;
    }
  }
  // out holds the blocked items; the fringe is the rest of the state.
  for (let w = 0; w < words; w++) out[w] = state[w]! & ~out[w]!;
  return out;
}

const scratch = new WeakMap<BasisModel, Uint32Array>();

/** A per-model scratch buffer (the fringe functions run millions of times; no allocation per call). */
function scratchFor(model: BasisModel, size: number): Uint32Array {
  let buffer = scratch.get(model);
  if (!buffer || buffer.length < size) {
    buffer = new Uint32Array(size);
    scratch.set(model, buffer);
  }
  return buffer;
}

/**
 * Visits every state of the union closure of the basis once, as an item bitset (the array passed is
 * reused between calls: copy it to keep it). Returns the number of states. The visiting order is the
 * walk's, not sorted (callers that need an order sort, as enumerateStates does).
 *
 * Items are decided one at a time in the *decision order* (decisionOrder: items in more basis elements
 * first); a branch keeps the set A of basis elements still usable (those avoiding every item decided
 * out) and M = ∪A, the largest state the branch can still reach. A branch is feasible while every item
 * decided in lies in M; its leaf is then M itself, a union of basis elements. Items outside M are
 * forced out at no cost (the walk jumps to the next undecided item of M), taking an item in never
 * changes A, and leaving it out removes the elements containing it from A. Every feasible branch ends
 * in at least one state and distinct leaves differ on some decided item, so there is one leaf per
 * state and fewer than one binary split per state. M' is rebuilt from a table of unions of 8-element
 * blocks, so a split costs O(m/8 · words) plus the scan for the next item.
 *
 * The decision order matters only for speed: a split whose "out" branch is infeasible costs as much as
 * a split that yields states. Deciding the widely shared (prerequisite-like) items first makes almost
 * every "out" branch feasible: on kstMatrix's cad6 basis (28 items, 34 elements, 787,355 states) the
 * walk in index order tried 5.5 million splits, 4.7 million of them infeasible; in decision order it
 * tries 787,432, 78 of them infeasible. The walk runs on the basis with its items renumbered into that
 * order, so that `visit` sees the original item indices: up to 32 items each leaf is renumbered back
 * by byte tables; above, each level also keeps its taken set in original indices.
 *
 * The walk runs on an explicit stack (its depth can reach the number of items, and 20,000 nested calls
 * overflow Node's stack), and every split is charged to `budget` as it goes (after 256, then in batches of 65,536), so
 * a walk past the budget stops with a BudgetError naming its flag.
 */
export function forEachUnionState(model: BasisModel, visit: (state: Uint32Array) => void, budget: WorkBudget = UNLIMITED, what = 'the union-closure walk'): number {
  return unionWalk(model, visit, budget, what);
}

/** Number of states of the union closure, by the same walk without visiting (see forEachUnionState). */
export function countUnionStates(model: BasisModel, budget: WorkBudget = UNLIMITED, what = 'counting the union closure'): number {
  return unionWalk(model, undefined, budget, what);
}

/** The decision order of the union-closure walk: items by decreasing number of basis elements containing them, ties by index. */
export function decisionOrder(model: BasisModel): Int32Array {
  const { n, words, m, basis } = model;
  const inElements = new Int32Array(n);
  for (let b = 0; b < m; b++) forEachItem(basis, b * words, words, (x) => inElements[x]!++);
  return Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => inElements[b]! - inElements[a]! || a - b);
}

/** The basis renumbered into decision order, and the byte tables that renumber a leaf back. */
interface WalkPlan {
  /** The model with item k = original item order[k]. */
  walked: BasisModel;
  /** For at most 32 items, back[p · 256 + byte]: the original bitset of byte p of a walked bitset; undefined when the order is the identity or above 32 items. */
  back: Uint32Array | undefined;
  /** Walked item k = original item order[k]; undefined when the order is the identity. */
  order: Int32Array | undefined;
}

const plans = new WeakMap<BasisModel, WalkPlan>();

function walkPlan(model: BasisModel): WalkPlan {
  const cached = plans.get(model);
  if (cached) return cached;
  const { n, words, m, basis } = model;
  const order = decisionOrder(model);
  let plan: WalkPlan;
  if (order.every((x, k) => x === k)) plan = { walked: model, back: undefined, order: undefined };
  else {
    const position = new Int32Array(n);
    order.forEach((x, k) => (position[x] = k));
    // The byte tables only for the one-word walk; the word walk keeps original indices per level.
    let back: Uint32Array | undefined;
    if (words === 1) {
      back = new Uint32Array(4 * 256);
      for (let p = 0; p < 4; p++) {
        for (let byte = 1; byte < 256; byte++) {
          for (let i = 0; i < 8; i++) if (8 * p + i < n && (byte & (1 << i)) !== 0) back[p * 256 + byte]! |= 1 << order[8 * p + i]!;
        }
      }
    }
    plan = { walked: renumbered(model, order, position), back, order };
  }
  plans.set(model, plan);
  return plan;
}

/**
 * The model with walked item k = original item order[k] (position is its inverse), built from the
 * model's own arrays: elements renumbered into one packed array, columns permuted, notions renumbered
 * by their smallest walked item. No object per element (a basis can have hundreds of thousands).
 */
function renumbered(model: BasisModel, order: Int32Array, position: Int32Array): BasisModel {
  const { n, words, m, basis, basisWords, column } = model;
  const walkedBasis = new Uint32Array(m * words);
  for (let b = 0; b < m; b++) forEachItem(basis, b * words, words, (x) => (walkedBasis[b * words + (position[x]! >>> 5)]! |= 1 << (position[x]! & 31)));
  const walkedColumn = new Uint32Array(n * basisWords);
  for (let k = 0; k < n; k++) walkedColumn.set(column.subarray(order[k]! * basisWords, (order[k]! + 1) * basisWords), k * basisWords);
  const renumber = new Int32Array(model.notions).fill(-1);
  const notion = new Int32Array(n);
  let notions = 0;
  for (let k = 0; k < n; k++) {
    const original = model.notion[order[k]!]!;
    if (renumber[original] === -1) renumber[original] = notions++;
    notion[k] = renumber[original]!;
  }
  return { n, words, m, basis: walkedBasis, basisWords, column: walkedColumn, notion, notionBits: notionBitsOf(notion, words), notions };
}

/** Splits charged to the budget at once: a call per split would cost more than the split itself. */
const BUDGET_BATCH = 1 << 16;
/**
 * The first charge comes after 256 splits, then every BUDGET_BATCH. Why: V8 optimises a walk's loop
 * while it runs (on-stack replacement) with the type feedback gathered so far, and a call that has
 * never run with feedback deoptimises the optimised loop when it first runs, which then runs
 * unoptimised until it is compiled again (on frac3 each compile took 5–20 ms CPU, in every
 * `kstbench space` process). The charge must run after the function's feedback is allocated (V8
 * allocates it lazily, after some bytecode ran: a charge at the first split recorded nothing) and
 * before the loop is optimised (thousands of splits): with 256, node 20's first walk of frac3 is
 * compiled once (`node --trace-deopt`). Only speed depends on it, never the result.
 */
const FIRST_CHARGE = 256;

/** Charges `splits` steps of the walk to its budget (throws a BudgetError past it). */
type Charge = (splits: number) => void;

/** The walk of forEachUnionState; counts only when `visit` is undefined. */
function unionWalk(model: BasisModel, visit: ((state: Uint32Array) => void) | undefined, budget: WorkBudget, what: string): number {
  const { n, words } = model;
  const charge: Charge = (splits) => spend(budget, splits, what);
  if (n === 0) {
    visit?.(new Uint32Array(words));
    return 1;
  }
  const { walked, back, order } = walkPlan(model);
  if (words === 1) return walkOneWord(walked, visit, back, charge);
  if (words <= 3 && unionTableWords(walked, 3) <= UNION_TABLE_LIMIT) return walkThreeWords(walked, visit, order, charge);
  return walkWords(walked, visit, order, charge);
}

/** Largest union table built (in Uint32 words, 64 MiB); a larger basis ORs its elements' non-zero words instead. */
const UNION_TABLE_LIMIT = 1 << 24;

/**
 * unionTable[(k · 256 + byte) · stride ..] = union of the basis elements 8k + i with bit i set in byte
 * (its `words` words; `stride` ≥ words pads each entry, as the three-word walk wants). Written into
 * `table` (a Uint32Array, or an Int32Array for the walks that keep words in small integers), so that
 * no walk holds a second copy of it: near UNION_TABLE_LIMIT the table is 64 MiB.
 */
function unionTable<T extends Uint32Array | Int32Array>(model: BasisModel, table: T, stride: number = model.words): T {
  const { words, m, basis } = model;
  // Every byte of every word of an available set has its block (the bytes past m are always 0).
  const blocks = model.basisWords * 4;
  if (table.length !== blocks * 256 * stride) throw new RangeError(`unionTable: ${table.length} words for ${blocks * 256} entries of ${stride}`);
  for (let k = 0; k < blocks; k++) {
    for (let byte = 1; byte < 256; byte++) {
      const low = 31 - Math.clz32(byte & -byte);
      const b = 8 * k + low;
      const o = (k * 256 + byte) * stride;
      const prev = (k * 256 + (byte & (byte - 1))) * stride;
      for (let w = 0; w < words; w++) table[o + w] = table[prev + w]! | (b < m ? basis[b * words + w]! : 0);
    }
  }
  return table;
}

/** Words of a union table with entries of `stride` words (see unionTable). */
function unionTableWords(model: BasisModel, stride: number = model.words): number {
  return model.basisWords * 4 * 256 * stride;
}

/**
 * reach = ∪ of the basis elements in `available` (a basis-index bitset at available[a ..]), written to
 * reach[r .. r + words): from the union table of 8-element blocks, or for a basis too large for one
 * (thousands of elements) from each available element's non-zero words.
 */
type ReachFrom = (available: Uint32Array, a: number, reach: Uint32Array, r: number) => void;

function reachFrom(model: BasisModel): ReachFrom {
  const { words, m, basis, basisWords: bw } = model;
  if (unionTableWords(model) <= UNION_TABLE_LIMIT) {
    const table = unionTable(model, new Uint32Array(unionTableWords(model)));
    return (available, a, reach, r) => {
      for (let w = 0; w < words; w++) reach[r + w] = 0;
      for (let j = 0; j < bw; j++) {
        const word = available[a + j]!;
        if (word === 0) continue;
        for (let q = 0; q < 4; q++) {
          const byte = (word >>> (8 * q)) & 255;
          if (byte === 0) continue;
          const o = (((j << 2) + q) * 256 + byte) * words;
          for (let w = 0; w < words; w++) reach[r + w]! |= table[o + w]!;
        }
      }
    };
  }
  // Sparse rows: element b's non-zero words are wordAt/valueAt[start[b] .. start[b + 1]).
  const start = new Int32Array(m + 1);
  const wordAt: number[] = [];
  const valueAt: number[] = [];
  for (let b = 0; b < m; b++) {
    for (let w = 0; w < words; w++) {
      if (basis[b * words + w] === 0) continue;
      wordAt.push(w);
      valueAt.push(basis[b * words + w]!);
    }
    start[b + 1] = wordAt.length;
  }
  const wordOf = Int32Array.from(wordAt);
  const valueOf = Uint32Array.from(valueAt);
  return (available, a, reach, r) => {
    for (let w = 0; w < words; w++) reach[r + w] = 0;
    for (let j = 0; j < bw; j++) {
      let word = available[a + j]!;
      while (word !== 0) {
        const lowBit = word & -word;
        const b = (j << 5) + 31 - Math.clz32(lowBit);
        for (let k = start[b]!; k < start[b + 1]!; k++) reach[r + wordOf[k]!]! |= valueOf[k]!;
        word ^= lowBit;
      }
    }
  };
}

/** The model's notion bitsets with walked item k written as original item order[k]. */
function notionsInOriginal(model: BasisModel, order: Int32Array): Uint32Array {
  const { words, notions, notionBits } = model;
  const out = new Uint32Array(notions * words);
  for (let k = 0; k < notions; k++) forEachItem(notionBits, k * words, words, (x) => (out[k * words + (order[x]! >>> 5)]! |= 1 << (order[x]! & 31)));
  return out;
}

/** Per-level arrays of walkWords, grown by doubling as the walk goes deeper (its depth is at most n + 1). */
interface Levels {
  capacity: number;
  available: Uint32Array;
  reach: Uint32Array;
  taken: Uint32Array;
  original: Uint32Array | undefined;
}

function growLevels(levels: Levels, capacity: number, bw: number, words: number): void {
  const grown = (old: Uint32Array, width: number): Uint32Array => {
    const next = new Uint32Array(capacity * width);
    next.set(old);
    return next;
  };
  levels.available = grown(levels.available, bw);
  levels.reach = grown(levels.reach, words);
  levels.taken = grown(levels.taken, words);
  if (levels.original) levels.original = grown(levels.original, words);
  levels.capacity = capacity;
}

/**
 * The walk for any number of items (see forEachUnionState), on an explicit stack: level d holds
 * (available, reach, taken) and itemAt[d], the item whose "out" branch is being walked at level d + 1;
 * when that branch is done, level d takes the item in and goes on. With `order` (walked item k =
 * original item order[k]) each level also keeps the taken set in original indices, so a leaf is
 * visited as it is, not renumbered.
 */
function walkWords(model: BasisModel, visit: ((state: Uint32Array) => void) | undefined, order: Int32Array | undefined, charge: Charge): number {
  const { n, words, m, basis, basisWords: bw, column } = model;
  const fill = reachFrom(model);
  const capacity = Math.min(n + 2, 64);
  const levels: Levels = {
    capacity,
    available: new Uint32Array(capacity * bw),
    reach: new Uint32Array(capacity * words),
    taken: new Uint32Array(capacity * words),
    original: visit && order ? new Uint32Array(capacity * words) : undefined,
  };
  let { available, reach, taken, original } = levels;
  const itemAt = new Int32Array(n + 2);
  for (let b = 0; b < m; b++) available[b >>> 5]! |= 1 << (b & 31);
  for (let b = 0; b < m; b++) for (let w = 0; w < words; w++) reach[w]! |= basis[b * words + w]!;
  // Taking x in takes its whole notion: every state with x has its equivalent items, and splitting on
  // them one by one would only add infeasible "out" branches (frac1: 93,404 of 505,841 splits).
  const { notion, notionBits } = model;
  const originalNotion = original ? notionsInOriginal(model, order!) : undefined;
  const takeNotion = (x: number, r: number): void => {
    const k = notion[x]! * words;
    for (let w = 0; w < words; w++) taken[r + w]! |= notionBits[k + w]!;
    if (original) for (let w = 0; w < words; w++) original[r + w]! |= originalNotion![k + w]!;
  };
  const leaf = new Uint32Array(words);
  let count = 0;
  let splits = 0;
  let chargeAt = FIRST_CHARGE;
  let d = 0;
  let from = 0;
  for (;;) {
    const r = d * words;
    // Next undecided item of reach at or after `from`.
    let x = -1;
    for (let w = from >>> 5; w < words; w++) {
      let word = reach[r + w]! & ~taken[r + w]!;
      if (w === from >>> 5) word &= ~((1 << (from & 31)) - 1) | 0;
      if (word !== 0) {
        x = (w << 5) + 31 - Math.clz32(word & -word);
        break;
      }
    }
    if (x < 0) {
      count++;
      if (visit) {
        const state = original ?? taken;
        for (let w = 0; w < words; w++) leaf[w] = state[r + w]!;
        visit(leaf);
      }
      if (d === 0) break;
      // Back to the level that split: its item goes in, and that level goes on after it.
      d--;
      x = itemAt[d]!;
      takeNotion(x, d * words);
      from = x + 1;
      continue;
    }
    if (++splits === chargeAt) {
      charge(splits);
      splits = 0;
      chargeAt = BUDGET_BATCH;
    }
    if (d + 1 === levels.capacity) {
      growLevels(levels, Math.min(n + 2, levels.capacity * 2), bw, words);
      ({ available, reach, taken, original } = levels);
    }
    // Branch "x out" at level d + 1: A' = A \ column[x], M' = ∪A'; feasible iff taken ⊆ M'.
    const a = d * bw;
    const a1 = a + bw;
    const r1 = r + words;
    for (let j = 0; j < bw; j++) available[a1 + j] = available[a + j]! & ~column[x * bw + j]!;
    fill(available, a1, reach, r1);
    let feasible = true;
    for (let w = 0; w < words; w++) {
      if ((taken[r + w]! & ~reach[r1 + w]!) !== 0) {
        feasible = false;
        break;
      }
    }
    if (feasible) {
      for (let w = 0; w < words; w++) taken[r1 + w] = taken[r + w]!;
      if (original) for (let w = 0; w < words; w++) original[r1 + w] = original[r + w]!;
      itemAt[d] = x;
      d++;
    } else {
      // Branch "x in" continues at this level.
      takeNotion(x, r);
    }
    from = x + 1;
  }
  charge(splits);
  return count;
}

/** The tables of walkThreeWords, every bitset padded to three words (Int32, so that no value is a heap number). */
interface ThreeWordTables {
  /** table[((k · 256 + byte) · 3 ..]: union of the basis elements 8k + i with bit i set in byte (unionTable, three words). */
  table: Int32Array;
  /** column[x · basisWords ..]: the basis elements containing walked item x. */
  column: Int32Array;
  /** notion[x · 3 ..]: x's notion in walked indices; original[x · 3 ..]: the same notion in original indices. */
  notion: Int32Array;
  original: Int32Array;
  /** All items of the basis (the reach of the root). */
  all: Int32Array;
}

function threeWordTables(model: BasisModel, order: Int32Array | undefined): ThreeWordTables {
  const { n, words, m, basis, notionBits } = model;
  const table = unionTable(model, new Int32Array(unionTableWords(model, 3)), 3);
  const notionOriginal = order ? notionsInOriginal(model, order) : notionBits;
  const notion = new Int32Array(n * 3);
  const original = new Int32Array(n * 3);
  for (let x = 0; x < n; x++) {
    const k = model.notion[x]! * words;
    for (let w = 0; w < words; w++) {
      notion[x * 3 + w] = notionBits[k + w]!;
      original[x * 3 + w] = notionOriginal[k + w]!;
    }
  }
  const all = new Int32Array(3);
  for (let b = 0; b < m; b++) for (let w = 0; w < words; w++) all[w]! |= basis[b * words + w]!;
  return { table, column: Int32Array.from(model.column), notion, original, all };
}

/**
 * The walk for 33–96 items (see walkWords), with the three words of reach, taken set and taken set in
 * original indices held in local integers, and the union of the available elements read from the
 * block table straight into them: no call, no array write per split but the available set's. Level d
 * keeps the nine words it returns to in saved[9d ..]. The three words' undecided items are computed
 * on every step and the lowest picked by one expression: an operation met only once the walk reaches
 * the third word would deoptimise the loop V8 optimised before (see FIRST_CHARGE).
 */
function walkThreeWords(model: BasisModel, visit: ((state: Uint32Array) => void) | undefined, order: Int32Array | undefined, charge: Charge): number {
  const { n, words, m, basisWords: bw } = model;
  const { table, column, notion, original, all } = threeWordTables(model, order);
  const available = new Int32Array((n + 2) * bw);
  const saved = new Int32Array((n + 2) * 9);
  const itemAt = new Int32Array(n + 2);
  for (let b = 0; b < m; b++) available[b >>> 5]! |= 1 << (b & 31);
  const leaf = new Uint32Array(words);
  // Reach, taken set and taken set in original indices, three words each.
  let r0 = all[0]!, r1 = all[1]!, r2 = all[2]!, t0 = 0, t1 = 0, t2 = 0, o0 = 0, o1 = 0, o2 = 0;
  let count = 0;
  let splits = 0;
  let chargeAt = FIRST_CHARGE;
  let d = 0;
  for (;;) {
    // Next undecided item of reach: the lowest, as every item of reach below the last split item is
    // taken (an "out" branch drops that item from reach, an "in" branch takes it). All three words.
    const f0 = r0 & ~t0, f1 = r1 & ~t1, f2 = r2 & ~t2;
    const f = f0 !== 0 ? f0 : f1 !== 0 ? f1 : f2;
    let x = (f0 !== 0 ? 31 : f1 !== 0 ? 63 : 95) - Math.clz32(f & -f);
    if (f === 0) {
      count++;
      if (visit) {
        leaf[0] = o0;
        leaf[1] = o1;
        if (words === 3) leaf[2] = o2;
        visit(leaf);
      }
      if (d === 0) break;
      // Back to the level that split: its item goes in (below), and that level goes on after it.
      d--;
      x = itemAt[d]!;
      const s = d * 9;
      r0 = saved[s]!; r1 = saved[s + 1]!; r2 = saved[s + 2]!;
      t0 = saved[s + 3]!; t1 = saved[s + 4]!; t2 = saved[s + 5]!;
      o0 = saved[s + 6]!; o1 = saved[s + 7]!; o2 = saved[s + 8]!;
    } else {
      if (++splits === chargeAt) {
        charge(splits);
        splits = 0;
        chargeAt = BUDGET_BATCH;
      }
      // Branch "x out": A' = A \ column[x], M' = ∪A' from the block table; feasible iff taken ⊆ M'.
      const a = d * bw;
      const a1 = a + bw;
      let q0 = 0, q1 = 0, q2 = 0;
      for (let j = 0; j < bw; j++) {
        const word = (available[a1 + j] = available[a + j]! & ~column[x * bw + j]!);
        if (word === 0) continue;
        // The four bytes of the word: blocks 4j … 4j + 3, 256 entries of three words each.
        let e = j * 3072 + (word & 255) * 3;
        q0 |= table[e]!; q1 |= table[e + 1]!; q2 |= table[e + 2]!;
        e = j * 3072 + 768 + ((word >>> 8) & 255) * 3;
        q0 |= table[e]!; q1 |= table[e + 1]!; q2 |= table[e + 2]!;
        e = j * 3072 + 1536 + ((word >>> 16) & 255) * 3;
        q0 |= table[e]!; q1 |= table[e + 1]!; q2 |= table[e + 2]!;
        e = j * 3072 + 2304 + (word >>> 24) * 3;
        q0 |= table[e]!; q1 |= table[e + 1]!; q2 |= table[e + 2]!;
      }
      if (((t0 & ~q0) | (t1 & ~q1) | (t2 & ~q2)) === 0) {
        const s = d * 9;
        saved[s] = r0; saved[s + 1] = r1; saved[s + 2] = r2;
        saved[s + 3] = t0; saved[s + 4] = t1; saved[s + 5] = t2;
        saved[s + 6] = o0; saved[s + 7] = o1; saved[s + 8] = o2;
        itemAt[d] = x;
        d++;
        r0 = q0; r1 = q1; r2 = q2;
        continue;
      }
    }
    // x goes in with its whole notion (see walkWords): back at the level that split on it, or here
    // when its "out" branch is infeasible. One code path for both, so that the rare infeasible
    // branch does not deoptimise the loop V8 optimised before it first ran (see FIRST_CHARGE).
    t0 |= notion[x * 3]!; t1 |= notion[x * 3 + 1]!; t2 |= notion[x * 3 + 2]!;
    o0 |= original[x * 3]!; o1 |= original[x * 3 + 1]!; o2 |= original[x * 3 + 2]!;
  }
  charge(splits);
  return count;
}

/**
 * The same walk for at most 32 items, on an explicit stack: reach and taken are plain integers, and
 * level d keeps the reach, taken set and split item it returns to (see walkWords).
 */
function walkOneWord(model: BasisModel, visit: ((state: Uint32Array) => void) | undefined, back: Uint32Array | undefined, charge: Charge): number {
  const { n, m, basis, basisWords: bw, column } = model;
  const toOriginal = back ? Int32Array.from(back) : undefined;
  const table = unionTable(model, new Int32Array(unionTableWords(model)));
  const available = new Int32Array((n + 2) * bw);
  const reachAt = new Int32Array(n + 2);
  const takenAt = new Int32Array(n + 2);
  const itemAt = new Int32Array(n + 2);
  const notionOf = Int32Array.from({ length: n }, (_, x) => model.notionBits[model.notion[x]!]!);
  for (let b = 0; b < m; b++) available[b >>> 5]! |= 1 << (b & 31);
  let reach = 0;
  for (let b = 0; b < m; b++) reach |= basis[b]!;
  const leaf = new Uint32Array(1);
  let count = 0;
  let splits = 0;
  let chargeAt = FIRST_CHARGE;
  let d = 0;
  let a = 0;
  let from = 0;
  let taken = 0;
  for (;;) {
    const free = from >= 32 ? 0 : reach & ~taken & ~((1 << from) - 1);
    let x: number;
    if (free === 0) {
      count++;
      if (visit) {
        leaf[0] = toOriginal
          ? toOriginal[taken & 255]! | toOriginal[256 + ((taken >>> 8) & 255)]! | toOriginal[512 + ((taken >>> 16) & 255)]! | toOriginal[768 + (taken >>> 24)]!
          : taken;
        visit(leaf);
      }
      if (d === 0) break;
      // Back to the level that split: its item goes in (below), and that level goes on after it.
      d--;
      a -= bw;
      x = itemAt[d]!;
      reach = reachAt[d]!;
      taken = takenAt[d]!;
    } else {
      x = 31 - Math.clz32(free & -free);
      if (++splits === chargeAt) {
        charge(splits);
        splits = 0;
        chargeAt = BUDGET_BATCH;
      }
      // Branch "x out": A' = A \ column[x], M' = ∪A' from the block tables; feasible iff taken ⊆ M'.
      const a1 = a + bw;
      let reach1 = 0;
      for (let j = 0; j < bw; j++) {
        const word = (available[a1 + j] = available[a + j]! & ~column[x * bw + j]!);
        if (word === 0) continue;
        const o = j << 10;
        reach1 |= table[o + (word & 255)]! | table[o + 256 + ((word >>> 8) & 255)]! | table[o + 512 + ((word >>> 16) & 255)]! | table[o + 768 + (word >>> 24)]!;
      }
      if ((taken & ~reach1) === 0) {
        reachAt[d] = reach;
        takenAt[d] = taken;
        itemAt[d] = x;
        d++;
        a = a1;
        reach = reach1;
        from = x + 1;
        continue;
      }
    }
    // x goes in with its whole notion (see walkWords): back at the level that split on it, or here
    // when its "out" branch is infeasible; one code path for both (see walkThreeWords).
    taken |= notionOf[x]!;
    from = x + 1;
  }
  charge(splits);
  return count;
}

/**
 * Atom classification of basis element b for item x, the kstIO basis-file code: 1 when b is an atom
 * at x (contains x and no other basis element containing x lies inside it), 2 when it contains x
 * without being minimal for it, 0 when it does not contain x.
 */
export function atomCodes(model: BasisModel): Uint8Array[] {
  const { n, words, m, basis } = model;
  const rows: Uint8Array[] = [];
  const below = new Uint32Array(words);
  for (let b = 0; b < m; b++) {
    unionBelow(model, b, below);
    const row = new Uint8Array(n);
    for (let x = 0; x < n; x++) {
      const bit = 1 << (x & 31);
      if ((basis[b * words + (x >>> 5)]! & bit) !== 0) row[x] = (below[x >>> 5]! & bit) !== 0 ? 2 : 1;
    }
    rows.push(row);
  }
  return rows;
}

/**
 * Writes into `below` the union of the other basis elements inside element b: b is an atom exactly at
 * its items outside it (an item of some c ⊊ b has c inside b). One subset test per pair (m · words).
 */
function unionBelow(model: BasisModel, b: number, below: Uint32Array): void {
  const { words, m, basis } = model;
  below.fill(0);
  for (let c = 0; c < m; c++) {
    if (c === b) continue;
    let inside = true;
    for (let w = 0; w < words && inside; w++) if ((basis[c * words + w]! & ~basis[b * words + w]!) !== 0) inside = false;
    if (inside) for (let w = 0; w < words; w++) below[w]! |= basis[c * words + w]!;
  }
}

/** For each item, the basis elements that are atoms at it (its routes), by basis index. */
export function atomsByItem(model: BasisModel): number[][] {
  const { n, words, m, basis } = model;
  const out: number[][] = Array.from({ length: n }, () => []);
  const below = new Uint32Array(words);
  // Straight from the bitsets (no row of codes per element): loading a domain file asks this three times.
  for (let b = 0; b < m; b++) {
    unionBelow(model, b, below);
    for (let w = 0; w < words; w++) {
      for (let atoms = basis[b * words + w]! & ~below[w]!; atoms !== 0; atoms &= atoms - 1) out[w * 32 + 31 - Math.clz32(atoms & -atoms)]!.push(b);
    }
  }
  return out;
}
