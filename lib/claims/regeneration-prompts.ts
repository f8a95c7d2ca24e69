/**
 * [PSI-2026] §IV-E's method statements about the regeneration prompts, checked on a corpus's round-2
 * records. The records carry no prompt, but each carries its round-1 parent (`parent_run_id`) and the
 * checklist the tutor was given (`checklist`, written by the collector and the simulator alike), so
 * every prompt is rebuilt from what it was made of: the scenario, the variant, the parent's text and
 * that text's PSI scoring (the one pipeline, lib/psi/score.ts, default parameters as the collector
 * uses them). A rebuilt prompt counts only when its diagnosis gives the checklist the record holds.
 *
 * - `regenerationPromptParts`: every prompt holds the five parts (a) the student context and question,
 *   (b) the round-1 response, (c) the overall PSI and all six sub-scores, (d) each diagnosed weakness
 *   with its severity and issue, (e) every checklist item. The parts are looked for by content, not by
 *   heading, so a builder that drops one fails.
 * - `lowScaffoldingFeedback`: §IV-E's example, a case with no worked example, steps or comprehension
 *   check is asked for a worked code example with its expected output, a step-by-step breakdown and a
 *   comprehension-check question.
 *
 * No round-2 record, or none carrying its checklist (the authors' data would carry neither prompt nor
 * checklist): unavailable, the claim is not rebuildable on that input.
 */
import { InputError } from '../errors';
import { diagnose, improvementChecklist, subscoreLabel, type Weakness } from '../psi/diagnosis';
import { DEFAULT_PSI_PARAMETERS, SUBSCORES } from '../psi/parameters';
import type { ClaimCheck } from './ledger';
import { buildRegenerationPrompt, formatStudentContext, type ScoringSummary } from '../psi/regeneration';
import type { PsiCourse, PsiRecord, Scenario, Variant } from '../psi/schema';
import { scoreResponse } from '../psi/score';

/** What made the round-2 prompts: lib/psi's buildRegenerationPrompt unless another builder is named. */
export type RegenerationBuilder = (course: PsiCourse, scenario: Scenario, variant: Variant, round1Text: string, scoring: ScoringSummary) => { system: string; user: string };


interface Rebuilt {
  where: string;
  user: string;
  context: string;
  parentText: string;
  scoring: ScoringSummary;
  weaknesses: Weakness[];
  checklist: string[];
}

const unavailable = (reason: string): ClaimCheck => ({ holds: false, unavailable: reason, prompts: 0, detail: reason });
const failed = (prompts: number, detail: string): ClaimCheck => ({ holds: false, prompts, detail });

/** The valid round-2 records with their rebuilt prompts, or the first problem (a ClaimCheck). */
function rebuildAll(course: PsiCourse, round1: readonly PsiRecord[], round2: readonly PsiRecord[], build: RegenerationBuilder): Rebuilt[] | ClaimCheck {
  const valid = round2.filter((r) => r.status === 'valid');
  if (valid.length === 0) return unavailable('no valid round-2 record, so no regeneration prompt to rebuild');
  const withChecklist = valid.filter((r) => Array.isArray((r as { checklist?: unknown }).checklist));
  if (withChecklist.length === 0) return unavailable(`none of the ${valid.length} round-2 records carries the checklist it was given (nor its prompt), so what was sent cannot be rebuilt`);
  const parents = new Map(round1.map((r) => [r.run_id, r]));
  const out: Rebuilt[] = [];
  for (const r of withChecklist) {
    const where = `round-2 record ${r.run_id}`;
    const parent = parents.get(r.parent_run_id ?? '');
    if (!parent) return failed(out.length, `${where}: its parent ${r.parent_run_id ?? '(none)'} is not among the round-1 records`);
    const scenario = course.scenarioById.get(r.scenario);
    if (!scenario) return failed(out.length, `${where}: scenario ${r.scenario} is not in the course`);
    // The recorded scores and checklists were made with lib/psi's defaults (the collector and the simulated
    // tutors score with them), whatever a notebook later re-scores with.
    const full = scoreResponse(parent.text, scenario, course, DEFAULT_PSI_PARAMETERS);
    const scoring: ScoringSummary = { psi: full.psi, subscores: full.subscores, evidence: full.evidence };
    const weaknesses = diagnose(scoring.subscores, scoring.evidence);
    const checklist = improvementChecklist(weaknesses);
    const recorded = (r as { checklist?: unknown }).checklist;
    if (JSON.stringify(recorded) !== JSON.stringify(checklist)) return failed(out.length, `${where}: its recorded checklist is not the one the diagnosis of its round-1 response gives`);
    let user: string;
    try {
      user = build(course, scenario, r.variant, parent.text, scoring).user;
    } catch (e) {
      if (e instanceof InputError) return failed(out.length, `${where}: ${e.message}`);
      throw e;
    }
    out.push({ where, user, context: formatStudentContext(course, scenario, r.variant), parentText: parent.text, scoring, weaknesses, checklist });
  }
  return out;
}

