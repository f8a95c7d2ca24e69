/**
 * Which row of the paper's Table 4 a model is set beside. A simulated profile (`simulated:sim-a`) is
 * calibrated towards one published model (lib/simulation/paper-models.ts says which); a real model is
 * matched to a published name by letters and digits only ("openai:gpt-5.6-sol" ↔ "GPT-5.6 Sol").
 */
import { paperModelStoodInFor } from '../simulation/paper-models';

const letters = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The model name without its provider prefix: "simulated:sim-a" → "sim-a". */
export function shortModelName(model: string): string {
  const colon = model.indexOf(':');
  return colon >= 0 ? model.slice(colon + 1) : model;
}

/**
 * The published Table 4 row a model is compared with, or undefined.
 * Examples: paperRowFor('simulated:sim-a', names) → 'Claude Fable 5'; paperRowFor('openai:gpt-5.6-sol', names)
 * → 'GPT-5.6 Sol' when names includes it; paperRowFor('x:unknown', names) → undefined.
 */
export function paperRowFor(model: string, publishedModels: readonly string[]): string | undefined {
  const short = shortModelName(model);
  if (model.startsWith('simulated:') || short.startsWith('sim-')) {
    const standIn = paperModelStoodInFor(short);
    if (standIn?.study === 'kst') return standIn.paperModel;
  }
  return publishedModels.find((name) => letters(name) === letters(short));
}

/** `paperRowFor` for several models: { model → paper row } for those that have one. */
export function paperRows(models: Iterable<string>, publishedModels: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of models) {
    const row = paperRowFor(m, publishedModels);
    if (row !== undefined) out[m] = row;
  }
  return out;
}

/** A short display label: "simulated:sim-a" with mirror "Claude Fable 5" → "sim-a ≈ Claude Fable 5". */
export function modelLabel(model: string, mirrors: Readonly<Record<string, string>>): string {
  const short = shortModelName(model);
  const mirror = mirrors[model];
  return mirror === undefined || letters(mirror) === letters(short) ? short : `${short} ≈ ${mirror}`;
}
