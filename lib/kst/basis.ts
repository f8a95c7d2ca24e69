import { emptyBits, wordsFor } from './bitset';

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
  for (let b = 0; b < m; b++) {
    for (let x = 0; x < n; x++) {
      if ((basis[b * words + (x >>> 5)]! & (1 << (x & 31))) !== 0) column[x * basisWords + (b >>> 5)]! |= 1 << (b & 31);
    }
  }
  // Items with identical columns form one notion.
  const notion = new Int32Array(n).fill(-1);
  const notionList: number[][] = [];
  const byColumn = new Map<string, number>();
  for (let x = 0; x < n; x++) {
    const key = Array.from(column.subarray(x * basisWords, (x + 1) * basisWords)).join(',');
    let k = byColumn.get(key);
    if (k === undefined) {
      k = notionList.length;
      byColumn.set(key, k);
      notionList.push([]);
    }
    notion[x] = k;
    notionList[k]!.push(x);
  }
  const notionBits = new Uint32Array(notionList.length * words);
  notionList.forEach((items, k) => {
    for (const x of items) notionBits[k * words + (x >>> 5)]! |= 1 << (x & 31);
  });
  return { n, words, m, basis, basisWords, column, notion, notionBits, notions: notionList.length };
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
 */
export function forEachUnionState(model: BasisModel, visit: (state: Uint32Array) => void): number {
  return unionWalk(model, visit);
}

/** Number of states of the union closure, by the same walk without visiting (see forEachUnionState). */
export function countUnionStates(model: BasisModel): number {
  return unionWalk(model, undefined);
}

/** The decision order of the union-closure walk: items by decreasing number of basis elements containing them, ties by index. */
export function decisionOrder(model: BasisModel): Int32Array {
  const { n, words, m, basis } = model;
  const inElements = new Int32Array(n);
  for (let b = 0; b < m; b++) {
    for (let x = 0; x < n; x++) if ((basis[b * words + (x >>> 5)]! & (1 << (x & 31))) !== 0) inElements[x]!++;
  }
  return Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => inElements[b]! - inElements[a]! || a - b);
}

/** The basis renumbered into decision order, and the byte tables that renumber a leaf back. */
interface WalkPlan {
  /** The model with item k = original item order[k]. */
  walked: BasisModel;
  /** back[(p · 256 + byte) · words + w]: word w of the original bitset of byte p of a walked bitset; undefined when the order is the identity. */
  back: Uint32Array | undefined;
}

const plans = new WeakMap<BasisModel, WalkPlan>();

function walkPlan(model: BasisModel): WalkPlan {
  const cached = plans.get(model);
  if (cached) return cached;
  const { n, words, m, basis } = model;
  const order = decisionOrder(model);
  let plan: WalkPlan;
  if (order.every((x, k) => x === k)) plan = { walked: model, back: undefined };
  else {
    const elements: Uint32Array[] = [];
    for (let b = 0; b < m; b++) {
      const bits = new Uint32Array(words);
      for (let k = 0; k < n; k++) {
        const x = order[k]!;
        if ((basis[b * words + (x >>> 5)]! & (1 << (x & 31))) !== 0) bits[k >>> 5]! |= 1 << (k & 31);
      }
      elements.push(bits);
    }
    const bytes = words * 4;
    const back = new Uint32Array(bytes * 256 * words);
    for (let p = 0; p < bytes; p++) {
      for (let byte = 1; byte < 256; byte++) {
        const o = (p * 256 + byte) * words;
        for (let i = 0; i < 8; i++) {
          const k = 8 * p + i;
          if (k >= n || (byte & (1 << i)) === 0) continue;
          const x = order[k]!;
          back[o + (x >>> 5)]! |= 1 << (x & 31);
        }
      }
    }
    plan = { walked: basisModel(n, elements), back };
  }
  plans.set(model, plan);
  return plan;
}