/** The parts (a)–(e) a rebuilt prompt lacks, by letter. */
function missingParts(p: Rebuilt): string[] {
  const has = (s: string) => p.user.includes(s);
  const scores = [`${p.scoring.psi.toFixed(3)}`, ...SUBSCORES.map((x) => `${subscoreLabel(x)}: ${p.scoring.subscores[x].toFixed(3)}`)];
  const parts: Array<[string, boolean]> = [
    ['a', has(p.context)],
    ['b', has(p.parentText)],
    ['c', scores.every(has)],
    ['d', p.weaknesses.every((w) => has(w.issue) && p.user.toLowerCase().includes(w.severity))],
    ['e', p.checklist.every(has)],
  ];
  return parts.filter(([, ok]) => !ok).map(([letter]) => letter);
}

/** §IV-E: every regeneration prompt holds the five parts (a)–(e) (see the module comment). */
export function regenerationPromptParts(course: PsiCourse, round1: readonly PsiRecord[], round2: readonly PsiRecord[], options: { build?: RegenerationBuilder } = {}): ClaimCheck {
  const rebuilt = rebuildAll(course, round1, round2, options.build ?? buildRegenerationPrompt);
  if (!Array.isArray(rebuilt)) return rebuilt;
  for (const [i, p] of rebuilt.entries()) {
    const missing = missingParts(p);
    if (missing.length > 0) return failed(i, `${p.where}: its rebuilt prompt lacks part${missing.length > 1 ? 's' : ''} (${missing.join('), (')})`);
  }
  const skipped = round2.filter((r) => r.status === 'valid').length - rebuilt.length;
  return { holds: true, prompts: rebuilt.length, detail: `${rebuilt.length} prompts rebuilt, each with the five parts${skipped > 0 ? `; ${skipped} records without a checklist not checked` : ''}` };
}

/** The checklist asks of a case with none of the three scaffolds of §IV-E's example. */
export const LOW_SCAFFOLDING_ASKS: ReadonlyArray<readonly [string, RegExp]> = [
  ['a worked code example with its expected output', /worked code example[^\n]*expected output/i],
  ['a step-by-step breakdown', /numbered steps|step-by-step/i],
  ['a comprehension-check question', /comprehension[- ]check question/i],
];
const EXAMPLE_CATEGORIES = ['worked-example', 'step-by-step', 'comprehension-check'];

/** §IV-E's example: a case lacking worked example, steps and check is asked for all three (see the module comment). */
export function lowScaffoldingFeedback(course: PsiCourse, round1: readonly PsiRecord[], round2: readonly PsiRecord[], options: { build?: RegenerationBuilder } = {}): ClaimCheck {
  const rebuilt = rebuildAll(course, round1, round2, options.build ?? buildRegenerationPrompt);
  if (!Array.isArray(rebuilt)) return rebuilt;
  const cases = rebuilt.filter((p) => p.weaknesses.some((w) => w.subscore === 'sd' && EXAMPLE_CATEGORIES.every((c) => w.details?.missingCategories?.includes(c as never))));
  if (cases.length === 0) return { ...unavailable(`none of the ${rebuilt.length} regenerated cases lacks a worked example, steps and a comprehension check at once`), prompts: rebuilt.length };
  for (const p of cases) {
    // Only the text from the first checklist item on (the round-1 answer quoted in part (b) does not count).
    const start = p.checklist.length === 0 ? -1 : p.user.indexOf(p.checklist[0]!);
    const checklist = start < 0 ? '' : p.user.slice(start);
    const lacking = LOW_SCAFFOLDING_ASKS.filter(([, re]) => !re.test(checklist)).map(([what]) => what);
    if (lacking.length > 0) return failed(cases.length, `${p.where}: S_SD ${p.scoring.subscores.sd.toFixed(3)} with none of the three scaffolds, but its prompt does not ask for ${lacking.join(', ')}`);
  }
  return { holds: true, prompts: rebuilt.length, detail: `${cases.length} of ${rebuilt.length} regenerated cases lack all three scaffolds; each prompt asks for a worked example with output, numbered steps and a comprehension-check question` };
}
