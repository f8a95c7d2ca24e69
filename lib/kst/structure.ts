import { InputError, visible } from '../errors';
import { emptyBits, orInto, setBit, wordsFor } from './bitset';
import { basisModel, type BasisModel } from './basis';
import { basisBitsOf, type Domain } from './domain';

/**
 * A domain compiled to integer form for fast repeated queries: component indices are canonical
 * (file order), direct prerequisite/successor lists are Int32Arrays, and the transitive closure is
 * one bitset row per component. Build it once with `compileStructure(domain)` and reuse it for
 * hundreds of thousands of fringe or state checks.
 */
export interface CompiledStructure {
  readonly domain: Domain;
  /** Number of components. */
  readonly n: number;
  /** Uint32 words per bitset. */
  readonly words: number;
  readonly ids: readonly string[];
  /** directPrerequisites[q] = canonical indices p with [p, q] in the domain file. */
  readonly directPrerequisites: readonly Int32Array[];
  /** directSuccessors[p] = canonical indices q with [p, q] in the domain file. */
  readonly directSuccessors: readonly Int32Array[];
  /**
   * The same lists in compressed-sparse-row form for tight loops: the direct prerequisites of q are
   * prerequisiteList[prerequisiteStart[q] .. prerequisiteStart[q + 1] − 1] (directPrerequisites[q] is a
   * view of exactly that slice); likewise for successors.
   */
  readonly prerequisiteStart: Int32Array;
  readonly prerequisiteList: Int32Array;
  readonly successorStart: Int32Array;
  readonly successorList: Int32Array;
  /** prerequisiteBits[q] = every p with p ≺ q (strict transitive closure), as a bitset. */
  readonly prerequisiteBits: readonly Uint32Array[];
  /**
   * A topological order of canonical indices: Kahn's algorithm always taking the smallest available
   * canonical index, so it equals 0, 1, …, n−1 whenever the file order already respects prerequisites.
   */
  readonly topologicalOrder: Int32Array;
  /**
   * The basis model, present exactly when the domain is not quasi-ordinal: then states, fringes,
   * counts and samples come from the basis (lib/kst/basis.ts) and the prerequisite lists above hold
   * only the necessary pairs. Absent for quasi-ordinal domains, which keep the prerequisite paths.
   */
  readonly basis?: BasisModel;
}

const cache = new WeakMap<Domain, CompiledStructure>();

/** Compiles (and caches per Domain object) the integer form of a domain. O(n + e·n/32). */
export function compileStructure(domain: Domain): CompiledStructure {
  const cached = cache.get(domain);
  if (cached) return cached;
  const n = domain.ids.length;
  const pre: number[][] = Array.from({ length: n }, () => []);
  const suc: number[][] = Array.from({ length: n }, () => []);
  for (const [p, q] of domain.prerequisites) {
    const pi = domain.index.get(p)!;
    const qi = domain.index.get(q)!;
    pre[qi]!.push(pi);
    suc[pi]!.push(qi);
  }
  const [prerequisiteStart, prerequisiteList, directPrerequisites] = compressedRows(pre);
  const [successorStart, successorList, directSuccessors] = compressedRows(suc);
  const topologicalOrder = smallestFirstTopologicalOrder(n, directPrerequisites, directSuccessors);
  const prerequisiteBits: Uint32Array[] = new Array(n);
  for (const q of topologicalOrder) {
    const row = emptyBits(n);
    for (const p of directPrerequisites[q]!) {
      orInto(row, prerequisiteBits[p]!);
      setBit(row, p);
    }
    prerequisiteBits[q] = row;
  }
  const compiled: CompiledStructure = {
    domain,
    n,
    words: wordsFor(n),
    ids: domain.ids,
    directPrerequisites,
    directSuccessors,
    prerequisiteStart,
    prerequisiteList,
    successorStart,
    successorList,
    prerequisiteBits,
    topologicalOrder,
  };
  if (!domain.quasiOrdinal) {
    const bits = basisBitsOf.get(domain);
    if (!bits) throw new Error(`compileStructure: domain ${domain.id} is not quasi-ordinal but has no basis`);
    (compiled as { basis?: BasisModel }).basis = basisModel(n, bits);
  }
  cache.set(domain, compiled);
  return compiled;
}

/** Sorted adjacency lists packed into (start offsets, flat list, per-row views of the flat list). */
function compressedRows(rows: number[][]): [Int32Array, Int32Array, Int32Array[]] {
  const start = new Int32Array(rows.length + 1);
  rows.forEach((row, i) => (start[i + 1] = start[i]! + row.length));
  const list = new Int32Array(start[rows.length]!);
  rows.forEach((row, i) => list.set(row.sort((a, b) => a - b), start[i]!));
  return [start, list, rows.map((_, i) => list.subarray(start[i]!, start[i + 1]!))];
}

/** Kahn's algorithm with a binary min-heap on canonical index (deterministic, O((n + e) log n)). */
function smallestFirstTopologicalOrder(
  n: number,
  pre: readonly Int32Array[],
  suc: readonly Int32Array[],
): Int32Array {
  const indegree = Int32Array.from(pre, (list) => list.length);
  const heap: number[] = [];
  const push = (v: number): void => {
    let i = heap.push(v) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent]! <= v) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = v;
  };
  const pop = (): number => {
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= heap.length) break;
        const c = l + 1 < heap.length && heap[l + 1]! < heap[l]! ? l + 1 : l;
        if (heap[c]! >= last) break;
        heap[i] = heap[c]!;
        i = c;
      }
      heap[i] = last;
    }
    return top;
  };
  for (let v = 0; v < n; v++) if (indegree[v] === 0) push(v);
  const order = new Int32Array(n);
  let k = 0;
  while (heap.length > 0) {
    const v = pop();
    order[k++] = v;
    for (const s of suc[v]!) if (--indegree[s]! === 0) push(s);
  }
  if (k !== n) throw new Error('compileStructure: prerequisite relation is cyclic; parseDomain should have rejected it');
  return order;
}

/** Where a state or ID list comes from, for error messages (`file` or `domain <id>`). */
export function domainLabel(domain: Domain): string {
  return domain.file ?? `domain ${domain.id}`;
}

/**
 * Converts component IDs to a canonical bitset. Duplicated IDs are harmless (set semantics).
 * Throws InputError listing every unknown ID.
 */
export function idsToBits(s: CompiledStructure, ids: readonly string[]): Uint32Array {
  const bits = emptyBits(s.n);
  const unknown = unknownIds(s.domain, ids);
  if (unknown.length > 0) {
    throw new InputError(`${domainLabel(s.domain)}: unknown component ID(s) ${unknown.map(visible).join(', ')}`, {
      file: s.domain.file,
      item: unknown[0],
    });
  }
  for (const id of ids) setBit(bits, s.domain.index.get(id)!);
  return bits;
}

/** IDs not in the domain, deduplicated, in order of appearance. */
export function unknownIds(domain: Domain, ids: readonly string[]): string[] {
  const unknown: string[] = [];
  for (const id of ids) if (!domain.index.has(id) && !unknown.includes(id)) unknown.push(id);
  return unknown;
}

/** Canonical-order IDs of the set bits. */
export function bitsToIds(s: CompiledStructure, bits: Uint32Array): string[] {
  const out: string[] = [];
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w]!;
    while (word !== 0) {
      const low = word & -word;
      out.push(s.ids[(w << 5) + 31 - Math.clz32(low)]!);
      word ^= low;
    }
  }
  return out;
}
