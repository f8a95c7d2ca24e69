/**
 * The stored evidence that a simulator's fit lowered its objective: the objective J (lib/simulation/
 * psi-tutor/fit.ts) of an earlier parameter set (the baseline) and of the shipped one, computed on the
 * same stated replicate seeds, with every replicate's value of every target, so that each mean, sd, z
 * and J can be recomputed from the file and any one replicate re-run and compared exactly. Each
 * parameter set carries a fingerprint, so the file cannot go stale silently when the habits change.
 * Written by scripts/fit-evidence.ts into data/replicates/psi-fit.json; read by
 * test/simulation/psi-tutor/fit-evidence.test.ts. Writer and reader use this one schema.
 */
import { z } from 'zod';
import { readJsonFile } from '../io/json';

const FitRowSchema = z.strictObject({ target: z.string().min(1), expected: z.number(), sd: z.number().min(0), z: z.number() });

export const FitVersionSchema = z.strictObject({
  /** What the parameter set is ("version 2 (hand-tuned)"). */
  label: z.string().min(1),
  /** sha256 (16 hex) of the parameter set's JSON (lib/simulation/psi-tutor/fit-evidence.ts habitsFingerprint). */
  fingerprint: z.string().regex(/^[0-9a-f]{16}$/),
  /** J = Σ z² over the targets. */
  objective: z.number().min(0),
  /** The fit table, one row per target in `targets` order. */
  rows: z.array(FitRowSchema),
  /** values[k][t]: target t in the replicate study with seed seeds[k]. */
  values: z.array(z.array(z.number())),
});
export type FitVersion = z.infer<typeof FitVersionSchema>;

export const FitEvidenceSchema = z.strictObject({
  paper: z.literal('psi'),
  /** Always true: made from simulated replicate studies. */
  simulated: z.literal(true),
  /** The objective in words. */
  objective: z.string().min(1),
  /** The replicate seeds (the tutors' seed string of each study), used by neither the search nor its held-out check. */
  seeds: z.array(z.string().min(1)).min(2),
  targets: z.array(z.strictObject({ target: z.string().min(1), published: z.number(), decimals: z.number().int().min(0) })).min(1),
  baseline: FitVersionSchema,
  current: FitVersionSchema,
});
export type FitEvidence = z.infer<typeof FitEvidenceSchema>;

/** The file text of the evidence (checked against the schema the test reads it with). */
export function fitEvidenceText(evidence: unknown): string {
  return `${JSON.stringify(FitEvidenceSchema.parse(evidence), null, 1)}\n`;
}

/** Reads a fit-evidence file; InputError naming the file on a read or schema problem. */
export function loadFitEvidence(file: string): FitEvidence {
  return readJsonFile(file, FitEvidenceSchema);
}
