/**
 * The PSI record: one line of a PSI corpus (`round1.jsonl`, `round2.jsonl`), written by the PSI study
 * collector (lib/collect/psi-study.ts) and read by lib/psi (`parsePsiRecords`, scoring) and the report
 * layer. Writer and reader both use this one schema and its inferred type.
 */
import { z } from 'zod';

/** The two prompt variants of every PSI scenario: the well-formed prompt and the defective one. */
export const VARIANTS = ['standard', 'defective'] as const;
export type Variant = (typeof VARIANTS)[number];

const Unit = z.number().min(0).max(1);

/** Recorded PSI scores, when a record carries them (the authors' data would). */
export const RecordedScoresSchema = z.object({
  psi: Unit,
  kd: Unit,
  tv: Unit,
  sd: Unit,
  ef: Unit,
  cl: Unit,
  ra: Unit,
});
export type RecordedScores = z.infer<typeof RecordedScoresSchema>;

/**
 * One PSI response record (a line of round1.jsonl / round2.jsonl). Unknown extra fields are kept.
 * Round-2 records must name the round-1 run they regenerate in `parent_run_id`.
 */
export const PsiRecordSchema = z
  .looseObject({
    run_id: z.string().min(1),
    round: z.union([z.literal(1), z.literal(2)]),
    scenario: z.string().min(1),
    variant: z.enum(VARIANTS),
    model: z.string().min(1),
    simulated: z.boolean(),
    text: z.string(),
    /** `invalid`: an answer that is no answer (cut off, refused, filtered, not the answer object): never scored, `reason` says why. */
    status: z.enum(['valid', 'invalid', 'missing']),
    reason: z.string().optional(),
    scores: RecordedScoresSchema.optional(),
    parent_run_id: z.string().min(1).optional(),
  })
  .refine((r) => r.round === 1 || r.parent_run_id !== undefined, {
    message: 'a round-2 record needs parent_run_id',
    path: ['parent_run_id'],
  });
export type PsiRecord = z.infer<typeof PsiRecordSchema>;
