/**
 * The PSI paper's rebuilt claims: for every ledger entry of data/published/psi-2026.json with a
 * `rebuilt` counterpart, the value computed from the course files and the round-1 / round-2 records by
 * the lib function the entry names. Models are compared under the paper's names through
 * `paperModelMap` (a simulated tutor stands for the model its profile imitates).
 */
import * as aggregate from '../psi/aggregate';
import { DEFAULT_PSI_PARAMETERS, resolvePsiParameters, SUBSCORES, type PsiParameters } from '../psi/parameters';
import { matchRatingsToPairs, ratingRates, type RatingCriterion, type RatingsFile } from '../psi/ratings';
import type { PsiCourse, PsiRecord } from '../psi/schema';
import { SCAFFOLD_INDICATORS } from '../psi/scaffolding';
import { InputError } from '../errors';
import type { ClaimEntry } from '../records/published-claims';
import { selectWeakCases } from '../psi/selection';
import { scoreResponse } from '../psi/score';
import { EXTRANEOUS_MARKERS } from '../psi/cognitive-load';
import { BLOOM_CUES } from '../psi/bloom';
import { getScenario } from '../psi/schema';
import { lowScaffoldingFeedback, regenerationPromptParts } from './regeneration-prompts';
import type { PublishedPsi } from '../records/published-psi';
import { paperModelMap } from '../report/psi-tables';
import { rankingText } from '../report/psi-round1';
import { claimRowsFor, claimValuesFor, computedFromCheck, LazyResults, type ClaimRow, type Computed } from './ledger';
import { defaultReplicates } from './stored-replicates';
import type { ClaimReplicates } from '../records/claim-replicates';

export interface PsiClaimInputs {
  published: PublishedPsi;
  course: PsiCourse;
  round1: readonly PsiRecord[];
  round2: readonly PsiRecord[];
  /** Scoring parameters (default: the paper's, δ_opt = 0.65, equal weights). */
  params?: Partial<PsiParameters>;
  /** Weak-case threshold (default lib/psi/selection.ts DEFAULT_WEAK_THRESHOLD). */
  threshold?: number | null;
  /**
   * Replicate statistics of the simulator (lib/claims/replicates.ts). Default: the stored
   * data/replicates/psi.json (on collected records the interval is shown as a reference only);
   * `null` shows no interval.
   */
  replicates?: ClaimReplicates | null;
  /**
   * A human-ratings file (lib/psi/ratings.ts): the claims marked `rebuilt_with_ratings` (Table VI) are
   * then rebuilt from it (psiRatingsClaimRows) instead of staying not rebuildable. Its run_ids must be
   * regenerated cases of `round2`.
   */
  ratings?: GivenRatings;
}

/** A parsed ratings file and the path it came from (for error messages). */
export interface GivenRatings {
  ratings: RatingsFile;
  file: string;
}

const slug = (name: string) => name.toLowerCase().replace(/ /g, '-');

class PsiResults extends LazyResults<PsiClaimInputs> {
  get scored1() {
    return this.once('s1', () => aggregate.scorePsiRecords(this.inputs.round1, this.inputs.course, this.inputs.params ?? {}).scored);
  }
  get scored2() {
    return this.once('s2', () => aggregate.scorePsiRecords(this.inputs.round2, this.inputs.course, this.inputs.params ?? {}).scored);
  }
  /** Round 1 scored as the collector scored it when it chose the weak cases (not with this analysis's parameters). */
  get scored1AsRecorded() {
    return this.once('s1-recorded', () => aggregate.scorePsiRecords(this.inputs.round1, this.inputs.course, DEFAULT_PSI_PARAMETERS).scored);
  }
  get mirrors(): Record<string, string> {
    return this.once('mirrors', () => paperModelMap([...new Set(this.inputs.round1.map((r) => r.model))]));
  }
  get table1() {
    return this.once('t1', () => aggregate.meanSubscoresByModel(this.scored1));
  }
  /** The Table I row of the model standing for `paperModel`. */
  row(paperModel: string) {
    return this.table1.find((r) => this.mirrors[r.model] === paperModel);
  }
  get selection() {
    return this.once('sel', () => selectWeakCases(this.scored1, this.inputs.threshold === undefined ? {} : { threshold: this.inputs.threshold }));
  }
  get pairs() {
    return this.once('pairs', () => aggregate.pairRegenerations(this.scored1, this.scored2));
  }
  get regeneration() {
    return this.once('regen', () => aggregate.regenerationResults(this.pairs));
  }
  get regenerationShifts() {
    return this.once('regen-shifts', () => aggregate.regenerationSubscoreChanges(this.pairs));
  }
  get defectiveShifts() {
    return this.once('def-shifts', () => aggregate.defectiveShifts(this.scored1));
  }
}

