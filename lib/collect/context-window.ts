import { InputError } from '../errors';
import { loadCatalogue, lookupModel, type Catalogue } from './providers';
import type { ResolvedTargets } from './providers/endpoints';
import type { DryRunReport } from './runner';

/**
 * The one context-window check of a design, shared by `kstbench collect` (its --dry-run and a live run
 * before the first call) and `kstbench study check`: a model whose longest pending prompt is over its
 * context window would have every such call refused by the API, yet the cells were priced as spendable.
 */

/** A model's context window in tokens: its --models-file / models_file entry, else the catalogue's; null when unknown. */
export function contextWindowOf(targets: ResolvedTargets, spec: string, catalogue: Catalogue = loadCatalogue()): number | null {
  return targets.optionsFor(spec).model.context_window ?? lookupModel(catalogue, spec)?.entry.context_window.value ?? null;
}

/** How a caller names what it refuses: the model's entry, where the window came from, and what to leave out. */
export interface ContextWindowWording {
  /** The prefix naming the model's entry (e.g. `study.json: models[0]`, `--models`), and its InputError item. */
  entry(i: number): { where: string; item: string; file?: string };
  /** Where the window comes from, e.g. `--models-file, else config/models.json`. */
  windowSource: string;
  /** The fields or flags a design's prompts come from, e.g. `--conditions, --states, --domains`. */
  designFields: string;
}

/** Throws one InputError line for the first model whose longest prompt in `cost` is over its window. */
export function checkContextWindows(models: ReadonlyArray<{ spec: string; contextWindow: number | null }>, cost: Pick<DryRunReport, 'models'>, wording: ContextWindowWording): void {
  models.forEach((m, i) => {
    const window = m.contextWindow;
    const largest = cost.models.find((l) => l.model === m.spec)?.largestPrompt;
    if (window === null || !largest || largest.tokens <= window) return;
    const { where, item, file } = wording.entry(i);
    throw new InputError(
      `${where}: ${m.spec}: the longest prompt of the design, cell ${largest.runId}, is about ${largest.tokens} tokens (prompt characters / 4), over the model's context window of ${window} (${wording.windowSource}); leave out the condition or domain it comes from (${wording.designFields}), or use a model with a larger window`,
      { ...(file !== undefined ? { file } : {}), item },
    );
  });
}
