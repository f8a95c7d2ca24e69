import { shuffleInPlace } from '../stats/shuffle';
import { createHash } from 'node:crypto';
import seedrandom from 'seedrandom';
import { InputError } from '../errors';

/**
 * The fully crossed collection design of [KST-2026] §4.3: every selected state × condition × model ×
 * presentation order is one cell (50 × 4 × 6 × 2 = 2,400 in the study). Within each model the cells are
 * shuffled deterministically so that domains, states, conditions and orders are interspersed over
 * collection time (a rate-limit burst or a quota stop then does not hit one condition only).
 */

/** The states to collect for one domain: all states (enumerateStates) or a documented sample. */
export interface DomainStates {
  domain: string;
  /** Each state as canonical IDs in canonical order. */
  states: ReadonlyArray<ReadonlyArray<string>>;
}

export interface DesignCell {
  runId: string;
  /** Model spec `provider:model` as given on the command line. */
  model: string;
  domain: string;
  state: string[];
  condition: string;
  /** 1-based presentation order. */
  order: number;
}

export interface DesignOptions {
  models: readonly string[];
  conditions: readonly string[];
  /** Number of presentation orders (1..orders). */
  orders: number;
  /** Shuffle seed, recorded in run.json. */
  seed: string;
}

/**
 * The canonical key of a cell: `kst|<domain>|<state ids joined by ','  or '∅'>|<condition>|o<order>|<model>`.
 * It depends only on the cell's content, never on position, date or machine.
 */
export function cellKey(cell: Omit<DesignCell, 'runId'>): string {
  const state = cell.state.length === 0 ? '∅' : cell.state.join(',');
  return `kst|${cell.domain}|${state}|${cell.condition}|o${cell.order}|${cell.model}`;
}

/**
 * Stable, readable run ID: `<domain>.<condition>.o<order>.<first 12 hex of sha256(cellKey)>`, e.g.
 * `slope.P2.o1.3fa9c0d1e2b4`. The readable part lets a person grep the logs; the hash makes it unique
 * per state and model (48 bits: collision odds for 10^4 cells ≈ 2·10^-7).
 */
export function runIdFor(cell: Omit<DesignCell, 'runId'>): string {
  const hash = createHash('sha256').update(cellKey(cell), 'utf8').digest('hex').slice(0, 12);
  return `${cell.domain}.${cell.condition}.o${cell.order}.${hash}`;
}

/** The one seeded Fisher–Yates shuffle lives in lib/stats; re-exported for the design's callers. */
export { shuffleInPlace };

/**
 * Builds the design: models in the given order; within a model, every (domain, state, condition, order)
 * cell, shuffled by seedrandom(`<seed>|<model>`). The same inputs give the same cells in the same order
 * on any machine; adding a model does not reshuffle the others.
 */
export function buildDesign(domains: readonly DomainStates[], options: DesignOptions): DesignCell[] {
  if (options.orders < 1) throw new RangeError('orders must be >= 1');
  const design: DesignCell[] = [];
  const seen = new Set<string>();
  for (const model of options.models) {
    const cells: DesignCell[] = [];
    for (const { domain, states } of domains) {
      for (const state of states) {
        for (const condition of options.conditions) {
          for (let order = 1; order <= options.orders; order++) {
            const base = { model, domain, state: [...state], condition, order };
            const runId = runIdFor(base);
            if (seen.has(runId)) throw new InputError(`duplicate design cell ${cellKey(base)} (a state listed twice?)`, { item: runId });
            seen.add(runId);
            cells.push({ runId, ...base });
          }
        }
      }
    }
    // One push per cell: spreading the shuffled cells as arguments overflowed the stack from about
    // 120,000 cells per model (a 117,649-state domain × 4 conditions × 2 orders).
    for (const cell of shuffleInPlace(cells, seedrandom(`${options.seed}|${model}`))) design.push(cell);
  }
  return design;
}
