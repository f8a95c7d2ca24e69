import { compileStructure, countStates, forEachStateBits, outerFringeBits, type Domain } from '../kst';

export interface Table1Row {
  domain: string;
  components: number;
  states: number;
  terminal_states: number;
}

/**
 * Table 1: size of each domain and of its knowledge space. States are counted with countStates, which
 * does not enumerate a quasi-ordinal space (a star of 1 + 40 tasks is counted at once). A terminal
 * state has an empty outer fringe; in a quasi-ordinal space that is only the full domain Q (every
 * other state has a minimal missing task), so the count is 1 without enumeration. A space that is not
 * quasi-ordinal is walked once to count its terminal states (a state may have no single next notion).
 */
export function table1(domains: readonly Domain[]): Table1Row[] {
  return [...domains]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((d) => ({ domain: d.id, components: d.ids.length, states: countStates(d), terminal_states: terminalStates(d) }));
}

function terminalStates(domain: Domain): number {
  if (domain.quasiOrdinal) return 1;
  const s = compileStructure(domain);
  const fringe = new Uint32Array(s.words);
  let terminal = 0;
  forEachStateBits(s, (bits) => {
    outerFringeBits(s, bits, fringe);
    if (fringe.every((w) => w === 0)) terminal++;
  });
  return terminal;
}
