import { createHash } from 'node:crypto';
import { InputError } from '../errors';
import { isCondition, type Condition } from '../conditions';
import { checkState, coverRelation, enumerateStates, surmiseFunction, type Domain, type Presentation } from '../kst';
import { idsToPositions, positionIndex } from './positions';
import { responseJsonSchema, responseSchemaName } from './schema';

/**
 * Prompt construction for the four structural-information conditions ([KST-2026] §4.2, Table 2).
 *
 * Every prompt = one shared core + one condition-specific structure block:
 *   P0  descriptions only — no block;
 *   P1  the model must infer the direct prerequisites, return them as `prerequisites`, and use them;
 *   P2  the reference direct cover relations, with the statement that prerequisites are transitive;
 *       for a domain that is not quasi-ordinal (a task reachable by several routes), no cover
 *       relation describes the space, so P2 presents the surmise function instead: each task with
 *       its alternative prerequisite sets. This generalised P2 goes beyond the paper.
 *   P3  all and only the admissible knowledge states, with the one-component extension rule.
 * The reference outer fringe is never part of any prompt. Components appear only under their
 * temporary 1-based positions from the `Presentation`; canonical IDs never appear. Lists derived from
 * the domain (mastered set, relations, states) are sorted by position, so the canonical order does not
 * leak through the listing order either.
 */

/** One fully rendered request: what is sent to a provider, plus the schema it must answer in. */
export interface Prompt {
  condition: Condition;
  /** 1-based presentation order (which permutation of the components is shown). */
  order: number;
  system: string;
  user: string;
  /** Name of the structured-output schema (`responseSchemaName(condition)`). */
  schemaName: string;
  /** Provider-level JSON Schema for the answer (`responseJsonSchema(condition)`). */
  jsonSchema: Record<string, unknown>;
}

/** Shared by all conditions. Says what the assistant is for and that only bare JSON is accepted. */
export const SYSTEM_PROMPT = [
  'You support a mathematics learning platform by planning learning paths.',
  'Given the learning components of a topic and the components a learner has already mastered, you decide which components the learner can take on next.',
  'Answer with exactly one JSON object in the format described in the request: no text before or after it and no Markdown code fences.',
].join(' ');

/**
 * Builds the prompt for one (domain, state, condition, presentation) cell. Pure: the same input always
 * gives the same bytes. Throws InputError when the state is not a knowledge state of the domain, the
 * condition is unknown, or the presentation does not belong to the domain.
 *
 * Example (P2, presentation [b, a, c] of a domain with a ≺ c, b ≺ c, state {a}): the user text lists
 * the three descriptions as 1..3, says "Components the learner has already mastered: 2", and lists
 * the relations "1 -> 3" and "2 -> 3".
 */
export function buildPrompt(domain: Domain, state: readonly string[], condition: Condition, presentation: Presentation): Prompt {
  if (!isCondition(condition)) throw new InputError(`unknown prompt condition "${String(condition)}" (expected P0, P1, P2 or P3)`);
  assertPresentationFits(domain, presentation);
  const verdict = checkState(domain, state);
  if (!verdict.ok) {
    throw new InputError(`domain "${domain.id}": cannot build a prompt for state [${state.join(', ')}]: ${verdict.reason}`, {
      item: verdict.component ?? domain.id,
    });
  }
  const n = presentation.positions.length;
  const blocks = [
    topicBlock(domain, presentation),
    masteredBlock(idsToPositions(presentation, state)),
    structureBlock(domain, condition, presentation),
    taskBlock(),
    formatBlock(condition, n),
  ].filter((block) => block !== '');
  return {
    condition,
    order: presentation.order,
    system: SYSTEM_PROMPT,
    user: `${blocks.join('\n\n')}\n`,
    schemaName: responseSchemaName(condition),
    jsonSchema: responseJsonSchema(condition),
  };
}