type Rebuild = (m: RegExpMatchArray, k: PsiResults) => Computed;
/** Highest minus lowest model mean of each sub-score (Table I rows). */
function subscoreSpreads(rows: ReadonlyArray<Record<(typeof SUBSCORES)[number], number>>): Record<(typeof SUBSCORES)[number], number> {
  return Object.fromEntries(SUBSCORES.map((x) => [x, Math.max(...rows.map((r) => r[x])) - Math.min(...rows.map((r) => r[x]))])) as Record<(typeof SUBSCORES)[number], number>;
}
const num = (value: number, detail?: string): Computed => (detail === undefined ? { value } : { value, detail });
const BLOOM = ['remember', 'understand', 'apply', 'analyze', 'evaluate', 'create'];

/** Claim id pattern → how its value is computed. Every rebuilt PSI claim matches exactly one. */
export const PSI_REBUILDS: ReadonlyArray<[RegExp, Rebuild]> = [
  [/^psi\.design\.scenarios$/, (_m, k) => num(k.inputs.course.scenarios.length)],
  [/^psi\.design\.bloom\.([a-z]+)$/, (m, k) => num(k.inputs.course.scenarios.filter((s) => s.target_bloom === BLOOM.indexOf(m[1]!) + 1).length)],
  [/^psi\.design\.defect\.([a-z_]+)$/, (m, k) => num(k.inputs.course.scenarios.filter((s) => (s.defective.categories as readonly string[]).includes(m[1]!)).length)],
  [/^psi\.design\.defect-categories$/, (_m, k) => num(new Set(k.inputs.course.scenarios.flatMap((s) => s.defective.categories)).size)],
  [/^psi\.design\.concepts$/, (_m, k) => num(k.inputs.course.taxonomy.ids.length)],
  [/^psi\.design\.round1$/, (_m, k) => num(k.inputs.round1.length)],
  [/^psi\.design\.weeks$/, (_m, k) => num(new Set(k.inputs.course.scenarios.map((s) => s.week)).size)],
  [/^psi\.design\.per-week$/, (_m, k) => {
    // "2 per week": every week that has scenarios has the same count, and that count is the claim.
    const perWeek = new Map<number, number>();
    for (const s of k.inputs.course.scenarios) perWeek.set(s.week, (perWeek.get(s.week) ?? 0) + 1);
    const counts = [...new Set(perWeek.values())];
    return num(counts.length === 1 ? counts[0]! : Number.NaN, counts.length === 1 ? `${perWeek.size} weeks` : `counts per week ${counts.sort().join(', ')}`);
  }],
  [/^psi\.design\.models$/, (_m, k) => num(new Set(k.inputs.round1.map((r) => r.model)).size)],
  [/^psi\.design\.variants$/, (_m, k) => num(new Set(k.inputs.round1.map((r) => r.variant)).size)],
  [/^psi\.design\.delta-opt$/, (_m, k) => num(resolvePsiParameters(k.inputs.params ?? {}).deltaOpt)],
  [/^psi\.design\.scaffold-indicators$/, () => num(SCAFFOLD_INDICATORS.length)],
  [/^psi\.design\.scaffold-categories$/, () => num(new Set(SCAFFOLD_INDICATORS.map((i) => i.category)).size)],
  [/^psi\.design\.prerequisite-example$/, (_m, k) => {
    // §IV-B's example: list_comprehension has lists and for_loop among its explicitly given prerequisites.
    const direct = k.inputs.course.taxonomy.prerequisites.filter(([, q]) => q === 'list_comprehension').map(([p]) => p);
    return { value: direct.includes('lists') && direct.includes('for_loop'), detail: `list_comprehension requires ${direct.sort().join(', ') || 'nothing'}` };
  }],
  [/^psi\.design\.defects-one-or-more$/, (_m, k) => {
    // §IV-A "each scenario may exhibit one or more defect types": none without one, some with several.
    const sizes = k.inputs.course.scenarios.map((s) => s.defective.categories.length);
    return { value: sizes.length > 0 && Math.min(...sizes) >= 1 && Math.max(...sizes) > 1, detail: `defect types per defective prompt ${Math.min(...sizes)}–${Math.max(...sizes)}` };
  }],
  [/^psi\.method\.equal-weights$/, (_m, k) => {
    // §III eq. (1): PSI = Σ w_i S_i with w_i = 1/6: the weights in use, and every round-1 record's PSI (recorded or re-scored) is that sum.
    const w = resolvePsiParameters(k.inputs.params ?? {}).weights;
    const equal = SUBSCORES.every((x) => Math.abs(w[x] - 1 / 6) < 1e-12);
    const off = k.scored1.filter((r) => Math.abs(r.psi - SUBSCORES.reduce((sum, x) => sum + r.subscores[x] / 6, 0)) > 1e-9).length;
    return { value: equal && k.scored1.length > 0 && off === 0, detail: `weights ${SUBSCORES.map((x) => `${x.toUpperCase()} ${w[x].toFixed(4)}`).join(', ')}; ${off} of ${k.scored1.length} round-1 PSIs are not the equal-weight mean` };
  }],
  [/^psi\.design\.taxonomy-hierarchy$/, (_m, k) => {
    // §IV-B: from foundational concepts (variables, print_function) to advanced ones (dependency_parsing, tensorflow_intro),
    // read as: every advanced example has more prerequisites, direct or not, than every foundational one.
    const { closure, ids } = k.inputs.course.taxonomy;
    const ancestors = (id: string) => closure.filter(([, q]) => q === id).length;
    const [foundational, advanced] = [['variables', 'print_function'], ['dependency_parsing', 'tensorflow_intro']];
    const missing = [...foundational, ...advanced].filter((c) => !ids.includes(c));
    if (missing.length > 0) return { value: false, detail: `not in the taxonomy: ${missing.join(', ')}` };
    const count = (cs: string[]) => cs.map((c) => `${c} ${ancestors(c)}`).join(', ');
    return { value: Math.min(...advanced.map(ancestors)) > Math.max(...foundational.map(ancestors)), detail: `prerequisites (direct or not): ${count(foundational)}; ${count(advanced)}` };
  }],
  [/^psi\.method\.subscore-formulas$/, (_m, k) => {
    // §III's formulas, applied to the evidence of every valid record of both rounds re-scored by the pipeline: KD = 1 − |overlap − δ_opt|,
    // TV = 1 − violations/checks, SD = (N_scaffold/N_total)·α_adapt, CL = 1 − L_extraneous/L_total, RA = 1 − |b_R − b_T|/5 (a ratio with a zero denominator is not counted).
    const records = [...k.inputs.round1, ...k.inputs.round2].filter((r) => r.status === 'valid');
    const off: Record<string, number> = { kd: 0, tv: 0, sd: 0, cl: 0, ra: 0 };
    for (const r of records) {
      const { subscores: x, evidence: e } = scoreResponse(r.text, getScenario(k.inputs.course, r.scenario), k.inputs.course, k.inputs.params ?? {});
      const formula: Record<string, number | null> = {
        kd: 1 - Math.abs(e.kd.overlap - e.kd.deltaOpt),
        tv: e.tv.checks === 0 ? null : 1 - e.tv.violations.length / e.tv.checks,
        sd: e.sd.propositions === 0 ? null : (e.sd.scaffolds / e.sd.propositions) * e.sd.alpha,
        cl: e.cl.propositions === 0 ? null : 1 - e.cl.extraneous / e.cl.propositions,
        ra: 1 - Math.abs(e.ra.detected - e.ra.target) / 5,
      };
      for (const name of Object.keys(off)) if (formula[name] !== null && Math.abs(formula[name]! - x[name as 'kd']) > 1e-9) off[name]!++;
    }
    const wrong = Object.entries(off).filter(([, n]) => n > 0);
    return { value: records.length > 0 && wrong.length === 0, detail: `${records.length} records${wrong.length > 0 ? `; not the formula: ${wrong.map(([x, n]) => `${x.toUpperCase()} ${n}`).join(', ')}` : ', every sub-score the formula of its evidence'}` };
  }],
  [/^psi\.design\.cl-patterns$/, () => {
    const categories = Object.keys(EXTRANEOUS_MARKERS).sort();
    const asAnAi = EXTRANEOUS_MARKERS.filler.some((re) => re.test('As an AI, I can explain.'));
    return { value: categories.join(',') === 'filler,hedging,tangent' && asAnAi, detail: `categories ${categories.join(', ')}; "as an AI" ${asAnAi ? 'is' : 'is not'} a filler pattern` };
  }],
  [/^psi\.design\.bloom-six-levels$/, () => {
    const levels = Object.entries(BLOOM_CUES).filter(([, cues]) => cues.length > 0).length;
    return num(levels);
  }],
  [/^psi\.protocol\.(prompt-parts|low-sd-feedback)$/, (m, k) => {
    return computedFromCheck((m[1] === 'prompt-parts' ? regenerationPromptParts : lowScaffoldingFeedback)(k.inputs.course, k.inputs.round1, k.inputs.round2));
  }],
  [/^psi\.protocol\.same-pipeline$/, (_m, k) => {
    // §IV-E: round 2 was scored by the same pipeline as round 1: every recorded score of either round is what this one pipeline
    // (lib/psi/score.ts, with the parameters the records were scored with, not the ones this analysis re-scores with) gives its text.
    const recorded = [...k.inputs.round1, ...k.inputs.round2].filter((r) => r.status === 'valid' && r.scores !== undefined);
    if (!k.inputs.round2.some((r) => r.status === 'valid' && r.scores !== undefined)) return { value: false, unavailable: 'no round-2 record carries the scores it was given, so there is no second scoring to compare with this pipeline' };
    const off = recorded.filter((r) => {
      const again = scoreResponse(r.text, getScenario(k.inputs.course, r.scenario), k.inputs.course, DEFAULT_PSI_PARAMETERS);
      return Math.abs(again.psi - r.scores!.psi) > 1e-9 || SUBSCORES.some((x) => Math.abs(again.subscores[x] - r.scores![x]) > 1e-9);
    });
    return { value: off.length === 0, detail: `${recorded.length - off.length} of ${recorded.length} recorded scores (both rounds) are this pipeline's${off.length > 0 ? `; first not: ${off[0]!.run_id}` : ''}` };
  }],
  [/^psi\.protocol\.lowest-defective$/, (_m, k) => {
    // §IV-E: the regenerated cases (round 2's parents) are defective-prompt cases, each with a lower round-1 PSI (as the collector scored
    // it when it chose them) than every defective case of the same models left out.
    const parents = new Set(k.scored2.map((r) => r.parent_run_id));
    if (parents.size === 0) return { value: false, unavailable: 'no scored round-2 record, so no regenerated case to compare' };
    const chosen = k.scored1AsRecorded.filter((r) => parents.has(r.run_id));
    // Only the models round 2 regenerated for: another model's defective cases were never candidates.
    const regenerated = new Set(chosen.map((r) => r.model));
    const left = k.scored1AsRecorded.filter((r) => r.variant === 'defective' && regenerated.has(r.model) && !parents.has(r.run_id));
    const standard = chosen.filter((r) => r.variant !== 'defective').length;
    const highest = Math.max(...chosen.map((r) => r.psi));
    const lowestLeft = Math.min(...left.map((r) => r.psi));
    return { value: chosen.length === parents.size && standard === 0 && highest < lowestLeft, detail: `${chosen.length} of ${parents.size} parents found, ${standard} standard-prompt; highest regenerated PSI ${highest.toFixed(3)}, lowest defective PSI left out ${lowestLeft.toFixed(3)} (${regenerated.size} models regenerated for)` };
  }],
  [/^psi\.table1\.psi\.([a-z0-9-]+)$/, (m, k) => {
    const paper = Object.keys(k.inputs.published.table1.psi).find((p) => slug(p) === m[1])!;
    const row = k.row(paper);
    return num(row?.psi ?? Number.NaN, row?.model);
  }],
  [/^psi\.table1\.sd\.([a-z0-9-]+)$/, (m, k) => {
    const paper = Object.keys(k.inputs.published.table1.sd).find((p) => slug(p) === m[1])!;
    const row = k.row(paper);
    return num(row?.sd ?? Number.NaN, row?.model);
  }],
  [/^psi\.table1\.spread$/, (_m, k) => num(Math.max(...k.table1.map((r) => r.psi)) - Math.min(...k.table1.map((r) => r.psi)))],
  [/^psi\.table1\.ranking$/, (_m, k) => ({ value: rankingText(k.table1, k.mirrors) })],
  [/^psi\.table1\.qwen-above-gemini$/, (_m, k) => ({ value: (k.row('Qwen 3')?.psi ?? Number.NaN) > (k.row('Gemini')?.psi ?? Number.NaN) })],
  [/^psi\.(?:table1\.sd-ratio|discussion\.sd-variation)$/, (_m, k) => num((k.row('ChatGPT')?.sd ?? Number.NaN) / (k.row('Gemini')?.sd ?? Number.NaN))],
  [/^psi\.table1\.ef$/, (_m, k) => {
    const efs = k.table1.map((r) => r.ef);
    // "identical across models": the claim holds only if the lowest and the highest model mean agree.
    const far = Math.max(...efs.map((e) => Math.abs(e - k.inputs.published.table1.ef_all_models)));
    return num(efs.find((e) => Math.abs(e - k.inputs.published.table1.ef_all_models) === far)!, `range ${Math.min(...efs).toFixed(4)}–${Math.max(...efs).toFixed(4)}`);
  }],
  [/^psi\.table1\.sd-primary-differentiator$/, (_m, k) => {
    const spreads = subscoreSpreads(k.table1);
    const widest = (Object.keys(spreads) as Array<keyof typeof spreads>).reduce((a, b) => (spreads[b] > spreads[a] ? b : a));
    return { value: widest === 'sd', detail: `widest spread: ${widest.toUpperCase()} ${spreads[widest].toFixed(3)}` };
  }],
  [/^psi\.discussion\.four-subscores-differentiate$/, (_m, k) => {
    const s = subscoreSpreads(k.table1);
    return { value: Math.max(s.ef, s.cl) < Math.min(s.kd, s.tv, s.sd, s.ra), detail: SUBSCORES.map((x) => `${x.toUpperCase()} ${s[x].toFixed(3)}`).join(', ') };
  }],
  [/^psi\.table2\.n$/, (_m, k) => {
    const sizes = new Map<string, number>();
    for (const r of k.scored1) sizes.set(`${r.model}|${r.variant}`, (sizes.get(`${r.model}|${r.variant}`) ?? 0) + 1);
    const ns = [...new Set(sizes.values())];
    return num(ns.length === 1 ? ns[0]! : Number.NaN, ns.length === 1 ? undefined : `cell sizes ${ns.join(', ')}`);
  }],
  [/^psi\.table3\.n$/, (_m, k) => num(k.scored1.filter((r) => r.variant === 'defective').length)],
  [/^psi\.table1\.cl-min$/, (_m, k) => num(Math.min(...k.table1.map((r) => r.cl)))],
  [/^psi\.figure1\.declines-every-model$/, (_m, k) => {
    // Every model's level means fall from each target level to the next (a negative slope alone is not a decline).
    const perModel = aggregate.psiByBloomLevel(k.scored1, k.inputs.course).perModel;
    const models = [...new Set(perModel.map((r) => r.model))].sort();
    const declines = (m: string) => perModel.filter((r) => r.model === m).every((r, i, rs) => i === 0 || r.psi < rs[i - 1]!.psi);
    return { value: models.length > 0 && models.every(declines), detail: models.map((m) => `${k.mirrors[m] ?? m} ${declines(m) ? 'declines' : 'rises somewhere'}`).join(', ') };
  }],
  [/^psi\.figure1\.([a-z]+)$/, (m, k) => {
    const level = BLOOM.indexOf(m[1]!) + 1;
    const row = aggregate.psiByBloomLevel(k.scored1, k.inputs.course).pooled.find((r) => r.level === level);
    return num(row?.psi ?? Number.NaN, row ? `n = ${row.n}` : undefined);
  }],
  [/^psi\.table3\.directions$/, (_m, k) => {
    const change = (x: string) => k.defectiveShifts.find((r) => r.measure === x)?.change ?? Number.NaN;
    return { value: change('tv') > 0 && change('kd') < 0 && change('sd') < 0, detail: `ΔTV ${change('tv').toFixed(3)}, ΔKD ${change('kd').toFixed(3)}, ΔSD ${change('sd').toFixed(3)}` };
  }],
  [/^psi\.table2\.delta-psi$/, (_m, k) => num(aggregate.standardVsDefective(k.scored1).overall.delta)],
  [/^psi\.table3\.delta\.([a-z]+)$/, (m, k) => num(k.defectiveShifts.find((r) => r.measure === m[1])?.change ?? Number.NaN)],
  [/^psi\.selection\.total$/, (_m, k) => num(k.selection.selected.length, `of ${k.selection.considered}, threshold ${k.selection.threshold}`)],
  [/^psi\.selection\.([a-z0-9-]+)$/, (m, k) => {
    const paper = Object.keys(k.inputs.published.table4.selected_per_model).find((p) => slug(p) === m[1])!;
    const model = Object.keys(k.mirrors).find((x) => k.mirrors[x] === paper);
    return num(model === undefined ? Number.NaN : (k.selection.perModel[model] ?? 0), model);
  }],
  [/^psi\.protocol\.fewest-weak-highest-baseline$/, (_m, k) => {
    // §IV-E: the model with the fewest weak cases is ChatGPT's stand-in, and it has the highest mean
    // round-1 PSI over the pool the selection draws from (defective prompts).
    const models = Object.keys(k.mirrors);
    const weak = (m: string) => k.selection.perModel[m] ?? 0;
    const baseline = (m: string) => {
      const ps = k.scored1.filter((r) => r.model === m && r.variant === 'defective').map((r) => r.psi);
      return ps.reduce((a, b) => a + b, 0) / ps.length;
    };
    const fewest = Math.min(...models.map(weak));
    const highest = Math.max(...models.map(baseline));
    const chatgpt = models.find((m) => k.mirrors[m] === 'ChatGPT');
    const holds = chatgpt !== undefined && models.filter((m) => weak(m) === fewest).length === 1 && weak(chatgpt) === fewest && baseline(chatgpt) === highest;
    return { value: holds, detail: models.map((m) => `${k.mirrors[m]} ${weak(m)} weak, defective PSI ${baseline(m).toFixed(3)}`).join('; ') };
  }],
  [/^psi\.table4\.improved$/, (_m, k) => num(k.regeneration.overall.improved, `of ${k.regeneration.overall.cases}`)],
  [/^psi\.table4\.improved-rate$/, (_m, k) => num(100 * k.regeneration.overall.rate)],
  [/^psi\.table4\.mean-gain$/, (_m, k) => num(k.regeneration.overall.meanGain)],
  [/^psi\.table4\.every-model-gains$/, (_m, k) => ({
    value: k.regeneration.perModel.length > 0 && k.regeneration.perModel.every((r) => r.meanGain > 0),
    detail: k.regeneration.perModel.map((r) => `${k.mirrors[r.model] ?? r.model} ${r.meanGain >= 0 ? '+' : ''}${r.meanGain.toFixed(3)}`).join(', '),
  })],
  [/^psi\.table5\.sd-before$/, (_m, k) => num(k.regenerationShifts.find((r) => r.measure === 'sd')!.before)],
  [/^psi\.table5\.sd-after$/, (_m, k) => num(k.regenerationShifts.find((r) => r.measure === 'sd')!.after)],
  [/^psi\.table5\.delta\.([a-z]+)$/, (m, k) => num(k.regenerationShifts.find((r) => r.measure === m[1])?.change ?? Number.NaN)],
  [/^psi\.table5\.n$/, (_m, k) => num(k.pairs.length)],
  [/^psi\.table5\.directions$/, (_m, k) => {
    const change = (x: string) => k.regenerationShifts.find((r) => r.measure === x)?.change ?? Number.NaN;
    return { value: change('sd') > 0 && change('kd') > 0 && change('tv') < 0 && change('ra') < 0, detail: ['sd', 'kd', 'tv', 'ra'].map((x) => `Δ${x.toUpperCase()} ${change(x).toFixed(3)}`).join(', ') };
  }],
  [/^psi\.table5\.ef-unchanged-every-case$/, (_m, k) => {
    const moved = k.pairs.filter((p) => p.after.subscores.ef !== p.before.subscores.ef).length;
    return { value: k.pairs.length > 0 && moved === 0, detail: `${moved} of ${k.pairs.length} cases change S_EF` };
  }],
  [/^psi\.table5\.sd-largest$/, (_m, k) => {
    const subs = k.regenerationShifts.filter((r) => r.measure !== 'psi');
    const largest = subs.reduce((a, b) => (Math.abs(b.change) > Math.abs(a.change) ? b : a));
    return { value: largest.measure === 'sd', detail: `largest |change|: ${largest.measure.toUpperCase()} ${largest.change.toFixed(3)}` };
  }],
];

