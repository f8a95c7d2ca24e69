/**
 * Reconstructed prerequisite graphs (condition P1) against the reference structure — the analysis that
 * [KST-2026] §5.4 proposes as further work. Under P1 the model returns its own direct prerequisite pairs
 * and then its recommendation. Three questions per response:
 *
 * 1. How close is the returned graph to the reference? Compared twice: as a *direct* relation (the
 *    returned pairs against the reference cover relation) and as *implied* prerequisites (the transitive
 *    closure of the returned pairs against the surmise relation). Two graphs can differ as drawn (one
 *    lists a redundant shortcut p→r beside p→q→r) yet imply the same prerequisites; the closure
 *    comparison ignores such differences of representation.
 * 2. Which next steps does the model's OWN graph imply for the state (its "implied fringe")?
 * 3. Verdict: (a) `correct` — recommendation = reference fringe; (b) `wrong-structure` — the
 *    recommendation is wrong but equals the implied fringe (a wrong structure applied consistently);
 *    (c) `inconsistent` — the recommendation is wrong and differs from the implied fringe (the model did
 *    not apply its own graph). A correct recommendation may also differ from the implied fringe; that is
 *    recorded in `consistent`.
 *
 * Pure functions; `p1GraphRecords` validates lines already read from a responses file.
 */
import { z } from 'zod';
import { InputError, describeZodIssues } from '../errors';
import { mean } from '../stats/mean';
import { coverRelation, surmiseRelation, type Domain } from '../kst';
import { scoreResponse } from '../metrics';
import { groupBy } from './group';
import type { ResponseRecord } from './responses';

export type Pair = readonly [string, string];

/** Agreement of a returned pair set with a reference pair set (pairs compared as ordered pairs). */
export interface EdgeScores {
  /** Distinct strict pairs returned (self-pairs [p, p] are not counted). */
  returned: number;
  /** Pairs in the reference relation. */
  reference: number;
  /** Returned pairs that are in the reference. */
  common: number;
  /** common / returned; the response-scoring conventions of §3.3 apply to empty sets (see `edgeScores`). */
  precision: number;
  /** common / reference. */
  recall: number;
  /** 1 when the two pair sets are equal. */
  exact: number;
}

const pairKey = (p: string, q: string) => `${p}\u0000${q}`;

/**
 * Scores a returned relation against a reference relation as sets of ordered pairs, with the same
 * conventions as a recommendation against a fringe (§3.3): both empty → precision = recall = 1; returned
 * empty, reference not → 0; returned not empty, reference empty → recall 1, precision 0. Repeated pairs
 * count once; self-pairs [p, p] are ignored (they state no strict prerequisite).
 *
 * @example
 * edgeScores([['A', 'B'], ['A', 'C']], [['A', 'B'], ['B', 'C']]); // => { returned: 2, reference: 2, common: 1, precision: 0.5, recall: 0.5, exact: 0 }
 */
export function edgeScores(returned: ReadonlyArray<Pair>, reference: ReadonlyArray<Pair>): EdgeScores {
  const r = [...new Set(returned.filter(([p, q]) => p !== q).map(([p, q]) => pairKey(p, q)))];
  const t = [...new Set(reference.filter(([p, q]) => p !== q).map(([p, q]) => pairKey(p, q)))];
  const s = scoreResponse(r, t);
  const tSet = new Set(t);
  return {
    returned: r.length,
    reference: t.length,
    common: r.filter((k) => tSet.has(k)).length,
    precision: s.precision,
    recall: s.recall,
    exact: s.exact,
  };
}

/** Direct successors of each component under `pairs` (self-pairs skipped). */
function successors(ids: readonly string[], pairs: ReadonlyArray<Pair>): Map<string, string[]> {
  const next = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const [p, q] of pairs) {
    if (p === q) continue;
    const list = next.get(p);
    if (!list || !next.has(q)) throw new InputError(`pair [${p}, ${q}] names a component outside ${ids.join(', ')}`, { item: `${p},${q}` });
    if (!list.includes(q)) list.push(q);
  }
  return next;
}

