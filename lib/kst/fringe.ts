import { InputError, visible } from '../errors';
import { innerFringeFromBasis, isStateFromBasis, outerFringeFromBasis } from './basis';
import { emptyBits, hasBit } from './bitset';
import type { Domain } from './domain';
import { bitsToIds, compileStructure, domainLabel, unknownIds, type CompiledStructure } from './structure';

/**
 * Fringes straight from the prerequisites, never enumerating the space, so they scale to DAGs with
 * thousands of tasks (O(n + e) per call). For a state K of a space induced by a partial order:
 *
 *   outer fringe K^O = {q ∉ K : every direct prerequisite of q is in K}   (K ∪ {q} is a state)
 *   inner fringe K^I = {q ∈ K : no direct successor of q is in K}         (K \ {q} is a state)
 *
 * Direct pairs suffice because K is already closed under the transitive closure.
 */

/** Result of checking whether an ID list is a knowledge state. */
export type StateCheck =
  | { ok: true }
  | { ok: false; reason: string; component?: string; missing?: string[]; unknown?: string[] };

// The loops below test bits inline (`state[i >>> 5] & (1 << (i & 31))`) rather than through bitset.ts
// helpers: they run hundreds of thousands of times, and an imported call per bit costs several times
// more under transpiling loaders such as tsx.

/** True when the canonical bitset is prerequisite-closed (a knowledge state). O(n + e). */
export function isStateBits(s: CompiledStructure, state: Uint32Array): boolean {
  if (s.basis) return isStateFromBasis(s.basis, state);
  const start = s.prerequisiteStart;
  const list = s.prerequisiteList;
  for (let q = 0; q < s.n; q++) {
    if ((state[q >>> 5]! & (1 << (q & 31))) === 0) continue;
    for (let k = start[q]!, end = start[q + 1]!; k < end; k++) {
      const p = list[k]!;
      if ((state[p >>> 5]! & (1 << (p & 31))) === 0) return false;
    }
  }
  return true;
}

/**
 * Outer fringe of a state bitset, written into `out` (a fresh bitset unless given) and returned.
 * The state is assumed valid; check with isStateBits first when unsure. O(n + e).
 */
export function outerFringeBits(s: CompiledStructure, state: Uint32Array, out: Uint32Array = emptyBits(s.n)): Uint32Array {
  if (s.basis) return outerFringeFromBasis(s.basis, state, out);
  out.fill(0);
  const start = s.prerequisiteStart;
  const list = s.prerequisiteList;
  outer: for (let q = 0; q < s.n; q++) {
    if ((state[q >>> 5]! & (1 << (q & 31))) !== 0) continue;
    for (let k = start[q]!, end = start[q + 1]!; k < end; k++) {
      const p = list[k]!;
      if ((state[p >>> 5]! & (1 << (p & 31))) === 0) continue outer;
    }
    out[q >>> 5]! |= 1 << (q & 31);
  }
  return out;
}

/** Inner fringe of a state bitset, written into `out` (a fresh bitset unless given) and returned. O(n + e). */
export function innerFringeBits(s: CompiledStructure, state: Uint32Array, out: Uint32Array = emptyBits(s.n)): Uint32Array {
  if (s.basis) return innerFringeFromBasis(s.basis, state, out);
  out.fill(0);
  const start = s.successorStart;
  const list = s.successorList;
  outer: for (let p = 0; p < s.n; p++) {
    if ((state[p >>> 5]! & (1 << (p & 31))) === 0) continue;
    for (let k = start[p]!, end = start[p + 1]!; k < end; k++) {
      const q = list[k]!;
      if ((state[q >>> 5]! & (1 << (q & 31))) !== 0) continue outer;
    }
    out[p >>> 5]! |= 1 << (p & 31);
  }
  return out;
}

/**
 * Checks that `state` (component IDs, any order, duplicates ignored) is a knowledge state. On failure
 * the reason names the first offending component in canonical order and all of its (transitive)
 * prerequisites missing from the state, e.g.
 * `not a knowledge state: SL3 is in the state but its prerequisite SL1 is not`.
 */
