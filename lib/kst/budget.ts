import { InputError } from '../errors';

/**
 * A work budget for enumeration, counting and planning: each step of work is charged, and the first
 * charge past the limit throws a BudgetError naming the flag that raises the limit. Work whose size is
 * known beforehand (a state count) is checked before it starts with `require`; work whose size is not
 * known (a counting recursion, a union-closure walk) is charged as it goes with `spend`.
 */

/** Default budget of every command that enumerates or counts (`--max-states`): 50 million steps. */
export const DEFAULT_WORK_BUDGET = 50_000_000;

/** Work past a budget; an InputError (exit 1) whose message names the flag that raises the budget. */
export class BudgetError extends InputError {}

export interface WorkBudget {
  /** At most this many steps (Infinity = no limit). */
  readonly limit: number;
  /** The flag that raises it, as the error names it (e.g. `--max-states`). */
  readonly flag: string;
  /** Steps charged so far. */
  spent: number;
}

/** A budget of `limit` steps (0 = no limit) raised by `flag`. */
export function workBudget(limit: number, flag = '--max-states'): WorkBudget {
  return { limit: limit === 0 ? Infinity : limit, flag, spent: 0 };
}

/** A budget with no limit (the library default when the caller gives none). */
export const UNLIMITED: WorkBudget = Object.freeze({ limit: Infinity, flag: '--max-states', spent: 0 }) as WorkBudget;

function refuse(budget: WorkBudget, what: string, needs: string): never {
  throw new BudgetError(`${what} needs ${needs}, over the work budget ${budget.flag} ${budget.limit}; raise ${budget.flag} (0 = no limit) to allow it`, {
    item: budget.flag,
  });
}

/** Charges `steps` of `what`; throws a BudgetError once the total passes the limit. */
export function spend(budget: WorkBudget, steps: number, what: string): void {
  if (budget.limit === Infinity) return;
  budget.spent += steps;
  if (budget.spent > budget.limit) refuse(budget, what, `more than ${budget.limit} steps`);
}

/** Refuses work of a known size (`size` steps, e.g. a state count) before it starts. */
export function requireBudget(budget: WorkBudget, size: bigint | number, what: string): void {
  if (budget.limit === Infinity) return;
  if (BigInt(size) > BigInt(budget.limit)) refuse(budget, what, `${size} steps`);
}
