import { atomsByItem, basisModel, notionLists, type BasisModel } from './basis';
import { keyedObject } from '../io/keys';
import { BudgetError, workBudget } from './budget';
import { countStatesExact } from './space';
import { setBit } from './bitset';
import { buildDomain, basisBitsOf, type Domain } from './domain';
import { compareItemSets } from './bitset';
import { innerFringeBits, outerFringe } from './fringe';
import { checkLearningSpace } from './forms';
import { compileStructure } from './structure';

/**
 * The general (not necessarily quasi-ordinal) view of any domain: its basis, surmise function, notions,
 * structure checks and the notion reduction. For a prerequisite domain the basis is derived: the atom
 * of q is {q} ∪ pre*(q), one per task.
 */

/** Basis bitsets of any domain, sorted by size then lexicographically. */
export function basisBits(domain: Domain): Uint32Array[] {
  const given = basisBitsOf.get(domain);
  if (given) return given;
  const s = compileStructure(domain);
  const atoms = s.prerequisiteBits.map((row, q) => {
    const atom = row.slice();
    setBit(atom, q);
    return atom;
  });
  return atoms.sort(compareItemSets);
}

/** The basis model of any domain (built per call; compileStructure caches its own for general domains). */
export function domainBasisModel(domain: Domain): BasisModel {
  return compileStructure(domain).basis ?? basisModel(domain.ids.length, basisBits(domain));
}

/** The basis as canonical-order ID lists (sorted by size, then lexicographically). */
export function knowledgeBasis(domain: Domain): string[][] {
  return basisBits(domain).map((b) => idsOf(domain, b));
}

function idsOf(domain: Domain, bits: Uint32Array): string[] {
  return domain.ids.filter((_, i) => (bits[i >>> 5]! & (1 << (i & 31))) !== 0);
}

/**
 * The surmise function: for every task (canonical order) its clauses, the alternative sets of other
 * tasks after which it can be learned (atoms at the task minus the task), sorted by size then
 * lexicographically. A task without prerequisites has the single clause []. A quasi-ordinal domain has
 * exactly one clause per task: its prerequisites.
 */
export function surmiseFunction(domain: Domain): Record<string, string[][]> {
  const model = domainBasisModel(domain);
  const atoms = atomsByItem(model);
  const out = new Map<string, string[][]>(); // keyed by item IDs, which may be `constructor` or `toString`
  domain.ids.forEach((id, q) => {
    const clauses = atoms[q]!.map((b) => {
      const bits = model.basis.slice(b * model.words, (b + 1) * model.words);
      bits[q >>> 5]! &= ~(1 << (q & 31));
      return bits;
    });
    out.set(id, clauses.sort(compareItemSets).map((bits) => idsOf(domain, bits)));
  });
  return keyedObject(out);
}

/** Outer fringe grouped into notions (each a canonical-order ID list), notions ordered by first item. */
export function outerFringeNotions(domain: Domain, state: readonly string[]): string[][] {
  const fringe = outerFringe(domain, state);
  if (domain.notions.length === 0) return fringe.map((id) => [id]);
  const groups = new Map<string, string[]>();
  const notionOf = new Map<string, string>();
  for (const notion of domain.notions) for (const id of notion) notionOf.set(id, notion[0]!);
  for (const id of fringe) {
    const key = notionOf.get(id) ?? id;
    groups.set(key, [...(groups.get(key) ?? []), id]);
  }
  return [...groups.values()];
}

/** Result of checkSpace; failures name the offending state. */
export interface SpaceCheck {
  /** Always true for a built domain (construction refuses anything else); kept for the report. */
  knowledgeSpace: true;
  quasiOrdinal: boolean;
  /** true/false when checked; undefined when the space was too large to check. */
  learningSpace: boolean | undefined;
  /** A non-empty state without removable notion, when not well-graded. */
  notWellGradedAt?: string[];
  /** Why the learning-space check was skipped. */
  learningSpaceNote?: string;
  notions: string[][];
}


/** States the learning-space check walks at most unless told otherwise. */
export const DEFAULT_LEARNING_CHECK_STATES = 2_000_000;

/**
 * Knowledge space (∅, Q, union-closed: guaranteed by construction), quasi-ordinal (every task has one
 * atom and no two tasks are equivalent) and learning space (well-graded; every quasi-ordinal space is).
 */
export function checkSpace(domain: Domain, options: { maxStates?: number } = {}): SpaceCheck {
  const base = { knowledgeSpace: true as const, quasiOrdinal: domain.quasiOrdinal, notions: domain.notions.map((n) => [...n]) };
  if (domain.quasiOrdinal) return { ...base, learningSpace: true };
  // Count under the check's own limit first: checkLearningSpace's count walks every state, so a space of
  // 2^40 states would be walked for hours before it could say it is too large.
  const limit = options.maxStates ?? DEFAULT_LEARNING_CHECK_STATES;
  try {
    countStatesExact(domain, workBudget(limit));
  } catch (err) {
    if (!(err instanceof BudgetError)) throw err;
    return { ...base, learningSpace: undefined, learningSpaceNote: `more than ${limit} states exceed the check's limit of ${limit}` };
  }
  const s = compileStructure(domain);
  const result = checkLearningSpace(s.basis!, (state, out) => innerFringeBits(s, state, out), limit);
  if (result.wellGraded === undefined) return { ...base, learningSpace: undefined, learningSpaceNote: result.reason };
  if (result.wellGraded) return { ...base, learningSpace: true };
  return { ...base, learningSpace: false, notWellGradedAt: idsOf(domain, result.state) };
}

/**
 * Collapses each notion to its first task (canonical order), as kstMatrix's `kmeqreduction` does. The
 * kept task's description lists the merged tasks' descriptions; the result is rebuilt from the reduced
 * basis (and so becomes a prerequisite-equivalent domain when the reduced space is quasi-ordinal).
 */
export function reduceNotions(domain: Domain): Domain {
  if (domain.notions.length === 0) return domain;
  const model = domainBasisModel(domain);
  const lists = notionLists(model);
  const keep = lists.map((items) => items[0]!);
  const components = keep.map((first, k) => {
    const c = domain.components[first]!;
    const merged = lists[k]!.slice(1).map((i) => domain.components[i]!);
    // A description without a closing full stop ("B", from an items file) gets one before the note.
    const sentence = /[.!?]$/.test(c.description) ? c.description : `${c.description}.`;
    const description = merged.length === 0 ? c.description : `${sentence} Merged notion, with ${merged.map((m) => `${m.id}: ${m.description}`).join('; ')}`;
    return { ...c, description };
  });
  const order = keep.map((first, k) => ({ first, k })).sort((a, b) => a.first - b.first);
  const basis = basisBits(domain).map((b) => order.filter(({ first }) => (b[first >>> 5]! & (1 << (first & 31))) !== 0).map(({ first }) => domain.ids[first]!));
  const merged = domain.notions.map((n) => `${n[0]} = {${n.join(', ')}}`).join(', ');
  return buildDomain({
    id: domain.id,
    title: domain.title,
    source: `${domain.source} Notions reduced by kstbench: ${merged}.`,
    components: order.map(({ k }) => components[k]!),
    basis,
  });
}


