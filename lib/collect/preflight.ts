/**
 * The pre-flight: before the pool starts, each real (not simulated) model's first pending cell is
 * sent alone, through the same attempt path as every cell. It runs after the lock and the
 * fingerprint check (inside the lifecycle), its attempt lines are in attempts.jsonl with
 * `preflight: true`, and its cost is in the run's cost. Batch mode sends it live before the first
 * batch is submitted (batch-mode.ts).
 *
 * Why the first real cell rather than a tiny probe: it costs nothing extra — its answer is kept as the
 * cell's final record, so nothing is paid twice — and it checks exactly what every cell will meet: the
 * real allowance, reasoning effort, schema and prompt size. A tiny probe with the smallest allowance
 * cannot see the failure that matters most (answers cut off at the real allowance: a reasoning model's
 * tiny probe is always cut off), nor an allowance above the model's cap.
 *
 * What stops the run (exit 4, or 3 for quota), with the provider's message and a fix, before any other
 * cell is sent: a failure the provider declares deterministic (unknown model, parameter or cap refused,
 * bad key), a cell that never reaches the server after its retries, an answer still cut off after the
 * one retry with a larger allowance. A transient failure (429, 5xx, reset, cut body) is retried with
 * backoff like any cell. `--no-preflight` skips it (the first cells then go with the pool).
 */

/**
 * The fix `kstbench collect` and `psi collect` name when the pre-flight's answer is still cut off; a
 * study, which has none of these flags, passes its own (LifecycleOptions.cutOffFix).
 */
export const CUT_OFF_FIX =
  'raise --max-output-tokens (or max_output_tokens for this model in --models-file; a new --out directory, since the allowance is part of the design), lower the reasoning effort, or pass --no-preflight to collect cut-off answers as invalid';

/**
 * Indexes (into `pending`) of the pre-flight cells: the first pending cell of each model that
 * `needsPreflight` (real models; the simulation has nothing to check).
 * @example
 * preflightCells([{ model: 'a' }, { model: 'a' }, { model: 'b' }, { model: 's' }], (m) => m !== 's'); // => [0, 2]
 */
export function preflightCells(pending: ReadonlyArray<{ model: string }>, needsPreflight: (model: string) => boolean): number[] {
  const seen = new Set<string>();
  const out: number[] = [];
  pending.forEach((job, index) => {
    if (seen.has(job.model)) return;
    seen.add(job.model);
    if (needsPreflight(job.model)) out.push(index);
  });
  return out;
}
