import { compileStructure, countForJson, countStatesExact, forEachStateBits, outerFringeBits, requireBudget, UNLIMITED, type Domain, type WorkBudget } from '../kst';

export interface Table1Row {
  domain: string;
  components: number;
  /** Exact: a number up to 2^53 − 1, above that the decimal digits as a string (CSV and JSON print them alike). */
  states: number | string;
  terminal_states: number;
}

/**
 * Table 1: size of each domain and of its knowledge space. States are counted exactly with countStatesExact (BigInt), which
 * does not enumerate a quasi-ordinal space (a star of 1 + 40 tasks is counted at once). A terminal
 * state has an empty outer fringe; in a quasi-ordinal space that is only the full domain Q (every
 * other state has a minimal missing task), so the count is 1 without enumeration. A space that is not
 * quasi-ordinal is walked once to count its terminal states (a state may have no single next notion).
 */
export function table1(domains: readonly Domain[], budget: WorkBudget = UNLIMITED): Table1Row[] {
  return [...domains]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((d) => {
      const states = countStatesExact(d, budget);
      return { domain: d.id, components: d.ids.length, states: countForJson(states), terminal_states: terminalStates(d, states, budget) };
    });
}

/** Terminal states; the walk of a space that is not quasi-ordinal is refused up front when it passes `budget`. */
function terminalStates(domain: Domain, states: bigint, budget: WorkBudget): number {
  if (domain.quasiOrdinal) return 1;
  requireBudget(budget, states, `counting the terminal states of domain "${domain.id}" (${states} states)`);
  const s = compileStructure(domain);
  const fringe = new Uint32Array(s.words);
  let terminal = 0;
  forEachStateBits(s, (bits) => {
    outerFringeBits(s, bits, fringe);
    if (fringe.every((w) => w === 0)) terminal++;
  });
  return terminal;
}
