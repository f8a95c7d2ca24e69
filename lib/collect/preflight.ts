import { InputError } from '../errors';
import type { CompletionRequest, Provider } from '../provider/contract';

/**
 * Pre-flight: before a design is dispatched, each model whose provider offers `preflight` is asked
 * once (a cheap request the provider shapes itself) whether the model exists and accepts the schema,
 * the output cap and the parameters. Notes are printed; a refusal stops the run before any cell is
 * requested or any file is written (PreflightError, exit 4 in the CLI), with the provider's message
 * and its fix. `--no-preflight` skips it.
 */

export type PreflightResult = { ok: true; notes: string[] } | { ok: false; message: string; remedy: string };

/**
 * The optional provider hooks of the providers contract (lib/collect/providers implements them where
 * the API allows): `preflight`, and `settings` — every setting that defines a cell (API, sampling,
 * reasoning effort, thinking, output cap), recorded in the fingerprint and each final record.
 */
export type PreflightProvider = Provider & {
  preflight?(req: CompletionRequest): Promise<PreflightResult>;
  settings?(): Record<string, unknown>;
};

export class PreflightError extends InputError {
  constructor(
    readonly model: string,
    readonly providerMessage: string,
    readonly remedy: string,
  ) {
    super(`pre-flight check of ${model} failed: ${providerMessage}`, { item: model });
  }
}

/**
 * Runs the pre-flight of every model in `models` that has a pending request (`firstRequest` gives
 * it, or null when nothing of that model is pending). Returns the notes per model.
 */
export async function runPreflights(
  models: readonly string[],
  providerFor: (model: string) => PreflightProvider,
  firstRequest: (model: string) => CompletionRequest | null,
  onNote: (model: string, note: string) => void = () => {},
): Promise<Record<string, string[]>> {
  const notes: Record<string, string[]> = {};
  for (const model of models) {
    const provider = providerFor(model);
    const request = firstRequest(model);
    if (typeof provider.preflight !== 'function' || request === null) continue;
    const result = await provider.preflight(request);
    if (!result.ok) throw new PreflightError(model, result.message, result.remedy);
    notes[model] = result.notes;
    for (const note of result.notes) onNote(model, note);
  }
  return notes;
}
