/**
 * Check cells of notebook 01's predict-then-check exercises (what every exercise shares is in
 * exercise-check.ts). A student writes a state, a fringe, a prerequisite pair or a task's clauses;
 * each function here says whether it is right, why (computed with lib/kst, never a stored answer),
 * and on a wrong answer gives a hint. Every function takes the answer as `unknown` and answers
 * anything — null (not answered yet), a number instead of a list, an unknown ID — with a sentence
 * instead of an exception.
 */
import { buildDomain, checkState, innerFringe, outerFringe, surmiseFunction, type Domain } from '../kst';
import { stateLabel } from './kst-diagrams';
import { withPrerequisites } from './kst-foundations';
import { NO_ANSWER, stringListAnswer, type ExerciseCheck } from './exercise-check';

// Notebook 01 imports the feedback line from here, with the checks.
export { exerciseFeedback, type ExerciseCheck } from './exercise-check';

/** The answer as a list of IDs, or the check that says why it is not one. */
function idList(answer: unknown, what: string): string[] | ExerciseCheck {
  return stringListAnswer(answer, what, 'component IDs such as ["SL1", "SL2"]');
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const sa = new Set(a);
  return sa.size === new Set(b).size && b.every((x) => sa.has(x));
}

/** Sorted into the domain's canonical order (unknown IDs last), for messages. */
function canonical(domain: Domain, ids: readonly string[]): string[] {
  return [...new Set(ids)].sort((a, b) => (domain.index.get(a) ?? Infinity) - (domain.index.get(b) ?? Infinity));
}

/**
 * "Write a knowledge state with …": right when `answer` is a state of `domain` and meets `want`
 * (its size, components it must contain or leave out).
 *
 * @example
 * const { loadDomain } = require('../kst');
 * const slope = loadDomain('data/raw/domains/slope.json');
 * checkStateAnswer(slope, ['SL1', 'SL2', 'SL4'], { size: 3 }).right; // => true
 * checkStateAnswer(slope, ['SL1', 'SL3', 'SL4'], { size: 3 }).why; // => '{SL1,SL3,SL4} is not a knowledge state of slope: SL3 is in the state but its prerequisite SL2 is not'
 */
export function checkStateAnswer(domain: Domain, answer: unknown, want: { size?: number; contains?: readonly string[]; excludes?: readonly string[] } = {}): ExerciseCheck {
  const ids = idList(answer, 'a state');
  if (!Array.isArray(ids)) return ids;
  const label = stateLabel(canonical(domain, ids));
  const state = checkState(domain, ids);
  if (!state.ok) {
    return {
      right: false,
      why: `${label} is not a knowledge state of ${domain.id}: ${state.reason.replace(/^not a knowledge state: /, '')}`,
      hint: state.unknown ? `the components are ${domain.ids.join(', ')}` : 'a state holds every prerequisite of each component in it; add the missing ones or drop the component',
    };
  }
  const size = new Set(ids).size;
  if (want.size !== undefined && size !== want.size) return { right: false, why: `${label} is a state, but it has ${size} components, not ${want.size}`, hint: size < want.size ? 'add a component whose prerequisites are all in it (one of its outer fringe)' : 'remove a component nothing else in it builds on (one of its inner fringe)' };
  const missing = (want.contains ?? []).filter((id) => !ids.includes(id));
  if (missing.length > 0) return { right: false, why: `${label} is a state, but it leaves out ${missing.join(', ')}`, hint: `${missing.join(', ')} must be in it, with what it needs` };
  const extra = (want.excludes ?? []).filter((id) => ids.includes(id));
  if (extra.length > 0) return { right: false, why: `${label} is a state, but it contains ${extra.join(', ')}`, hint: `find another route to what you need that avoids ${extra.join(', ')}` };
  return { right: true, why: `${label} is a knowledge state of ${domain.id} with everything asked for` };
}

/**
 * "Predict the outer (or inner) fringe of this state": right when `answer` is that set, in any order.
 *
 * @example
 * const { loadDomain } = require('../kst');
 * const slope = loadDomain('data/raw/domains/slope.json');
 * checkFringeAnswer(slope, ['SL1', 'SL2'], ['SL4', 'SL3'], 'outer').right; // => true
 * checkFringeAnswer(slope, ['SL1', 'SL2'], ['SL3'], 'outer').why; // => 'the outer fringe of {SL1,SL2} also has SL4'
 */
export function checkFringeAnswer(domain: Domain, state: readonly string[], answer: unknown, which: 'outer' | 'inner'): ExerciseCheck {
  const ids = idList(answer, 'a fringe');
  if (!Array.isArray(ids)) return ids;
  const given = checkState(domain, state);
  if (!given.ok) return { right: false, why: `the exercise's set ${stateLabel(canonical(domain, state))} is not a state (${given.reason}); there is no fringe to predict` };
  const truth = which === 'outer' ? outerFringe(domain, state) : innerFringe(domain, state);
  const label = stateLabel(canonical(domain, state));
  if (sameSet(ids, truth)) {
    return { right: true, why: `the ${which} fringe of ${label} is ${stateLabel(truth)}: ${which === 'outer' ? 'each can be learned next, and adding any one gives a state' : 'nothing else in the state builds on them, and removing any one leaves a state'}` };
  }
  const wrong = canonical(domain, ids.filter((id) => !truth.includes(id)));
  const missing = truth.filter((id) => !ids.includes(id));
  const reason = wrong.map((id) => {
    if (!domain.index.has(id)) return `${id} is not a component of ${domain.id}`;
    if (which === 'outer') {
      if (state.includes(id)) return `${id} is already mastered`;
      const after = checkState(domain, [...state, id]);
      return after.ok ? `${id} can be learned next` : `${id} cannot be learned next: ${after.reason.replace(/^not a knowledge state: /, '')}`;
    }
    return state.includes(id) ? `removing ${id} does not leave a state (something else in it builds on ${id})` : `${id} is not in the state`;
  });
  const why = [...reason, ...(missing.length > 0 ? [`the ${which} fringe of ${label} also has ${missing.join(', ')}`] : [])].join('; ');
  return {
    right: false,
    why,
    hint: which === 'outer' ? 'try each component not in the state: is every one of its prerequisites in the state?' : 'try each component in the state: does anything else in the state need it?',
  };
}