/** SHA-256 (hex) of `system`, a NUL separator and `user`: identifies the exact text sent, for audit. */
export function promptHash(prompt: Pick<Prompt, 'system' | 'user'>): string {
  return createHash('sha256').update(prompt.system).update('\u0000').update(prompt.user).digest('hex');
}

function topicBlock(domain: Domain, presentation: Presentation): string {
  const byId = new Map(domain.components.map((c) => [c.id, c]));
  const lines = presentation.positions.map((id, i) => `${i + 1}. ${oneLine(byId.get(id)!.description)}`);
  return [
    `Topic: ${oneLine(domain.title)}`,
    `The topic consists of ${presentation.positions.length} learning components. Each component is referred to only by its number in this list:`,
    ...lines,
  ].join('\n');
}

function masteredBlock(positions: readonly number[]): string {
  return positions.length === 0
    ? 'Components the learner has already mastered: none (the learner has not mastered any component yet).'
    : `Components the learner has already mastered: ${positions.join(', ')}`;
}

function structureBlock(domain: Domain, condition: Condition, presentation: Presentation): string {
  switch (condition) {
    case 'P0':
      return '';
    case 'P1':
      return [
        'Prerequisite structure (to be worked out by you):',
        'No prerequisite relations are given. First infer them from the component descriptions. Component p is a direct prerequisite of component q when q builds on p, so that p has to be mastered before q can be learned, and no other listed component stands between them.',
        'Report every direct prerequisite you infer as a pair [p, q] of component numbers in the "prerequisites" field. Then base your recommendation on this structure, following chains of prerequisites where they exist.',
      ].join('\n');
    case 'P2':
      return relationsBlock(domain, presentation);
    case 'P3':
      return statesBlock(domain, presentation);
  }
}

/** P2: the reference cover pairs in positions, sorted by (p, q); the surmise function for other domains. */
export function relationsBlock(domain: Domain, presentation: Presentation): string {
  if (!domain.quasiOrdinal) return surmiseBlock(domain, presentation);
  const at = positionIndex(presentation);
  const pairs = coverRelation(domain)
    .map(([p, q]) => [at.get(p)!, at.get(q)!] as const)
    .sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  if (pairs.length === 0) {
    return ['Prerequisite relations:', 'There are no prerequisite relations among these components: each of them can be learned without any other.'].join('\n');
  }
  return [
    'Prerequisite relations:',
    'The following list contains the direct prerequisite relations among the components. "p -> q" means that component p has to be mastered before component q can be learned.',
    ...pairs.map(([p, q]) => `${p} -> ${q}`),
    'Prerequisites are transitive: if p -> q and q -> r, then p also has to be mastered before r. There are no prerequisite relations other than those listed and the ones that follow from them by this rule; a component that never appears on the right-hand side of an arrow has no prerequisites.',
  ].join('\n');
}

/**
 * Generalised P2 for domains that are not quasi-ordinal: one line per component in position order,
 * `q: after {a, b} or after {c}` (each set complete, i.e. transitively closed, positions ascending;
 * sets by size, then lexicographically), `q: no prerequisites` for a component with the empty set.
 */
export function surmiseBlock(domain: Domain, presentation: Presentation): string {
  const at = positionIndex(presentation);
  const surmise = surmiseFunction(domain);
  const lines = presentation.positions.map((id, i) => {
    const clauses = surmise[id]!.map((clause) => clause.map((x) => at.get(x)!).sort((a, b) => a - b)).sort(compareStates);
    if (clauses.length === 1 && clauses[0]!.length === 0) return `${i + 1}: no prerequisites`;
    return `${i + 1}: ${clauses.map((c) => `after {${c.join(', ')}}`).join(' or ')}`;
  });
  const out = [
    'Prerequisite relations:',
    'Some components of this topic can be reached by more than one route. For each component, the following list gives the alternative sets of components after which it can be learned. "q: after {a, b} or after {c}" means that component q can be learned once a and b are both mastered, or once c is mastered; each set already contains everything its members need.',
    ...lines,
    'There are no other routes: a component can be learned only after one of its listed sets has been mastered completely.',
  ];
  if (domain.notions.length > 0) {
    out.push('Components that appear in each other\'s sets can only be learned together, as one step; recommend all of them together.');
  }
  return out.join('\n');
}