/**
 * The strict transitive closure of a relation given by direct pairs: every [p, q] with p ≠ q such that a
 * chain p → … → q exists. Defined for cyclic input too: components on a common cycle reach each other
 * in both directions (but [p, p] is never listed). Pairs in canonical order (by index of p, then of q).
 *
 * @example
 * transitiveClosure(['A', 'B', 'C'], [['A', 'B'], ['B', 'C']]); // => [['A', 'B'], ['A', 'C'], ['B', 'C']]
 * transitiveClosure(['A', 'B', 'C'], [['A', 'B'], ['B', 'A']]); // => [['A', 'B'], ['B', 'A']]
 */
export function transitiveClosure(ids: readonly string[], pairs: ReadonlyArray<Pair>): Array<[string, string]> {
  const next = successors(ids, pairs);
  const out: Array<[string, string]> = [];
  for (const p of ids) {
    const seen = new Set<string>();
    const stack = [...next.get(p)!];
    while (stack.length > 0) {
      const q = stack.pop()!;
      if (seen.has(q)) continue;
      seen.add(q);
      stack.push(...next.get(q)!);
    }
    for (const q of ids) if (q !== p && seen.has(q)) out.push([p, q]);
  }
  return out;
}

/** True when the relation has a cycle (two distinct components each reachable from the other). */
export function hasCycle(ids: readonly string[], pairs: ReadonlyArray<Pair>): boolean {
  const closure = new Set(transitiveClosure(ids, pairs).map(([p, q]) => pairKey(p, q)));
  for (const key of closure) {
    const [p, q] = key.split('\u0000') as [string, string];
    if (closure.has(pairKey(q, p))) return true;
  }
  return false;
}

/**
 * The outer fringe that a (possibly wrong, possibly cyclic) graph implies for a mastered set K: every
 * component q ∉ K all of whose prerequisites under the graph — every p ≠ q with p →…→ q in the returned
 * pairs — are in K. Result in the order of `ids`.
 *
 * Rule for cycles: the closure of a cyclic graph is a quasi-order in which the components of a cycle
 * require each other. Hence no member of a cycle is implied while another member is unmastered, and a
 * cycle none of whose members is mastered blocks itself and everything after it. This is Eq. 2 of the
 * paper applied to the model's quasi-order, checking q's own prerequisites only: K is the mastered set
 * the prompt states, and it is taken as given even where the model's graph would not call it a state.
 *
 * A and B on a cycle wait for each other, and C waits for A:
 * @example
 * impliedFringe(['A', 'B', 'C'], [['A', 'B'], ['B', 'C']], []); // => ['A']
 * impliedFringe(['A', 'B', 'C'], [['A', 'B'], ['B', 'C']], ['A']); // => ['B']
 * impliedFringe(['A', 'B', 'C'], [['A', 'B'], ['B', 'A'], ['A', 'C']], []); // => []
 */
export function impliedFringe(ids: readonly string[], pairs: ReadonlyArray<Pair>, state: readonly string[]): string[] {
  const mastered = new Set(state);
  const prerequisites = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const [p, q] of transitiveClosure(ids, pairs)) prerequisites.get(q)!.push(p);
  return ids.filter((q) => !mastered.has(q) && prerequisites.get(q)!.every((p) => mastered.has(p)));
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

export type GraphVerdict = 'correct' | 'wrong-structure' | 'inconsistent';

