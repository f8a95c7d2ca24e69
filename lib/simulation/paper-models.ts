/**
 * The paper-model correspondence: which published model each simulated model stands in for. Every
 * profile of the simulated KST respondent is calibrated towards one row of Table 4 of the KST paper
 * [KST-2026], and every simulated tutor imitates the reported behaviour of one model of the PSI paper
 * [PSI-2026]; the profile tables (kst-respondent/profiles.ts, psi-tutor/profiles.ts) record which, and
 * this module is the one place that reads them. The report layer sets a simulated model's numbers beside
 * the published ones through {@link paperModelStoodInFor}; nothing else looks inside a profile for it.
 */
import { SIMULATED_PROFILES } from './kst-respondent/profiles';
import { TUTOR_PROFILES } from './psi-tutor/profiles';

/** Which paper a simulated model belongs to, and the published model it stands in for there. */
export interface StandIn {
  /** `kst`: a KST respondent profile (`sim-a` … `sim-f`); `psi`: a PSI tutor profile (`sim-tutor-a` …). */
  study: 'kst' | 'psi';
  /** The published model's name exactly as the paper's table prints it. */
  paperModel: string;
}

const STAND_INS: ReadonlyMap<string, StandIn> = new Map<string, StandIn>([
  ...SIMULATED_PROFILES.map((p): [string, StandIn] => [p.name, { study: 'kst', paperModel: p.mirrors }]),
  ...Object.values(TUTOR_PROFILES).map((p): [string, StandIn] => [p.id, { study: 'psi', paperModel: p.mirrors }]),
]);

/**
 * The published model a simulated model stands in for, or undefined for any other model. Accepts the
 * collector's spec (`simulated:sim-a`) or the bare profile name (`sim-a`).
 *
 * @example
 * paperModelStoodInFor('simulated:sim-a'); // => { study: 'kst', paperModel: 'Claude Fable 5' }
 * paperModelStoodInFor('sim-tutor-b'); // => { study: 'psi', paperModel: 'Gemini' }
 * paperModelStoodInFor('openai:gpt-4o'); // => undefined
 */
export function paperModelStoodInFor(model: string): StandIn | undefined {
  const name = model.startsWith('simulated:') ? model.slice('simulated:'.length) : model;
  return STAND_INS.get(name);
}

/** The collector specs of the simulated models of one study, in profile order (`simulated:sim-a`, …). */
export function simulatedModelSpecs(study: 'kst' | 'psi'): string[] {
  return [...STAND_INS].filter(([, s]) => s.study === study).map(([name]) => `simulated:${name}`);
}