/**
 * statesBlock's text per domain and presentation order. The block lists every state of the domain, so
 * it is the same for every cell of one (domain, order) and costs O(states) to build: without the cache a
 * study's P3 prompts rebuilt it once per cell (the issue-16 bench spent most of `study check` there).
 */
const STATES_BLOCKS = new WeakMap<Domain, Map<string, string>>();

/** P3: every knowledge state in positions, each sorted ascending; states ordered by size, then lexicographically. */
export function statesBlock(domain: Domain, presentation: Presentation): string {
  let byOrder = STATES_BLOCKS.get(domain);
  if (!byOrder) STATES_BLOCKS.set(domain, (byOrder = new Map()));
  const key = presentation.positions.join('\u0000');
  let block = byOrder.get(key);
  if (block === undefined) byOrder.set(key, (block = buildStatesBlock(domain, presentation)));
  return block;
}

function buildStatesBlock(domain: Domain, presentation: Presentation): string {
  const states = enumerateStates(domain)
    .map((state) => idsToPositions(presentation, state))
    .sort(compareStates);
  return [
    'Admissible knowledge states:',
    'A knowledge state is a set of components that a learner can have mastered together. The following list contains all admissible knowledge states of this topic, and no other set of components is admissible:',
    ...states.map((s) => (s.length === 0 ? '- {} (no component mastered)' : `- {${s.join(', ')}}`)),
    'The set of components the learner has already mastered is one of these states. A component is an admissible immediate next step exactly when the learner has not mastered it yet and adding this one component to the mastered set gives a set that appears in the list above.',
    // Only for domains with equivalent components (never for the study domains, whose bytes stay as they were).
    ...(domain.notions.length > 0
      ? ['Some components can only be learned together: a group of components is an admissible next step, and each of its components is recommended, when adding the whole group to the mastered set gives a set that appears in the list above.']
      : []),
  ].join('\n');
}

function taskBlock(): string {
  return [
    'Your task:',
    'Determine all admissible immediate next steps for this learner. A component is an admissible immediate next step when the learner has not mastered it yet and can learn it now, because every component it builds on is already mastered.',
    'Recommend every admissible immediate next step and nothing else: leave out components that are already mastered and components that still depend on something the learner has not mastered. Justify each recommended component in one or two short sentences.',
    'If no component is an admissible immediate next step, recommend nothing and explain why in "no_recommendation_reason".',
  ].join('\n');
}

function formatBlock(condition: Condition, n: number): string {
  const lines = [
    'Response format:',
    'Answer with one JSON object that has exactly these fields:',
    `- "recommendations": an array with one object {"position": <component number>, "justification": "<short reason>"} per recommended component. A position is a component number from 1 to ${n}; list each component at most once. Use [] if you recommend nothing.`,
    '- "no_recommendation_reason": null if you recommend at least one component; otherwise a short explanation of why no component is recommended.',
  ];
  if (condition === 'P1') {
    lines.push(
      '- "prerequisites": the direct prerequisite relations you inferred, as an array of [p, q] pairs of component numbers, where p is a direct prerequisite of q. Use [] if you infer none.',
    );
  }
  return lines.join('\n');
}

function assertPresentationFits(domain: Domain, presentation: Presentation): void {
  const shown = presentation.positions;
  const ok =
    presentation.domain === domain.id &&
    shown.length === domain.ids.length &&
    new Set(shown).size === shown.length &&
    shown.every((id) => domain.index.has(id));
  if (!ok) {
    throw new InputError(
      `presentation ${presentation.order} of domain "${presentation.domain}" is not a permutation of the components of domain "${domain.id}"`,
      { item: domain.id },
    );
  }
}

/** Order for position sets: smaller sets first, then lexicographic by position. */
function compareStates(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) return a.length - b.length;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** Collapses runs of whitespace (including newlines) so each component stays on one list line. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