/** One valid P1 response: its graph, its recommendation and the verdict. */
export interface GraphRow {
  runId: string;
  model: string;
  domain: string;
  order: number;
  state: string[];
  stateKey: string;
  /** The returned direct pairs (distinct, self-pairs removed, canonical order). */
  pairs: Array<[string, string]>;
  /** Number of self-pairs [p, p] the response listed (ignored everywhere else). */
  selfPairs: number;
  cyclic: boolean;
  recommended: string[];
  /** The reference outer fringe of the state. */
  reference: string[];
  /** The fringe the returned graph implies for the state (`impliedFringe`). */
  implied: string[];
  /** Returned pairs vs the reference cover relation. */
  direct: EdgeScores;
  /** Closure of the returned pairs vs the reference surmise relation. */
  closure: EdgeScores;
  /** recommended = reference. */
  correct: boolean;
  /** recommended = implied (the model followed its own graph). */
  consistent: boolean;
  /** implied = reference (the graph, right or wrong, gives the right next steps for this state). */
  impliedCorrect: boolean;
  verdict: GraphVerdict;
}

/** Reference relations per domain, computed once. */
export interface ReferenceRelations {
  cover: Array<[string, string]>;
  surmise: Array<[string, string]>;
}

export function referenceRelations(domain: Domain): ReferenceRelations {
  return { cover: coverRelation(domain), surmise: surmiseRelation(domain) };
}

/**
 * Analyses one valid P1 response. `pairs` must name components of the domain (validated upstream);
 * `reference` is the state's outer fringe.
 *
 * Example (domain A→B→C, K = {}, reference fringe [A]): pairs [[B,A],[B,C]] and recommendation [B] →
 * implied [B], verdict 'wrong-structure'; recommendation [C] → verdict 'inconsistent'.
 */
export function analyzeGraph(
  domain: Domain,
  response: { runId: string; model: string; order: number; state: readonly string[]; stateKey?: string; recommended: readonly string[]; reference: readonly string[]; pairs: ReadonlyArray<Pair> },
  relations: ReferenceRelations = referenceRelations(domain),
): GraphRow {
  const ids = domain.ids;
  const idx = domain.index;
  const strict = response.pairs.filter(([p, q]) => p !== q);
  const distinct = [...new Map(strict.map(([p, q]) => [pairKey(p, q), [p, q] as [string, string]])).values()].sort(
    (a, b) => idx.get(a[0])! - idx.get(b[0])! || idx.get(a[1])! - idx.get(b[1])!,
  );
  const implied = impliedFringe(ids, distinct, response.state);
  const correct = sameSet(response.recommended, response.reference);
  const consistent = sameSet(response.recommended, implied);
  return {
    runId: response.runId,
    model: response.model,
    domain: domain.id,
    order: response.order,
    state: [...response.state],
    stateKey: response.stateKey ?? `${domain.id}:{${response.state.join(',')}}`,
    pairs: distinct,
    selfPairs: response.pairs.length - strict.length,
    cyclic: hasCycle(ids, distinct),
    recommended: [...response.recommended],
    reference: [...response.reference],
    implied,
    direct: edgeScores(distinct, relations.cover),
    closure: edgeScores(transitiveClosure(ids, distinct), relations.surmise),
    correct,
    consistent,
    impliedCorrect: sameSet(implied, response.reference),
    verdict: correct ? 'correct' : consistent ? 'wrong-structure' : 'inconsistent',
  };
}

const PrerequisitesSchema = z.object({
  prerequisites: z.array(z.tuple([z.string(), z.string()])).nullable().optional(),
});

/** The P1 part of a responses file: analysed valid responses plus the counts left out. */
export interface P1Graphs {
  rows: GraphRow[];
  /** P1 records returned but invalid (no usable graph; scored 0 in the main analysis). */
  invalid: number;
  /** P1 records with no model output. */
  missing: number;
}

/**
 * Picks the P1 responses out of validated records and analyses their graphs. `lines` are the raw lines
 * the records came from (for the `prerequisites` field, canonical pairs as written by the collector).
 * InputError naming file and line when a valid P1 line has no `prerequisites` array or names a component
 * outside its domain.
 */