export function checkState(domain: Domain, state: readonly string[]): StateCheck {
  const unknown = unknownIds(domain, state);
  if (unknown.length > 0) {
    return {
      ok: false,
      reason: `unknown component ID(s) ${unknown.map(visible).join(', ')} for domain ${domain.id}`,
      unknown,
    };
  }
  const s = compileStructure(domain);
  const bits = emptyBits(s.n);
  for (const id of state) {
    const i = domain.index.get(id)!;
    bits[i >>> 5]! |= 1 << (i & 31);
  }
  if (isStateBits(s, bits)) return { ok: true };
  if (s.basis) return generalStateFailure(domain, bits);
  for (let q = 0; q < s.n; q++) {
    if (!hasBit(bits, q)) continue;
    if (s.directPrerequisites[q]!.every((p) => hasBit(bits, p))) continue;
    const prerequisites = s.prerequisiteBits[q]!;
    const missing: string[] = [];
    for (let p = 0; p < s.n; p++) if (hasBit(prerequisites, p) && !hasBit(bits, p)) missing.push(s.ids[p]!);
    const component = s.ids[q]!;
    const what = missing.length === 1 ? `its prerequisite ${missing[0]} is not` : `its prerequisites ${missing.join(', ')} are not`;
    return { ok: false, reason: `not a knowledge state: ${component} is in the state but ${what}`, component, missing };
  }
  return { ok: true };
}

/**
 * Why a set is not a state of a space given by its basis: the first item (canonical order) none of
 * whose routes (atoms) lies inside the set, with its routes' missing items.
 */
function generalStateFailure(domain: Domain, bits: Uint32Array): StateCheck {
  const ids = domain.ids;
  const basis = domain.basis!;
  const inSet = (id: string): boolean => {
    const i = domain.index.get(id)!;
    return hasBit(bits, i);
  };
  for (const component of ids) {
    if (!inSet(component)) continue;
    const routes = basis.filter((b) => b.includes(component));
    if (routes.some((b) => b.every(inSet))) continue;
    // Minimal routes: those containing no other route of this component.
    const minimal = routes.filter((b) => !routes.some((c) => c !== b && c.length < b.length && c.every((x) => b.includes(x))));
    const missingPerRoute = minimal.map((b) => b.filter((x) => !inSet(x)));
    const missing = [...new Set(missingPerRoute.flat())].sort((a, b) => domain.index.get(a)! - domain.index.get(b)!);
    const alternatives = missingPerRoute.map((m) => m.join(' and ')).join('; or ');
    return {
      ok: false,
      reason: `not a knowledge state: ${component} is in the state but no route to it is: it also needs ${alternatives}`,
      component,
      missing,
    };
  }
  return { ok: false, reason: 'not a knowledge state' };
}

/** Validates and converts a state, throwing InputError with checkState's reason. */
function validState(domain: Domain, state: readonly string[]): { s: CompiledStructure; bits: Uint32Array } {
  const s = compileStructure(domain);
  const bits = emptyBits(s.n);
  let known = true;
  for (const id of state) {
    const i = domain.index.get(id);
    if (i === undefined) known = false;
    else bits[i >>> 5]! |= 1 << (i & 31);
  }
  if (known && isStateBits(s, bits)) return { s, bits };
  const check = checkState(domain, state) as Extract<StateCheck, { ok: false }>;
  throw new InputError(`${domainLabel(domain)}: ${check.reason}`, {
    file: domain.file,
    item: check.component ?? check.unknown?.[0],
  });
}

/**
 * Outer fringe K^O of a state, in canonical order: the tasks that can be learned next.
 * InputError if the state names an unknown ID or is not a knowledge state. The full domain Q gives [].
 *
 * @example
 * const { buildDomain } = require('./domain');
 * const comp = (id: string) => ({ id, description: id });
 * const d = buildDomain({ id: 'd', title: 'd', source: 's', components: ['A', 'B', 'C'].map(comp), prerequisites: [['A', 'B'], ['A', 'C']] });
 * outerFringe(d, ['A']); // => ['B', 'C']
 * outerFringe(d, []); // => ['A']
 * outerFringe(d, ['A', 'B', 'C']); // => []
 */
export function outerFringe(domain: Domain, state: readonly string[]): string[] {
  const { s, bits } = validState(domain, state);
  return bitsToIds(s, outerFringeBits(s, bits));
}

/**
 * Inner fringe K^I of a state, in canonical order: the mastered tasks nothing else in the state builds on.
 * InputError like outerFringe. The empty state gives [].
 *
 * @example
 * const { buildDomain } = require('./domain');
 * const comp = (id: string) => ({ id, description: id });
 * const d = buildDomain({ id: 'd', title: 'd', source: 's', components: ['A', 'B', 'C'].map(comp), prerequisites: [['A', 'B'], ['A', 'C']] });
 * innerFringe(d, ['A', 'B']); // => ['B']
 * innerFringe(d, ['A', 'B', 'C']); // => ['B', 'C']
 * innerFringe(d, []); // => []
 */
export function innerFringe(domain: Domain, state: readonly string[]): string[] {
  const { s, bits } = validState(domain, state);
  return bitsToIds(s, innerFringeBits(s, bits));
}
