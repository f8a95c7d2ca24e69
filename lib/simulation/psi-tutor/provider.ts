/**
 * A seeded behavioural model of an LLM tutor answering PSI scenarios, reachable as a collector
 * Provider (`createSimulatedTutor('sim-tutor-a')`). It writes Markdown tutoring responses from
 * building blocks — recap of prerequisites, the key correction, concept explanations, a worked code
 * example with its output, numbered steps, hints, a comprehension check, an analogy, Bloom-level
 * vocabulary, and the occasional pleasantry, hedge or off-topic aside — with habits that differ per
 * profile (profiles.ts). The tutor is split as the KST respondent is: labels.ts (naming concepts),
 * plan.ts (what to write), render.ts (the Markdown) and this file (the collector Provider).
 *
 * Randomness: every draw comes from seedrandom (ARC4) seeded with
 * `psi-tutor|<seed>|<model>|<scenario>|<variant>` for the base plan and the same string plus
 * `|round2` for the regeneration choices, so equal inputs give byte-identical text, and a round-2
 * answer is a revision of the exact round-1 answer it regenerates (same base plan).
 *
 * The text is simulated. It exists to exercise and test the PSI pipeline end to end; it is not
 * evidence about any real model.
 */
import seedrandom from 'seedrandom';
import { z } from 'zod';
import { InputError } from '../../errors';
import type { CompletionRequest, CompletionResult, Provider } from '../../provider/contract';
import type { PsiCourse } from '../../psi/schema';
import { SIMULATED_MATERIAL } from './material';
import { drawPlan, revisePlan, type ChecklistItem, type PsiTutorRequest } from './plan';
import { TUTOR_PROFILES, type TutorProfile } from './profiles';
import { renderPlan } from './render';

export { TUTOR_PROFILES, TUTOR_PROFILE_IDS } from './profiles';
export type { TutorProfile, TutorProfileId } from './profiles';
export { conceptLabel, laterConcepts, recapCandidates } from './labels';
export { checklistTargets, drawPlan, revisePlan } from './plan';
export type { ChecklistItem, ChecklistTarget, PsiTutorRequest, ResponsePlan } from './plan';
export { renderPlan } from './render';

/** The profile for a model name, or InputError listing the known profiles. */
export function getTutorProfile(model: string): TutorProfile {
  const profile = (TUTOR_PROFILES as Record<string, TutorProfile>)[model];
  if (!profile) {
    throw new InputError(`unknown simulated tutor "${model}" (known: ${Object.keys(TUTOR_PROFILES).join(', ')})`, { item: model });
  }
  return profile;
}

/**
 * Writes one simulated tutoring response, called as
 * `simulateTutorResponse('sim-tutor-a', { course, scenario, variant: 'standard', round: 1, seed: '1' })`.
 */
export function simulateTutorResponse(model: string, req: PsiTutorRequest, profile: TutorProfile = getTutorProfile(model)): string {
  const material = SIMULATED_MATERIAL[req.scenario.id];
  if (!material) throw new InputError(`simulated tutor has no material for scenario "${req.scenario.id}"`, { item: req.scenario.id });
  const base = `psi-tutor|${req.seed ?? '0'}|${model}|${req.scenario.id}|${req.variant}`;
  const planRng = seedrandom(base);
  let plan = drawPlan(profile, req, planRng);
  if (req.round === 2) plan = revisePlan(plan, profile, req, seedrandom(`${base}|round2`));
  return renderPlan(plan, req, material, seedrandom(`${base}|render|${req.round}`));
}

/** Shape of `CompletionRequest.context` for PSI requests to the simulated tutor. */
const PsiContextSchema = z.object({
  kind: z.literal('psi'),
  scenario: z.union([z.string().min(1), z.object({ id: z.string().min(1) }).loose()]),
  variant: z.enum(['standard', 'defective']),
  round: z.union([z.literal(1), z.literal(2)]),
  checklist: z.array(z.union([z.string(), z.object({}).loose()])).optional(),
  seed: z.union([z.string(), z.number()]).optional(),
  course: z.unknown().optional(),
});

/** Rough token count (words and punctuation runs), reported as usage so cost accounting has numbers. */
function roughTokens(text: string): number {
  return (text.match(/[A-Za-z0-9_]+|[^\sA-Za-z0-9_]/g) ?? []).length;
}

/**
 * The simulated tutor as a collector Provider. `req.context` must be
 * `{ kind: 'psi', scenario: <id or Scenario>, variant, round, checklist?, seed?, course? }`; the course
 * (taxonomy and scenarios) comes from `context.course` or, failing that, `options.course`.
 * Invalid context → InputError naming the run. Never throws ProviderError: the simulation has no
 * transport to fail.
 */
export function createSimulatedTutor(model: string, options: { course?: PsiCourse } = {}): Provider {
  const profile = getTutorProfile(model);
  return {
    provider: 'simulated',
    model,
    simulated: true,
    async complete(req: CompletionRequest): Promise<CompletionResult> {
      const parsed = PsiContextSchema.safeParse(req.context);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new InputError(
          `simulated tutor ${model}, run ${req.runId}: context.${issue.path.join('.') || '(top)'}: ${issue.message}`,
          { item: req.runId },
        );
      }
      const ctx = parsed.data;
      const course = (ctx.course as PsiCourse | undefined) ?? options.course;
      if (!course || !course.scenarioById) {
        throw new InputError(`simulated tutor ${model}, run ${req.runId}: no PSI course given (context.course or options.course)`, {
          item: req.runId,
        });
      }
      const scenarioId = typeof ctx.scenario === 'string' ? ctx.scenario : ctx.scenario.id;
      const scenario = course.scenarioById.get(scenarioId);
      if (!scenario) throw new InputError(`simulated tutor ${model}, run ${req.runId}: unknown scenario "${scenarioId}"`, { item: scenarioId });
      const text = simulateTutorResponse(model, {
        course,
        scenario,
        variant: ctx.variant,
        round: ctx.round,
        checklist: ctx.checklist as ChecklistItem[] | undefined,
        seed: ctx.seed === undefined ? undefined : String(ctx.seed),
      });
      return {
        text,
        finishReason: 'stop',
        refusal: null,
        modelVersion: `${model}@${profile.version}`,
        usage: { inputTokens: roughTokens(`${req.system}\n${req.user}`), outputTokens: roughTokens(text) },
        httpStatus: null,
        requestId: null,
      };
    },
  };
}
