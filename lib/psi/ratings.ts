/**
 * Human ratings of PSI-guided regenerations (`data/raw/psi/ratings.json`) and their agreement: between
 * raters (Cohen's κ per pair of raters) and between each rater and PSI-judged improvement.
 *
 * The paper ([PSI-2026] §IV-F, Table VI) had one instructor judge each of the 62 regenerated cases on two
 * yes/no criteria — "meaningful improvement" (better scaffolding than the round-1 response) and
 * "weaknesses resolved" (the PSI-identified issues are addressed) — and reports only the two rates. With
 * several raters this module gives inter-rater reliability, which the paper names as a limitation.
 *
 * File format (JSON; extra fields are kept):
 * ```json
 * {
 *   "description": "Instructor ratings of the round-2 regenerations, spring term",
 *   "simulated": false,
 *   "raters": [{ "id": "R1", "role": "course instructor" }, { "id": "R2", "role": "teaching assistant" }],
 *   "ratings": [
 *     { "rater": "R1", "run_id": "psi-r2-S03-defective-openai_gpt-4.5",
 *       "meaningful_improvement": true, "weaknesses_resolved": true, "note": "adds a worked example" }
 *   ]
 * }
 * ```
 * `run_id` is the round-2 record's run_id (its parent is the round-1 response it regenerates). Each
 * rater rates a case at most once; raters need not rate every case (κ uses the cases both rated).
 */
import { readUtf8File } from '../io/read';
import { z } from 'zod';
import { InputError } from '../errors';
import { jsonPathLine, parseJsonFile } from '../io/json';
import type { RegenerationPair } from './aggregate';
import { agreementWithPsi, cohensKappa } from './human-agreement';

/** The two yes/no criteria of the paper's manual evaluation. */
export const RATING_CRITERIA = ['meaningful_improvement', 'weaknesses_resolved'] as const;
export type RatingCriterion = (typeof RATING_CRITERIA)[number];

const id = z.string().trim().min(1);
export const RaterSchema = z.looseObject({ id, role: z.string().optional() });
export const RatingSchema = z.looseObject({
  rater: id,
  run_id: id,
  meaningful_improvement: z.boolean(),
  weaknesses_resolved: z.boolean(),
  note: z.string().optional(),
});
export const RatingsFileSchema = z.looseObject({
  description: z.string().optional(),
  /** True for generated (illustrative) ratings; real human ratings say false. */
  simulated: z.boolean(),
  raters: z.array(RaterSchema).min(1),
  ratings: z.array(RatingSchema),
});
export type Rater = z.infer<typeof RaterSchema>;
export type Rating = z.infer<typeof RatingSchema>;
export type RatingsFile = z.infer<typeof RatingsFileSchema>;

/**
 * Parses and checks a ratings file: the schema above, unique rater ids, every rating by a declared
 * rater, at most one rating per (rater, run_id). InputError names the file, the line and the field
 * (e.g. `ratings.json:41: ratings[3].weaknesses_resolved: …`).
 */
export function parseRatings(text: string, file: string): RatingsFile {
  const data = parseJsonFile(text, file, RatingsFileSchema, { lines: true });
  const at = (path: Array<string | number>) => {
    const line = jsonPathLine(text, path);
    return { where: line === undefined ? file : `${file}:${line}`, ...(line === undefined ? {} : { line }) };
  };
  const raters = new Set<string>();
  data.raters.forEach((r, i) => {
    const { where, ...line } = at(['raters', i, 'id']);
    if (raters.has(r.id)) throw new InputError(`${where}: raters[${i}].id: duplicate rater id "${r.id}"`, { file, ...line, item: `raters[${i}].id` });
    raters.add(r.id);
  });
  const seen = new Set<string>();
  data.ratings.forEach((r, i) => {
    const item = `ratings[${i}]`;
    if (!raters.has(r.rater)) {
      const { where, ...line } = at(['ratings', i, 'rater']);
      throw new InputError(`${where}: ${item}.rater: rater "${r.rater}" is not declared in "raters" (${[...raters].join(', ')})`, { file, ...line, item: `${item}.rater` });
    }
    const key = `${r.rater}\u0000${r.run_id}`;
    if (seen.has(key)) {
      const { where, ...line } = at(['ratings', i, 'run_id']);
      throw new InputError(`${where}: ${item}.run_id: rater "${r.rater}" rates "${r.run_id}" a second time`, { file, ...line, item: `${item}.run_id` });
    }
    seen.add(key);
  });
  return data;
}

/** Reads and parses a ratings file (see parseRatings). */
export function loadRatings(file: string): RatingsFile {
  return parseRatings(readUtf8File(file, (reason) => `${file}: cannot read ratings file (${reason})`), file);
}