/** The walk of forEachUnionState; counts only when `visit` is undefined. */
function unionWalk(model: BasisModel, visit: ((state: Uint32Array) => void) | undefined): number {
  const { n, words } = model;
  if (n === 0) {
    visit?.(new Uint32Array(words));
    return 1;
  }
  const { walked, back } = walkPlan(model);
  if (words === 1) return walkOneWord(walked, visit, back);
  return walkWords(walked, visit, back ? decisionOrder(model) : undefined);
}

/** unionTable[(k · 256 + byte) · words ..] = union of the basis elements 8k + i with bit i set in byte. */
function unionTable(model: BasisModel): Uint32Array {
  const { words, m, basis } = model;
  // Every byte of every word of an available set has its block (the bytes past m are always 0).
  const blocks = model.basisWords * 4;
  const table = new Uint32Array(blocks * 256 * words);
  for (let k = 0; k < blocks; k++) {
    for (let byte = 1; byte < 256; byte++) {
      const low = 31 - Math.clz32(byte & -byte);
      const b = 8 * k + low;
      const o = (k * 256 + byte) * words;
      const prev = (k * 256 + (byte & (byte - 1))) * words;
      for (let w = 0; w < words; w++) table[o + w] = table[prev + w]! | (b < m ? basis[b * words + w]! : 0);
    }
  }
  return table;
}

/**
 * The walk for any number of items (see forEachUnionState). With `order` (walked item k = original
 * item order[k]) each level also keeps the taken set in original indices, so a leaf is visited as it
 * is, not renumbered.
 */
function walkWords(model: BasisModel, visit: ((state: Uint32Array) => void) | undefined, order: Int32Array | undefined): number {
  const { n, words, m, basis, basisWords: bw, column } = model;
  const depthMax = n + 2;
  const table = unionTable(model);
  const available = new Uint32Array(depthMax * bw);
  const reach = new Uint32Array(depthMax * words);
  const taken = new Uint32Array(depthMax * words);
  const original = visit && order ? new Uint32Array(depthMax * words) : undefined;
  for (let b = 0; b < m; b++) available[b >>> 5]! |= 1 << (b & 31);
  for (let b = 0; b < m; b++) for (let w = 0; w < words; w++) reach[w]! |= basis[b * words + w]!;
  let count = 0;
  const leaf = new Uint32Array(words);
  // walk(d, from): level d holds (available, reach, taken); items < from are decided.
  const walk = (d: number, from: number): void => {
    const a = d * bw;
    const r = d * words;
    for (;;) {
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
          const from = original ?? taken;
          for (let w = 0; w < words; w++) leaf[w] = from[r + w]!;
          visit(leaf);
        }
        return;
      }
      // Branch "x out" at level d + 1: A' = A \ column[x], M' = ∪A'; feasible iff taken ⊆ M'.
      const a1 = (d + 1) * bw;
      const r1 = (d + 1) * words;
      for (let j = 0; j < bw; j++) available[a1 + j] = available[a + j]! & ~column[x * bw + j]!;
      for (let w = 0; w < words; w++) reach[r1 + w] = 0;
      for (let j = 0; j < bw; j++) {
        const word = available[a1 + j]!;
        if (word === 0) continue;
        for (let q = 0; q < 4; q++) {
          const byte = (word >>> (8 * q)) & 255;
          if (byte === 0) continue;
          const o = (((j << 2) + q) * 256 + byte) * words;
          for (let w = 0; w < words; w++) reach[r1 + w]! |= table[o + w]!;
        }
      }
      let feasible = true;
      for (let w = 0; w < words; w++) {
        taken[r1 + w] = taken[r + w]!;
        if ((taken[r + w]! & ~reach[r1 + w]!) !== 0) feasible = false;
      }
      if (original) for (let w = 0; w < words; w++) original[r1 + w] = original[r + w]!;
      if (feasible) walk(d + 1, x + 1);
      // Branch "x in" continues at this level.
      taken[r + (x >>> 5)]! |= 1 << (x & 31);
      if (original) original[r + (order![x]! >>> 5)]! |= 1 << (order![x]! & 31);
      from = x + 1;
    }
  };
  walk(0, 0);
  return count;
}

