/**
 * The `--models-file FILE` option and per-model routing for the collect commands, kept apart from
 * the commands so they wire it in with one spread each:
 *   options: `{ ...MODELS_FILE_OPTION, ... }`
 *   params:  `...modelsFileParam(values)` → `{ modelsFile?: string }`
 * The collector then resolves every model with
 * `resolveModelTargets(params.models, { baseUrl: params.baseUrl, modelsFile: params.modelsFile })`
 * (lib/collect/providers/endpoints.ts) and builds each provider with
 * `createProvider(spec, { ...targets.optionsFor(spec), env })`.
 */
import { UsageError } from '../common';

export const MODELS_FILE_OPTION = { 'models-file': { kind: 'path' } } as const;

/** Help lines for the option (to paste into a command's help text). */
export const MODELS_FILE_HELP = `  --models-file FILE       per-model base URL, key variable, token field, schema dialect, output cap,
                           context window, reasoning effort, thinking (JSON; see
                           lib/collect/providers/README.md); --models may also say spec@URL`;

export function modelsFileParam(values: Record<string, unknown>): { modelsFile?: string } {
  const v = values['models-file'];
  if (v === undefined) return {};
  if (typeof v !== 'string' || v.trim() === '') throw new UsageError('--models-file needs a file name');
  return { modelsFile: v };
}