/**
 * Checks that every rated run_id is one of the regenerated cases (`pairs`, by the round-2 run_id);
 * InputError naming the first unknown one. Returns the pairs by round-2 run_id.
 */
export function matchRatingsToPairs(ratings: RatingsFile, pairs: readonly RegenerationPair[], file = 'ratings'): Map<string, RegenerationPair> {
  const byRun = new Map(pairs.map((p) => [p.after.run_id, p]));
  ratings.ratings.forEach((r, i) => {
    if (!byRun.has(r.run_id)) {
      throw new InputError(`${file}: ratings[${i}]: run "${r.run_id}" is not a regenerated (round-2) case`, { file, item: `ratings[${i}]` });
    }
  });
  return byRun;
}

/**
 * Cohen's κ for every pair of raters (in declaration order) on one criterion, over the cases both
 * rated: n, observed agreement, κ (NaN when undefined — both raters gave one and the same verdict
 * throughout — or when they share no case).
 */
export function interRaterAgreement(ratings: RatingsFile, criterion: RatingCriterion) {
  const byRater = new Map<string, Map<string, boolean>>(ratings.raters.map((r) => [r.id, new Map()]));
  for (const r of ratings.ratings) byRater.get(r.rater)!.set(r.run_id, r[criterion]);
  const out: Array<{ criterion: RatingCriterion; raterA: string; raterB: string; n: number; observedAgreement: number; kappa: number }> = [];
  const ids = ratings.raters.map((r) => r.id);
  for (let i = 0; i < ids.length; i++) {
    for (let j = i + 1; j < ids.length; j++) {
      const a = byRater.get(ids[i]!)!;
      const b = byRater.get(ids[j]!)!;
      const shared = [...a.keys()].filter((k) => b.has(k)).sort();
      const va = shared.map((k) => a.get(k)!);
      const vb = shared.map((k) => b.get(k)!);
      const n = shared.length;
      out.push({
        criterion,
        raterA: ids[i]!,
        raterB: ids[j]!,
        n,
        observedAgreement: n === 0 ? NaN : va.filter((v, k) => v === vb[k]).length / n,
        kappa: n === 0 ? NaN : cohensKappa(va, vb),
      });
    }
  }
  return out;
}

/**
 * Each rater's verdicts on one criterion against PSI-judged improvement (round-2 PSI strictly above
 * round-1) over the cases that rater rated: the rater's yes-rate, the PSI rate, the 2×2 counts,
 * observed agreement and κ (agreementWithPsi). Unknown run_ids are an InputError.
 */
export function raterAgreementWithPsi(ratings: RatingsFile, pairs: readonly RegenerationPair[], criterion: RatingCriterion) {
  const byRun = matchRatingsToPairs(ratings, pairs);
  return ratings.raters.map((rater) => {
    const cases = ratings.ratings
      .filter((r) => r.rater === rater.id)
      .sort((a, b) => (a.run_id < b.run_id ? -1 : a.run_id > b.run_id ? 1 : 0))
      .map((r) => {
        const p = byRun.get(r.run_id)!;
        return { human: r[criterion], psiBefore: p.before.psi, psiAfter: p.after.psi };
      });
    if (cases.length === 0) {
      return { rater: rater.id, criterion, n: 0, humanRate: NaN, psiRate: NaN, bothYes: 0, humanOnly: 0, psiOnly: 0, bothNo: 0, observedAgreement: NaN, kappa: NaN };
    }
    return { rater: rater.id, criterion, ...agreementWithPsi(cases) };
  });
}

/**
 * The rates of Table VI ([PSI-2026]: the share of regenerated cases the instructor judged meaningfully
 * improved, and with the weaknesses resolved), in percent, over every rating of the file. With several
 * raters a case counts once per rater (the pooled share of verdicts); `perRater` gives each rater's own.
 * NaN when the file holds no rating.
 */
export function ratingRates(ratings: RatingsFile): {
  ratings: number;
  cases: number;
  raters: number;
  rates: Record<RatingCriterion, number>;
  perRater: Array<{ rater: string; n: number; rates: Record<RatingCriterion, number> }>;
} {
  const rate = (rs: readonly Rating[], c: RatingCriterion) => (rs.length === 0 ? NaN : (100 * rs.filter((r) => r[c]).length) / rs.length);
  const rates = (rs: readonly Rating[]) => Object.fromEntries(RATING_CRITERIA.map((c) => [c, rate(rs, c)])) as Record<RatingCriterion, number>;
  const perRater = ratings.raters.map((r) => {
    const own = ratings.ratings.filter((x) => x.rater === r.id);
    return { rater: r.id, n: own.length, rates: rates(own) };
  });
  return { ratings: ratings.ratings.length, cases: new Set(ratings.ratings.map((r) => r.run_id)).size, raters: ratings.raters.length, rates: rates(ratings.ratings), perRater };
}
