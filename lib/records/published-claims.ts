/**
 * The claims ledger entry shared by both published-numbers files (data/published/*.json → `claims`).
 * One entry is one quantitative claim of a paper's results: where it is printed, what it says
 * (paraphrased, never the paper's sentence), a JSON pointer to the printed value elsewhere in the same
 * file (so each number has one home), its precision, and what it is computed from. It is either
 * `rebuilt` (a named lib function and a named notebook cell) or carries a `not_rebuildable` reason.
 *
 * There is deliberately no `status` field: a status is computed at run time from the data by the one
 * rule in lib/claims/rule.ts. The entry is a strict object, so a `status` written into the file is
 * rejected when the file is read.
 */
import { readUtf8File } from '../io/read';
import { z } from 'zod';
import { parseJsonFile } from '../io/json';

/** `lib/<path>.ts#<exported function>`, e.g. `lib/analysis/table3.ts#table3`. */
export const FUNCTION_REF = /^lib\/[a-z0-9/_-]+\.ts#[A-Za-z_$][\w$]*$/;
/** `notebooks/<file>.ipynb#<cell id>`, e.g. `notebooks/04-table3-figure1.ipynb#claims-table3`. */
export const CELL_REF = /^notebooks\/[A-Za-z0-9._-]+\.ipynb#[A-Za-z0-9_-]+$/;

/** Why a claim could match on the shipped inputs (see `basis` below). */
export const CLAIM_BASES = ['by-construction', 'calibrated', 'independent'] as const;
export type ClaimBasis = (typeof CLAIM_BASES)[number];

export const ClaimEntrySchema = z
  .strictObject({
    /** Stable identifier, `<paper>.<section>.<item>` in lower case, e.g. `kst.table3.P0.exact`. */
    id: z.string().regex(/^[a-z]+(\.[A-Za-z0-9_-]+)+$/, 'claim id must look like kst.table3.P0.exact'),
    /** Table, figure or section, and the row / sentence (paraphrased). */
    where: z.string().min(1),
    /** What is claimed, in the project's own words. */
    claim: z.string().min(1),
    /**
     * Why the value could match on the shipped (simulated) inputs: `by-construction` (a design count, or a
     * structure written to match, such as the domain files), `calibrated` (a target of the simulator's fit,
     * or arithmetic on targets: a match shows the fit, not evidence) or `independent` (nothing was fitted
     * to it). On simulated input every claim that is not by construction gets its status from the
     * simulation interval (lib/claims/rule.ts).
     */
    basis: z.enum(CLAIM_BASES),
    /** JSON pointer (RFC 6901) to the printed value in this file: a number, boolean or string. */
    value: z.string().regex(/^(\/[^/]*)+$/, 'value must be a JSON pointer such as /table3/rows/0/exact'),
    /** Decimal places as printed (numbers only; JSON drops trailing zeros, so it is stated). */
    decimals: z.number().int().min(0).max(6).optional(),
    /** How the printed value bounds the true one: "=" (rounded value), ">=", ">" or "<" (a bound). */
    relation: z.enum(['=', '>=', '>', '<']).default('='),
    /** A stated tolerance beyond the printing precision, in printed units, and why it is legitimate. */
    tolerance: z.strictObject({ value: z.number().positive(), why: z.string().min(1) }).optional(),
    /** The data the number is computed from. */
    from: z.string().min(1),
    /** The counterpart: the lib function that computes the quantity and the cell that shows its status. */
    rebuilt: z.strictObject({ function: z.string().regex(FUNCTION_REF), cell: z.string().regex(CELL_REF) }).optional(),
    /** Why no input available here can rebuild the number. */
    not_rebuildable: z.string().min(1).optional(),
    /**
     * A claim that only a human-ratings file (lib/psi/ratings.ts form) can rebuild: its function and
     * cell when ratings are given; without them it is not rebuildable, for the `not_rebuildable` reason.
     */
    rebuilt_with_ratings: z.strictObject({ function: z.string().regex(FUNCTION_REF), cell: z.string().regex(CELL_REF) }).optional(),
  })
  .superRefine((c, ctx) => {
    if ((c.rebuilt === undefined) === (c.not_rebuildable === undefined)) {
      ctx.addIssue({ code: 'custom', message: `claim ${c.id}: needs exactly one of "rebuilt" (function and cell) or "not_rebuildable" (a reason)` });
    }
    if (c.rebuilt_with_ratings !== undefined && c.not_rebuildable === undefined) {
      ctx.addIssue({ code: 'custom', message: `claim ${c.id}: "rebuilt_with_ratings" needs "not_rebuildable" (the reason without ratings) instead of "rebuilt"` });
    }
  });
export type ClaimEntry = z.infer<typeof ClaimEntrySchema>;

/**
 * The value a JSON pointer names in `doc`, or undefined.
 * @example
 * pointerValue({ a: [1, 2] }, '/a/1'); // => 2
 * pointerValue({ a: [1, 2] }, '/b'); // => undefined
 */
export function pointerValue(doc: unknown, pointer: string): unknown {
  let here: unknown = doc;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (here === null || typeof here !== 'object' || !Object.prototype.hasOwnProperty.call(here, key)) return undefined;
    here = (here as Record<string, unknown>)[key];
  }
  return here;
}

/** A printed value: a number, a yes/no statement, or a name / ordering. */
export type PrintedValue = number | boolean | string;

/**
 * Checks a file's `claims` against the rest of the file: ids unique, every pointer names a number,
 * boolean or string, and every number states its decimals. Adds one zod issue per problem.
 */
export function refineClaims(doc: { claims: readonly ClaimEntry[] }, ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  doc.claims.forEach((c, i) => {
    if (seen.has(c.id)) ctx.addIssue({ code: 'custom', path: ['claims', i, 'id'], message: `duplicate claim id ${c.id}` });
    seen.add(c.id);
    const v = pointerValue(doc, c.value);
    if (typeof v !== 'number' && typeof v !== 'boolean' && typeof v !== 'string') {
      ctx.addIssue({ code: 'custom', path: ['claims', i, 'value'], message: `claim ${c.id}: ${c.value} names no number, boolean or string in this file` });
    } else if (typeof v === 'number' && c.decimals === undefined) {
      ctx.addIssue({ code: 'custom', path: ['claims', i, 'decimals'], message: `claim ${c.id}: a number needs "decimals"` });
    }
  });
}

/** Reads a published-numbers file and checks it against its schema; InputError naming the file (OS errors included). */
export function loadPublishedFile<S extends z.ZodType>(file: string, schema: S): z.output<S> {
  return parseJsonFile(readUtf8File(file, (reason) => `${file}: cannot read (${reason})`), file, schema);
}
