/**
 * State-level aggregation (§4.4 of Steiner & Hochweber 2026): each knowledge state gets equal weight, so
 * response-level scores are first averaged within a state (across models and presentation orders), and
 * condition contrasts are paired differences of those state means.
 */
import { InputError } from '../errors';
import { mean } from './mean';

export interface StateAccessors<R, K> {
  /** The key of the state a record belongs to (e.g. `${domain}/${stateId}`). */
  state: (record: R) => K;
  /** The record's score to average. */
  value: (record: R) => number;
}

/**
 * Mean value per state: Map key → the mean (lib/stats/mean.ts, compensated) of its records' values;
 * keys appear in order of first occurrence. A non-finite value is an InputError naming the record.
 *
 * @example
 * stateMeans([{ s: 'A', v: 1 }, { s: 'B', v: 0 }, { s: 'A', v: 0 }], { state: (r) => r.s, value: (r) => r.v }); // => new Map([['A', 0.5], ['B', 0]])
 */
export function stateMeans<R, K>(records: Iterable<R>, accessors: StateAccessors<R, K>): Map<K, number> {
  const values = new Map<K, number[]>();
  let index = 0;
  for (const record of records) {
    const key = accessors.state(record);
    const value = accessors.value(record);
    if (!Number.isFinite(value)) {
      throw new InputError(`stateMeans: record ${index} (state ${String(key)}) has value ${value}, expected a finite number`, {
        item: String(key),
      });
    }
    const list = values.get(key);
    if (list) list.push(value);
    else values.set(key, [value]);
    index += 1;
  }
  const means = new Map<K, number>();
  for (const [key, list] of values) means.set(key, mean(list));
  return means;
}

export interface PairedDifferences {
  /** Keys present in both maps, sorted by code unit (Array.prototype.sort default). */
  readonly keys: string[];
  /** differences[i] = first.get(keys[i]) − second.get(keys[i]). */
  readonly differences: number[];
  /** Keys only in `first` / only in `second`, sorted; they are left out of the pairing and reported here. */
  readonly onlyInFirst: string[];
  readonly onlyInSecond: string[];
}

/**
 * Paired differences first − second over the states both conditions observed. A state missing from one
 * condition has no partner and cannot enter a paired contrast; it is dropped and listed in
 * `onlyInFirst` / `onlyInSecond` so the caller can report or reject the imbalance.
 *
 * @example
 * pairedDifferences(new Map([['b', 1], ['a', 0.5], ['c', 1]]), new Map([['a', 0.25], ['b', 1]])); // => { keys: ['a', 'b'], differences: [0.25, 0], onlyInFirst: ['c'], onlyInSecond: [] }
 */
export function pairedDifferences(first: ReadonlyMap<string, number>, second: ReadonlyMap<string, number>): PairedDifferences {
  const keys = [...first.keys()].filter((key) => second.has(key)).sort();
  return {
    keys,
    differences: keys.map((key) => first.get(key)! - second.get(key)!),
    onlyInFirst: [...first.keys()].filter((key) => !second.has(key)).sort(),
    onlyInSecond: [...second.keys()].filter((key) => !first.has(key)).sort(),
  };
}