/** The same walk for at most 32 items: reach and taken are plain integers (see forEachUnionState). */
function walkOneWord(model: BasisModel, visit: ((state: Uint32Array) => void) | undefined, back: Uint32Array | undefined): number {
  const { n, m, basis, basisWords: bw, column } = model;
  const toOriginal = back ? Int32Array.from(back) : undefined;
  const table = Int32Array.from(unionTable(model));
  const available = new Int32Array((n + 2) * bw);
  for (let b = 0; b < m; b++) available[b >>> 5]! |= 1 << (b & 31);
  let reach0 = 0;
  for (let b = 0; b < m; b++) reach0 |= basis[b]!;
  let count = 0;
  const leaf = new Uint32Array(1);
  const walk = (a: number, from: number, reach: number, taken: number): void => {
    for (;;) {
      const free = from >= 32 ? 0 : reach & ~taken & ~((1 << from) - 1);
      if (free === 0) {
        count++;
        if (visit) {
          leaf[0] = toOriginal
            ? toOriginal[taken & 255]! | toOriginal[256 + ((taken >>> 8) & 255)]! | toOriginal[512 + ((taken >>> 16) & 255)]! | toOriginal[768 + (taken >>> 24)]!
            : taken;
          visit(leaf);
        }
        return;
      }
      const x = 31 - Math.clz32(free & -free);
      // Branch "x out": A' = A \ column[x], M' = ∪A' from the block tables; feasible iff taken ⊆ M'.
      const a1 = a + bw;
      let reach1 = 0;
      for (let j = 0; j < bw; j++) {
        const word = (available[a1 + j] = available[a + j]! & ~column[x * bw + j]!);
        if (word === 0) continue;
        const o = j << 10;
        reach1 |= table[o + (word & 255)]! | table[o + 256 + ((word >>> 8) & 255)]! | table[o + 512 + ((word >>> 16) & 255)]! | table[o + 768 + (word >>> 24)]!;
      }
      if ((taken & ~reach1) === 0) walk(a1, x + 1, reach1, taken);
      // Branch "x in" continues at this level.
      taken |= 1 << x;
      from = x + 1;
    }
  };
  walk(0, 0, reach0, 0);
  return count;
}

/**
 * Atom classification of basis element b for item x, the kstIO basis-file code: 1 when b is an atom
 * at x (contains x and no other basis element containing x lies inside it), 2 when it contains x
 * without being minimal for it, 0 when it does not contain x.
 */
export function atomCodes(model: BasisModel): Uint8Array[] {
  const { n, words, m, basis } = model;
  // b is an atom at x unless some other element c ∋ x lies inside b: every item of every c ⊊ b is 2.
  // One subset test per pair (m² · words), not one per pair and item.
  const rows: Uint8Array[] = [];
  const below = new Uint32Array(words);
  for (let b = 0; b < m; b++) {
    below.fill(0);
    for (let c = 0; c < m; c++) {
      if (c === b) continue;
      let inside = true;
      for (let w = 0; w < words && inside; w++) if ((basis[c * words + w]! & ~basis[b * words + w]!) !== 0) inside = false;
      if (inside) for (let w = 0; w < words; w++) below[w]! |= basis[c * words + w]!;
    }
    const row = new Uint8Array(n);
    for (let x = 0; x < n; x++) {
      const bit = 1 << (x & 31);
      if ((basis[b * words + (x >>> 5)]! & bit) !== 0) row[x] = (below[x >>> 5]! & bit) !== 0 ? 2 : 1;
    }
    rows.push(row);
  }
  return rows;
}

/** For each item, the basis elements that are atoms at it (its routes), by basis index. */
export function atomsByItem(model: BasisModel): number[][] {
  const codes = atomCodes(model);
  const out: number[][] = Array.from({ length: model.n }, () => []);
  codes.forEach((row, b) => row.forEach((code, x) => code === 1 && out[x]!.push(b)));
  return out;
}
