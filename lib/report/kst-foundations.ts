/**
 * Tables and what-if helpers for the KST foundations notebook: the components with their prerequisites,
 * every knowledge state with its fringes, Table 1 beside the paper, and a domain with one more
 * prerequisite pair. Pure functions over lib/kst.
 */
import type { Table1Row } from '../analysis/table1';
import type { PublishedKst } from '../records/published-kst';
import { buildDomain, checkState, innerFringe, outerFringe, enumerateStates, surmiseRelation, type Domain } from '../kst';
import { stateLabel } from './kst-diagrams';

/** One row per component: its direct prerequisites (as given) and all prerequisites (surmise relation). */
export function componentRows(domain: Domain): Array<{ id: string; description: string; 'direct prerequisites': string; 'all prerequisites': string }> {
  const surmise = surmiseRelation(domain);
  return domain.components.map((c) => ({
    id: c.id,
    description: c.description,
    'direct prerequisites': domain.prerequisites.filter(([, q]) => q === c.id).map(([p]) => p).sort(byIndex(domain)).join(', '),
    'all prerequisites': surmise.filter(([, q]) => q === c.id).map(([p]) => p).join(', '),
  }));
}

const byIndex = (domain: Domain) => (a: string, b: string) => domain.index.get(a)! - domain.index.get(b)!;

/**
 * One row per knowledge state (enumeration order: by size, then canonical): the state, its size, the
 * outer fringe (what may be learned next — the benchmark's reference answer) and the inner fringe (what
 * was learned last, i.e. can be removed leaving a state).
 * Example (slope, state {SL1}): outer fringe {SL2,SL4}, inner fringe {SL1}.
 */
export function stateRows(domain: Domain): Array<{ state: string; size: number; 'outer fringe': string; 'inner fringe': string }> {
  return enumerateStates(domain).map((s) => ({
    state: stateLabel(s),
    size: s.length,
    'outer fringe': stateLabel(outerFringe(domain, s)),
    'inner fringe': stateLabel(innerFringe(domain, s)),
  }));
}

/** The published Table 1 (data/published/kst-benchmark-2026.json → table1), as the file's zod schema types it. */
export type PublishedTable1 = Pick<PublishedKst['table1'], 'rows' | 'total'>;

/**
 * Table 1 computed (from `table1(domains)`) beside the paper's, in the paper's row order, with a total
 * row; computed domains the paper does not list come last with empty paper columns, and a paper domain
 * missing from the computed rows has empty computed columns.
 */
export function table1Comparison(rows: readonly Table1Row[], published: PublishedTable1) {
  const order = [...published.rows.map((r) => r.domain), ...rows.map((r) => r.domain).filter((d) => !published.rows.some((p) => p.domain === d))];
  const line = (domain: string) => {
    const r = rows.find((x) => x.domain === domain);
    const p = published.rows.find((x) => x.domain === domain);
    return {
      domain,
      components: r?.components ?? null,
      'components (paper)': p?.components ?? null,
      states: r?.states ?? null,
      'states (paper)': p?.states ?? null,
      'terminal states': r?.terminal_states ?? null,
      'terminal states (paper)': p?.terminal_states ?? null,
    };
  };
  const sum = (f: (r: Table1Row) => number) => rows.reduce((s, r) => s + f(r), 0);
  return [
    ...order.map(line),
    {
      domain: 'Total',
      components: sum((r) => r.components),
      'components (paper)': published.total.components,
      states: sum((r) => Number(r.states)),
      'states (paper)': published.total.states,
      'terminal states': sum((r) => r.terminal_states),
      'terminal states (paper)': published.total.terminal_states,
    },
  ];
}

/**
 * The domain with extra direct prerequisite pairs `[p, q]` (p before q), validated like a domain file:
 * InputError for an unknown ID, a self-loop or a pair that closes a cycle. The original is unchanged.
 * The shipped slope domain (SL1 → SL2 → SL3 → SL5, SL1 → SL4 → SL5, SL5 → SL6, SL5 → SL7) has 11 states;
 * adding [SL4, SL2] makes SL2 need SL4, so SL1, SL4, SL2, SL3 are learned in one line and 9 remain.
 * @example
 * const { loadDomain, enumerateStates } = require('../kst');
 * const slope = loadDomain(require.resolve('../../../data/raw/domains/slope.json'));
 * enumerateStates(slope).length; // => 11
 * enumerateStates(withPrerequisites(slope, [['SL4', 'SL2']])).length; // => 9
 * slope.prerequisites.length; // => 7
 * withPrerequisites(slope, [['SL7', 'SL1']]); // throws /cycle/
 */
export function withPrerequisites(domain: Domain, pairs: ReadonlyArray<readonly [string, string]>): Domain {
  return buildDomain(
    {
      id: domain.id,
      title: domain.title,
      source: domain.source,
      components: domain.components.map((c) => ({ ...c })),
      prerequisites: [...domain.prerequisites, ...pairs].map(([p, q]) => [p, q] as [string, string]),
    },
    `${domain.id} + ${pairs.map(([p, q]) => `[${p}, ${q}]`).join(' ')}`,
  );
}

/**
 * One sentence about a set of mastered components: either that it is a knowledge state, with its outer
 * fringe, or why it is not (lib/kst's checkState reason). Never throws: bad input is the message.
 */
export function describeState(domain: Domain, state: readonly string[]): string {
  const check = checkState(domain, state);
  const sorted = [...state].sort((a, b) => (domain.index.get(a) ?? Infinity) - (domain.index.get(b) ?? Infinity));
  if (!check.ok) return `${stateLabel(sorted)} is not a knowledge state of ${domain.id}: ${check.reason.replace(/^not a knowledge state: /, '')}`;
  if (new Set(state).size !== state.length) return `${stateLabel(sorted)} lists a component twice; a state is a set`;
  const fringe = outerFringe(domain, sorted);
  return fringe.length === 0
    ? `${stateLabel(sorted)} is the full domain: nothing is left to learn (outer fringe ∅)`
    : `${stateLabel(sorted)} is a knowledge state of ${domain.id}; admissible next steps (outer fringe): ${stateLabel(fringe)}`;
}

/**
 * The outer fringe of each state in two structures on the same components, one line per state, to show
 * where a prerequisite relation (the "hull" of a structure with routes) gives another reference answer.
 * A set that is not a state of one of them is an InputError (lib/kst's outerFringe).
 * @example
 * const { loadDomain } = require('../kst');
 * const slope = loadDomain(require.resolve('../../../data/raw/domains/slope.json'));
 * outerFringeComparison({ label: 'A', domain: slope }, { label: 'B', domain: slope }, [[]]); // => "∅        outer fringe, A: {SL1}    B: {SL1}"
 */
export function outerFringeComparison(
  first: { label: string; domain: Domain },
  second: { label: string; domain: Domain },
  states: ReadonlyArray<readonly string[]>,
): string {
  return states
    .map((state) => `${stateLabel(state).padEnd(8)} outer fringe, ${first.label}: ${stateLabel(outerFringe(first.domain, state)).padEnd(8)} ${second.label}: ${stateLabel(outerFringe(second.domain, state))}`)
    .join('\n');
}