/** The computed values of the PSI claims whose counterpart cell is one of `cells` (all when omitted). */
export function psiClaimValues(inputs: PsiClaimInputs, cells?: readonly string[]) {
  return claimValuesFor(inputs.published, PSI_REBUILDS, new PsiResults(inputs), cells);
}

/**
 * The PSI claims whose counterpart cell is one of `cells` (all when omitted), evaluated against the
 * inputs. With `inputs.ratings`, the Table VI claims are rebuilt from the ratings (in their ledger place
 * when all claims are asked for; for `cells`, those whose ratings cell is one of them come last).
 */
export function psiClaimRows(inputs: PsiClaimInputs, options: { cells?: readonly string[] } = {}): ClaimRow[] {
  const simulated = [...inputs.round1, ...inputs.round2].some((r) => r.simulated);
  const replicates = inputs.replicates === null ? undefined : (inputs.replicates ?? defaultReplicates('psi'));
  const results = new PsiResults(inputs);
  const rows = claimRowsFor(inputs.published, PSI_REBUILDS, results, simulated, options.cells, replicates);
  if (inputs.ratings === undefined) return rows;
  if (inputs.round2.length > 0) matchRatingsToPairs(inputs.ratings.ratings, results.pairs, inputs.ratings.file);
  const rated = psiRatingsClaimRows(inputs.published, inputs.ratings, { ...(options.cells ? { cells: options.cells } : {}), ...(inputs.replicates ? { replicates: inputs.replicates } : {}) });
  if (options.cells !== undefined) return [...rows, ...rated];
  const byId = new Map(rated.map((r) => [r.id, r]));
  return rows.map((r) => byId.get(r.id) ?? r);
}

