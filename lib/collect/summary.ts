import type { EngineResult } from './lifecycle';
import type { CollectOutcome } from './runner';

/**
 * The cells recorded before this run, done and missing apart: a `missing` record is no answer, and
 * counting it as "already complete" would hide that a plain re-run does not request it.
 * @example
 * resumedWording({ resumed: 16, resumedMissing: 6 }); // => '10 already complete, 6 missing from an earlier run (--retry-missing requests them)'
 */
export function resumedWording(result: Pick<EngineResult, 'resumed' | 'resumedMissing'>): string {
  const done = result.resumed - result.resumedMissing;
  return result.resumedMissing > 0 ? `${done} already complete, ${result.resumedMissing} missing from an earlier run (--retry-missing requests them)` : `${done} already complete`;
}

/**
 * This run's attempts: API calls, and the simulated respondent's answers apart (no API was called).
 * @example
 * attemptsWording({ attempts: 5, simulatedAttempts: 0 }); // => '5 API attempts'
 */
export function attemptsWording(result: Pick<EngineResult, 'attempts' | 'simulatedAttempts'>): string {
  const api = `${result.attempts - result.simulatedAttempts} API attempts`;
  return result.simulatedAttempts > 0 ? `${api}, ${result.simulatedAttempts} simulated (no API)` : api;
}

/** One line on a finished collection, as a notebook prints it (the CLI's reportRun adds the next step). */
export function outcomeLine(outcome: CollectOutcome): string {
  const cost = outcome.costUsd === null ? 'unknown' : `$${outcome.costUsd.toFixed(2)}`;
  const simulated = outcome.deterministic ? ' (SIMULATED: deterministic)' : '';
  return `${outcome.status}: ${outcome.total} cells, ${resumedWording(outcome)}, written ${JSON.stringify(outcome.written)}, ${attemptsWording(outcome)}, estimated cost ${cost}${simulated}`;
}
