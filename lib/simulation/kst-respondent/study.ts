/**
 * The KST study run in memory with the simulated respondent, for replicate corpora (lib/claims/replicates.ts)
 * and calibration: every profile × domain × state × condition × presentation order, decided by `decide()`
 * exactly as the provider decides it for the collector, and written as the lines the collector writes
 * to `extracted.jsonl` (plus each invalid answer's reason, as in `responses.jsonl`). No prompt is
 * rendered or parsed: a valid decision's recommendations are what validation maps the rendered answer
 * back to (test/simulation/kst-respondent/study.test.ts checks that the shipped corpus is reproduced).
 *
 * `seedSuffix` renames every profile for its seed strings only (`sim-a` → `sim-a~r7`): a different,
 * equally seeded draw of the same parameters. The records keep the model's own name.
 */
import { CONDITIONS } from '../../conditions';
import { enumerateStates, presentationOrders, type Domain } from '../../kst';
import type { ExtractedLine } from '../../records/extracted';
import { decide } from './behaviour';
import { SIMULATED_PROFILES, type SimulatedProfile } from './profiles';

export interface SimulatedKstStudy {
  /** One line per design cell, as in extracted.jsonl. */
  lines: ExtractedLine[];
  /** The final status and invalid reason of every line, as in responses.jsonl (same order). */
  finals: Array<{ status: 'valid' | 'invalid'; reason: string | null }>;
}

/** Runs the whole KST design for `profiles` (default: the shipped six) in one seed stream. */
export function simulateKstStudy(
  domains: readonly Domain[],
  options: { seedSuffix?: string; profiles?: readonly SimulatedProfile[] } = {},
): SimulatedKstStudy {
  const suffix = options.seedSuffix ?? '';
  const lines: ExtractedLine[] = [];
  const finals: SimulatedKstStudy['finals'] = [];
  for (const profile of options.profiles ?? SIMULATED_PROFILES) {
    const seeded = suffix === '' ? profile : { ...profile, name: `${profile.name}${suffix}` };
    for (const domain of domains) {
      const orders = presentationOrders(domain, 2);
      for (const state of enumerateStates(domain)) {
        for (const condition of CONDITIONS) {
          for (const presentation of orders) {
            const d = decide(seeded, { domain, state, condition, presentation });
            const valid = d.invalid === null;
            lines.push({
              run_id: `${domain.id}.${condition}.o${presentation.order}.${profile.name}.${state.length === 0 ? '∅' : state.join(',')}`,
              model: `simulated:${profile.name}`,
              domain: domain.id,
              condition,
              order: presentation.order,
              state: [...state],
              recommended: valid ? d.recommendations.map((r) => r.id) : null,
              status: valid ? 'valid' : 'invalid',
              simulated: true,
            });
            finals.push({ status: valid ? 'valid' : 'invalid', reason: d.invalid });
          }
        }
      }
    }
  }
  return { lines, finals };
}