export function p1GraphRecords(
  records: readonly ResponseRecord[],
  lines: ReadonlyArray<{ line: number; value: unknown }>,
  domains: readonly Domain[],
  file = '<responses>',
): P1Graphs {
  const byLine = new Map(lines.map((l) => [l.line, l.value]));
  const byDomain = new Map(domains.map((d) => [d.id, { domain: d, relations: referenceRelations(d) }]));
  const rows: GraphRow[] = [];
  let invalid = 0;
  let missing = 0;
  for (const r of records) {
    if (r.condition !== 'P1') continue;
    if (r.status === 'invalid') invalid += 1;
    if (r.status === 'missing') missing += 1;
    if (r.status !== 'valid') continue;
    const where = `${file}:${r.line}`;
    const parsed = PrerequisitesSchema.safeParse(byLine.get(r.line));
    if (!parsed.success) throw new InputError(`${where}: ${describeZodIssues(parsed.error.issues)}`, { file, line: r.line });
    const pairs = parsed.data.prerequisites;
    if (pairs === null || pairs === undefined) {
      throw new InputError(`${where}: prerequisites: a valid P1 response needs the array of returned pairs`, { file, line: r.line });
    }
    const { domain, relations } = byDomain.get(r.domain)!;
    for (const [p, q] of pairs) {
      for (const id of [p, q]) {
        if (!domain.index.has(id)) {
          throw new InputError(`${where}: prerequisites: unknown component ${JSON.stringify(id)} in domain ${domain.id}`, { file, line: r.line, item: id });
        }
      }
    }
    rows.push(
      analyzeGraph(
        domain,
        { runId: r.runId, model: r.model, order: r.order, state: r.state, stateKey: r.stateKey, recommended: r.recommended!, reference: r.reference, pairs },
        relations,
      ),
    );
  }
  return { rows, invalid, missing };
}

/** Verdict counts and mean edge scores of a group of graph rows. */
export interface GraphSummaryRow {
  group: string;
  responses: number;
  correct: number;
  'wrong-structure': number;
  inconsistent: number;
  /** Responses whose recommendation equals their own graph's fringe (any verdict). */
  consistent: number;
  /** Responses whose own graph implies the reference fringe for their state. */
  implied_correct: number;
  /** Returned graphs equal to the cover relation / whose closure equals the surmise relation. */
  direct_exact: number;
  closure_exact: number;
  cyclic: number;
  direct_precision: number;
  direct_recall: number;
  closure_precision: number;
  closure_recall: number;
}

/**
 * Summarises graph rows per group (`key` = 'model', 'domain', or a function), groups sorted by name;
 * `key` = null gives one row named 'all'. Edge precision/recall are means over responses.
 */
export function graphSummaryBy(rows: readonly GraphRow[], key: 'model' | 'domain' | null | ((r: GraphRow) => string)): GraphSummaryRow[] {
  const keyOf = key === null ? () => 'all' : typeof key === 'function' ? key : (r: GraphRow) => r[key];
  const groups = groupBy(rows, keyOf);
  const meanOf = (g: GraphRow[], f: (r: GraphRow) => number) => mean(g.map(f));
  const count = (g: GraphRow[], f: (r: GraphRow) => boolean) => g.filter(f).length;
  return [...groups.keys()].sort().map((group) => {
    const g = groups.get(group)!;
    return {
      group,
      responses: g.length,
      correct: count(g, (r) => r.verdict === 'correct'),
      'wrong-structure': count(g, (r) => r.verdict === 'wrong-structure'),
      inconsistent: count(g, (r) => r.verdict === 'inconsistent'),
      consistent: count(g, (r) => r.consistent),
      implied_correct: count(g, (r) => r.impliedCorrect),
      direct_exact: count(g, (r) => r.direct.exact === 1),
      closure_exact: count(g, (r) => r.closure.exact === 1),
      cyclic: count(g, (r) => r.cyclic),
      direct_precision: meanOf(g, (r) => r.direct.precision),
      direct_recall: meanOf(g, (r) => r.direct.recall),
      closure_precision: meanOf(g, (r) => r.closure.precision),
      closure_recall: meanOf(g, (r) => r.closure.recall),
    };
  });
}