/**
 * "Give one prerequisite pair [p, q] after which `state` is no longer a knowledge state": right when
 * the pair keeps the relation acyclic and makes `state` fail.
 *
 * @example
 * const { loadDomain } = require('../kst');
 * const slope = loadDomain('data/raw/domains/slope.json');
 * checkPairBreaksState(slope, ['SL1', 'SL2'], ['SL4', 'SL2']).right; // => true
 * checkPairBreaksState(slope, ['SL1', 'SL2'], ['SL2', 'SL4']).right; // => false
 */
export function checkPairBreaksState(domain: Domain, state: readonly string[], answer: unknown): ExerciseCheck {
  if (answer === null || answer === undefined) return NO_ANSWER;
  if (!Array.isArray(answer) || answer.length !== 2 || !answer.every((x) => typeof x === 'string')) {
    return { right: false, why: `a prerequisite pair is two IDs [p, q] (p before q), not ${JSON.stringify(answer)}` };
  }
  const [p, q] = answer as [string, string];
  const unknown = [p, q].filter((id) => !domain.index.has(id));
  if (unknown.length > 0) return { right: false, why: `${unknown.join(', ')} is not a component of ${domain.id}`, hint: `the components are ${domain.ids.join(', ')}` };
  let changed: Domain;
  try {
    changed = withPrerequisites(domain, [[p, q]]);
  } catch (e) {
    return { right: false, why: `[${p}, ${q}] is refused: ${e instanceof Error ? e.message : String(e)}`, hint: 'a pair that leads back to where it started is a cycle; pick p that does not already come after q' };
  }
  const label = stateLabel(canonical(domain, state));
  const after = checkState(changed, state);
  if (!after.ok) return { right: true, why: `with ${p} before ${q}, ${label} ${after.reason.replace(/^not a knowledge state: /, 'fails: ')}` };
  return { right: false, why: `with ${p} before ${q}, ${label} is still a state`, hint: `make something in ${label} need a component outside it: q in the state, p outside` };
}

/**
 * "Write the clauses of `item`" (its entry of the surmise function): right when `answer` lists the
 * same routes as the structure, each spelled out in full. A clause that names a task without that
 * task's own route (the intuitive `[["c"]]` for d in the two-route example) is explained.
 *
 * @example
 * const { buildDomain } = require('../kst');
 * const comp = (id: string) => ({ id, description: id });
 * const two = buildDomain({ id: 'two', title: 't', source: 's', components: ['a', 'b', 'c', 'd'].map(comp), surmise: { c: [['a'], ['b']], d: [['a', 'c'], ['b', 'c']] } });
 * checkClausesAnswer(two, 'd', [['b', 'c'], ['a', 'c']]).right; // => true
 * checkClausesAnswer(two, 'd', [['c']]).right; // => false
 */
export function checkClausesAnswer(domain: Domain, item: string, answer: unknown): ExerciseCheck {
  if (answer === null || answer === undefined) return NO_ANSWER;
  if (!Array.isArray(answer) || !answer.every((c) => Array.isArray(c) && c.every((x) => typeof x === 'string'))) {
    return { right: false, why: `the clauses are a list of lists of IDs, e.g. [["a"], ["b"]] (a or b), not ${JSON.stringify(answer)}` };
  }
  const truth = surmiseFunction(domain)[item];
  if (!truth) return { right: false, why: `${item} is not a component of ${domain.id}` };
  const clauses = answer as string[][];
  const key = (c: readonly string[]) => canonical(domain, c).join(',');
  const want = new Set(truth.map(key));
  if (clauses.length === truth.length && clauses.every((c) => want.has(key(c)))) {
    return { right: true, why: `${item} has ${truth.length} route(s): ${truth.map((c) => stateLabel(c)).join(' or ')}, each listing every task on the way` };
  }
  // Why not: build the structure with this entry swapped in; buildDomain names the first broken clause.
  try {
    const surmise = { ...surmiseFunction(domain), [item]: clauses };
    buildDomain({ id: domain.id, title: domain.title, source: domain.source, components: domain.components.map((c) => ({ ...c })), surmise });
  } catch (e) {
    return { right: false, why: e instanceof Error ? e.message : String(e), hint: 'a clause is a whole route: it lists every task learned before this one on that route, not just the last step' };
  }
  return { right: false, why: `that is a valid structure, but not this one: ${item}'s routes here are ${truth.map((c) => stateLabel(c)).join(' or ')}`, hint: 'read the basis states that contain the task: each, without the task, is one clause' };
}
