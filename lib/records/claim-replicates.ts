/**
 * Replicate statistics of the claims ledger: for every response-dependent claim of one paper, what R
 * seeded replicate corpora of the simulator give (lib/claims/replicates.ts, written once by
 * `scripts/replicates.ts` into data/replicates/<paper>.json, read by the claims rows of every
 * notebook). A number gets its mean, sd and central 95 % interval (2.5th–97.5th percentile, type 7);
 * a yes/no statement or a name/ordering gets the count of each value. The seeds of every replicate are
 * stored with them, so the file can be rebuilt byte for byte. Writer and reader use this one schema.
 */
import { z } from 'zod';
import { readUtf8File } from '../io/read';
import { parseJsonFile } from '../io/json';

export const NumberSummarySchema = z.strictObject({
  kind: z.literal('number'),
  n: z.number().int().positive(),
  mean: z.number(),
  sd: z.number().min(0),
  low: z.number(),
  high: z.number(),
});
export const CategorySummarySchema = z.strictObject({
  kind: z.literal('category'),
  n: z.number().int().positive(),
  /** value as printed ("yes", "no", or the name/ordering) → how many replicates gave it */
  counts: z.record(z.string(), z.number().int().min(0)),
});
export const ReplicateSummarySchema = z.discriminatedUnion('kind', [NumberSummarySchema, CategorySummarySchema]);
export type ReplicateSummary = z.infer<typeof ReplicateSummarySchema>;

export const ClaimReplicatesSchema = z.strictObject({
  paper: z.enum(['kst', 'psi']),
  /** Always true: these numbers are made from simulated corpora. */
  simulated: z.literal(true),
  /** What a replicate is (the simulator, its version, the seed rule). */
  generator: z.string().min(1),
  /** A fingerprint of the simulator parameters and of the ledger's claim ids the file was made for. */
  fingerprint: z.string().min(1),
  replicates: z.number().int().positive(),
  /** The seed (KST: seed suffix of every profile; PSI: the tutors' seed string) of each replicate, in order. */
  seeds: z.array(z.string().min(1)),
  /** Bootstrap / sign-flip settings of the contrast claims in each replicate (KST only). */
  inference: z.strictObject({ resamples: z.number().int().positive(), flips: z.number().int().positive(), seed: z.string() }).optional(),
  claims: z.record(z.string(), ReplicateSummarySchema),
});
export type ClaimReplicates = z.infer<typeof ClaimReplicatesSchema>;

/** Reads a replicate-statistics file; InputError naming the file on a read or schema problem. */
export function loadClaimReplicates(file: string): ClaimReplicates {
  const text = readUtf8File(file, (reason) => `${file}: cannot read the replicate statistics (${reason}); run scripts/replicates.ts`);
  return parseJsonFile(text, file, ClaimReplicatesSchema);
}
