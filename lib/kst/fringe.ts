import { InputError } from '../errors';
import { emptyBits, hasBit, setBit } from './bitset';
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

/** True when the canonical bitset is prerequisite-closed (a knowledge state). */
export function isStateBits(s: CompiledStructure, state: Uint32Array): boolean {
  for (let q = 0; q < s.n; q++) {
    if (!hasBit(state, q)) continue;
    for (const p of s.directPrerequisites[q]!) if (!hasBit(state, p)) return false;
  }
  return true;
}

/**
 * Outer fringe of a state bitset, written into `out` (a fresh bitset unless given). The state is
 * assumed valid; check with isStateBits first when unsure.
 */
export function outerFringeBits(s: CompiledStructure, state: Uint32Array, out: Uint32Array = emptyBits(s.n)): Uint32Array {
  out.fill(0);
  for (let q = 0; q < s.n; q++) {
    if (hasBit(state, q)) continue;
    const pre = s.directPrerequisites[q]!;
    let ready = true;
    for (let k = 0; k < pre.length; k++) {
      if (!hasBit(state, pre[k]!)) {
        ready = false;
        break;
      }
    }
    if (ready) setBit(out, q);
  }
  return out;
}

/** Inner fringe of a state bitset, written into `out` (a fresh bitset unless given). */
export function innerFringeBits(s: CompiledStructure, state: Uint32Array, out: Uint32Array = emptyBits(s.n)): Uint32Array {
  out.fill(0);
  for (let p = 0; p < s.n; p++) {
    if (!hasBit(state, p)) continue;
    const next = s.directSuccessors[p]!;
    let removable = true;
    for (let k = 0; k < next.length; k++) {
      if (hasBit(state, next[k]!)) {
        removable = false;
        break;
      }
    }
    if (removable) setBit(out, p);
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
      reason: `unknown component ID(s) ${unknown.join(', ')} for domain ${domain.id}`,
      unknown,
    };
  }
  const s = compileStructure(domain);
  const bits = emptyBits(s.n);
  for (const id of state) setBit(bits, domain.index.get(id)!);
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

/** Validates and converts a state, throwing InputError with checkState's reason. */
function validState(domain: Domain, state: readonly string[]): { s: CompiledStructure; bits: Uint32Array } {
  const check = checkState(domain, state);
  if (!check.ok) {
    throw new InputError(`${domainLabel(domain)}: ${check.reason}`, {
      file: domain.file,
      item: check.component ?? check.unknown?.[0],
    });
  }
  const s = compileStructure(domain);
  const bits = emptyBits(s.n);
  for (const id of state) setBit(bits, domain.index.get(id)!);
  return { s, bits };
}

/**
 * Outer fringe K^O of a state, in canonical order: the tasks that can be learned next.
 * InputError if the state names an unknown ID or is not a knowledge state. The full domain Q gives [].
 *
 * Example: A→B, A→C, state [A] gives [B, C]; state [] gives [A].
 */
export function outerFringe(domain: Domain, state: readonly string[]): string[] {
  const { s, bits } = validState(domain, state);
  return bitsToIds(s, outerFringeBits(s, bits));
}

/**
 * Inner fringe K^I of a state, in canonical order: the mastered tasks nothing else in the state builds on.
 * InputError like outerFringe. The empty state gives [].
 *
 * Example: A→B, A→C, state [A, B] gives [B].
 */
export function innerFringe(domain: Domain, state: readonly string[]): string[] {
  const { s, bits } = validState(domain, state);
  return bitsToIds(s, innerFringeBits(s, bits));
}