/** The ledger entries a ratings file rebuilds, turned into rebuilt entries (function and cell from `rebuilt_with_ratings`). */
function ratingsEntries(claims: readonly ClaimEntry[]): ClaimEntry[] {
  return claims.filter((c) => c.rebuilt_with_ratings !== undefined).map(({ not_rebuildable: _reason, rebuilt_with_ratings: w, ...c }) => ({ ...c, rebuilt: w! }));
}

const rateValue = (r: ReturnType<typeof ratingRates>, c: RatingCriterion): Computed =>
  num(r.rates[c], `${r.ratings} rating(s) of ${r.cases} case(s) by ${r.raters} rater(s)${r.raters > 1 ? `; ${r.perRater.map((x) => `${x.rater} ${x.rates[c].toFixed(1)}`).join(', ')}` : ''}`);

/** Claim id → its value from the ratings (every entry marked `rebuilt_with_ratings` matches one). */
export const PSI_RATINGS_REBUILDS: ReadonlyArray<[RegExp, (m: RegExpMatchArray, r: ReturnType<typeof ratingRates>) => Computed]> = [
  [/^psi\.table6\.weaknesses-resolved$/, (_m, r) => rateValue(r, 'weaknesses_resolved')],
  [/^psi\.table6\.meaningful-improvement$/, (_m, r) => rateValue(r, 'meaningful_improvement')],
  [/^psi\.table6\.meaningful-below-resolved$/, (_m, r) => ({ value: r.rates.meaningful_improvement < r.rates.weaknesses_resolved, detail: `meaningful ${r.rates.meaningful_improvement.toFixed(1)} %, resolved ${r.rates.weaknesses_resolved.toFixed(1)} %` })],
];

/**
 * The Table VI claims rebuilt from a ratings file, by the same rule as every claim: the file's own
 * `simulated` flag is the input's provenance. On real ratings the printed rate is set against the
 * computed one; simulated ratings need the replicate statistics of their generator (`replicates`), as
 * every simulated claim does, else an InputError naming the file (no spread exists to judge them by).
 */
export function psiRatingsClaimRows(published: PublishedPsi, given: GivenRatings, options: { cells?: readonly string[]; replicates?: ClaimReplicates } = {}): ClaimRow[] {
  const doc = { ...published, claims: ratingsEntries(published.claims) };
  const simulated = given.ratings.simulated;
  if (simulated && options.replicates === undefined) {
    throw new InputError(
      `${given.file}: simulated: the ratings say they are simulated, and simulated ratings have no replicate spread to judge the Table VI claims by; give real ratings (simulated: false)`,
      { file: given.file, item: 'simulated' },
    );
  }
  return claimRowsFor(doc, PSI_RATINGS_REBUILDS, ratingRates(given.ratings), simulated, options.cells, options.replicates);
}
