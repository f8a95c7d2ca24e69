/**
 * How the simulated PSI tutor names concepts and picks which ones to mention: the phrase for a concept
 * (one the PSI concept detector recognises), the known concepts worth a recap, the concepts just beyond
 * the objective, and small text helpers. Pure functions of the taxonomy and the scenario.
 */
import { findConcepts } from '../../psi/concepts';
import type { PsiTaxonomy, Scenario } from '../../psi/schema';

export function lowerFirst(s: string): string {
  return s.length === 0 ? s : s[0]!.toLowerCase() + s.slice(1);
}

export function upperFirst(s: string): string {
  return s.length === 0 ? s : s[0]!.toUpperCase() + s.slice(1);
}

export function stripPeriod(s: string): string {
  return s.replace(/[.\s]+$/, '');
}

const labelCache = new WeakMap<PsiTaxonomy, Map<string, string>>();

/**
 * The phrase the tutor uses for a concept: the first of (ID with spaces, the concept's word-like
 * keywords, its code keywords in backticks) that the PSI concept detector recognises as this
 * concept, so a mention in prose is a mention for the scorer too. Very short labels are upper-cased
 * (`cpu` → `CPU`).
 * @example
 * const { loadPsiTaxonomy } = require('../../psi');
 * const taxonomy = loadPsiTaxonomy(require.resolve('../../../../data/raw/psi/taxonomy.json'));
 * conceptLabel(taxonomy, 'for_loop'); // => 'for loop'
 * conceptLabel(taxonomy, 'type_function'); // => '`type()`'
 */
export function conceptLabel(taxonomy: PsiTaxonomy, id: string): string {
  let cache = labelCache.get(taxonomy);
  if (!cache) labelCache.set(taxonomy, (cache = new Map()));
  const hit = cache.get(id);
  if (hit !== undefined) return hit;
  const keywords = taxonomy.keywords.get(id) ?? [];
  const candidates = [
    id.replace(/_/g, ' '),
    ...keywords.filter((k) => /^[a-z][a-z -]*[a-z]$/.test(k)),
    ...keywords.map((k) => `\`${k.trim()}${k.trim().endsWith('(') ? ')' : ''}\``),
  ];
  let label = candidates.find((c) => findConcepts(c, taxonomy).some((m) => m.id === id)) ?? id.replace(/_/g, ' ');
  if (/^[a-z]{2,4}$/.test(label)) label = label.toUpperCase();
  cache.set(id, label);
  return label;
}

/** Every strict prerequisite of `ids` (transitive closure), in canonical taxonomy order. */
function prerequisitesOf(taxonomy: PsiTaxonomy, ids: readonly string[]): string[] {
  const target = new Set(ids);
  const out = new Set<string>();
  for (const [p, q] of taxonomy.closure) if (target.has(q) && !target.has(p)) out.add(p);
  return taxonomy.ids.filter((id) => out.has(id));
}

/**
 * Known concepts worth recapping before the answer, most relevant first: direct prerequisites of
 * the objective concepts, then the learner's memory concepts, then deeper prerequisites (each group
 * in canonical order).
 */
export function recapCandidates(taxonomy: PsiTaxonomy, scenario: Scenario): string[] {
  const known = new Set(scenario.learner.known_concepts);
  const objective = new Set(scenario.objective_concepts);
  const direct = new Set<string>();
  for (const [p, q] of taxonomy.prerequisites) if (objective.has(q) && !objective.has(p)) direct.add(p);
  const memory = new Set(scenario.learner.memory.map((m) => m.concept));
  const deeper = new Set(prerequisitesOf(taxonomy, scenario.objective_concepts));
  const ordered = [
    ...taxonomy.ids.filter((id) => direct.has(id)),
    ...taxonomy.ids.filter((id) => memory.has(id)),
    ...taxonomy.ids.filter((id) => deeper.has(id)),
  ];
  return [...new Set(ordered)].filter((id) => known.has(id) && !objective.has(id));
}

/**
 * Concepts the learner has not met that lie just beyond the objective: every unknown, non-objective
 * concept with an objective concept among its (transitive) prerequisites, in canonical (course) order.
 * These are what a tutor names when it guesses that an ambiguous question might be about something
 * further along: for objective `while_loop`, `infinite_loop`, `counter_variable`, … when not known. In the
 * shipped taxonomy loop_condition → infinite_loop is the only pair leaving `loop_condition`:
 * @example
 * const { loadPsiTaxonomy } = require('../../psi');
 * const taxonomy = loadPsiTaxonomy(require.resolve('../../../../data/raw/psi/taxonomy.json'));
 * const scenario = (objective: string, known: string[]) => ({ objective_concepts: [objective], learner: { known_concepts: known } }) as any;
 * laterConcepts(taxonomy, scenario('loop_condition', [])); // => ['infinite_loop']
 * laterConcepts(taxonomy, scenario('loop_condition', ['infinite_loop'])); // => []
 */
export function laterConcepts(taxonomy: PsiTaxonomy, scenario: Scenario): string[] {
  const known = new Set(scenario.learner.known_concepts);
  const objective = new Set(scenario.objective_concepts);
  const out = new Set<string>();
  for (const [p, q] of taxonomy.closure) if (objective.has(p) && !objective.has(q) && !known.has(q)) out.add(q);
  return taxonomy.ids.filter((id) => out.has(id));
}

/** The first concept (canonical order) that directly depends on an objective concept and is not yet known. */
export function nextConcept(taxonomy: PsiTaxonomy, scenario: Scenario): string | undefined {
  const objective = new Set(scenario.objective_concepts);
  const known = new Set(scenario.learner.known_concepts);
  const after = new Set<string>();
  for (const [p, q] of taxonomy.prerequisites) if (objective.has(p) && !objective.has(q) && !known.has(q)) after.add(q);
  return taxonomy.ids.find((id) => after.has(id));
}
