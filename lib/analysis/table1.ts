import { countStates, type Domain } from '../kst';

export interface Table1Row {
  domain: string;
  components: number;
  states: number;
  terminal_states: number;
}

/**
 * Table 1: size of each domain and of its knowledge space. A terminal state has an empty outer fringe;
 * in a quasi-ordinal space that is only the full domain Q, so every domain has exactly one.
 */
export function table1(domains: readonly Domain[]): Table1Row[] {
  return [...domains]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((d) => ({ domain: d.id, components: d.ids.length, states: countStates(d), terminal_states: 1 }));
}
