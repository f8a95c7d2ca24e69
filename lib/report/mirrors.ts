/**
 * Which row of the paper's Table 4 a model is set beside. A simulated profile (`simulated:sim-a`) is
 * calibrated towards one published model (lib/simulation/paper-models.ts says which); a real model is
 * matched to a published name by letters and digits only ("openai:gpt-5.6-sol" ↔ "GPT-5.6 Sol").
 */
import { paperModelStoodInFor } from '../simulation/paper-models';

const letters = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * The model name without its provider prefix.
 * @example
 * shortModelName('simulated:sim-a'); // => 'sim-a'
 * shortModelName('openai-compatible:llama3.1:8b'); // => 'llama3.1:8b'
 * shortModelName('sim-a'); // => 'sim-a'
 */
export function shortModelName(model: string): string {
  const colon = model.indexOf(':');
  return colon >= 0 ? model.slice(colon + 1) : model;
}

/**
 * The published Table 4 row a model is compared with, or undefined: for a simulated profile the row
 * it is calibrated towards, for a real model the row of the same name (letters and digits compared).
 * @example
 * paperRowFor('simulated:sim-a', []); // => 'Claude Fable 5'
 * paperRowFor('openai:gpt-5.6-sol', ['Claude Fable 5', 'GPT-5.6 Sol']); // => 'GPT-5.6 Sol'
 * paperRowFor('x:unknown', ['GPT-5.6 Sol']); // => undefined
 */
export function paperRowFor(model: string, publishedModels: readonly string[]): string | undefined {
  const short = shortModelName(model);
  if (model.startsWith('simulated:') || short.startsWith('sim-')) {
    const standIn = paperModelStoodInFor(short);
    if (standIn?.study === 'kst') return standIn.paperModel;
  }
  return publishedModels.find((name) => letters(name) === letters(short));
}

/**
 * `paperRowFor` for several models: { model → paper row } for those that have one. The paper's Table 4
 * rows are results on the paper's domains: with `onDomains` (the domains of the responses) and
 * `paperDomains` (the paper's, Table 1) given, a model answering on any other domain is set beside no
 * row, so a simulated profile there is named by its profile (`sim-a`), not as a stand-in
 * (`sim-a ≈ Claude Fable 5`).
 * @example
 * paperRows(['simulated:sim-a'], [], { onDomains: ['fractions'], paperDomains: ['slope'] }); // => {}
 */
export function paperRows(
  models: Iterable<string>,
  publishedModels: readonly string[],
  domains: { onDomains: Iterable<string>; paperDomains: readonly string[] } | undefined = undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  if (domains !== undefined && [...domains.onDomains].some((d) => !domains.paperDomains.includes(d))) return out;
  for (const m of models) {
    const row = paperRowFor(m, publishedModels);
    if (row !== undefined) out[m] = row;
  }
  return out;
}

/**
 * A short display label. `mirrors` maps a model to the paper row it is set beside (for a simulated
 * profile, the Table 4 row it is calibrated towards); a row of the model's own name is not repeated.
 * @example
 * modelLabel('simulated:sim-a', { 'simulated:sim-a': 'Claude Fable 5' }); // => 'sim-a ≈ Claude Fable 5'
 * modelLabel('openai:gpt-5.6-sol', { 'openai:gpt-5.6-sol': 'GPT-5.6 Sol' }); // => 'gpt-5.6-sol'
 * modelLabel('openai:gpt-x', {}); // => 'gpt-x'
 */
export function modelLabel(model: string, mirrors: Readonly<Record<string, string>>): string {
  const short = shortModelName(model);
  const mirror = mirrors[model];
  return mirror === undefined || letters(mirror) === letters(short) ? short : `${short} ≈ ${mirror}`;
}
