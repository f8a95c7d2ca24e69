/**
 * lib/claims/regeneration-prompts.ts: [PSI-2026] §IV-E's statements about the regeneration prompts,
 * rebuilt from the shipped round-2 records (parent, scoring, recorded checklist). They hold there, and
 * fail on a builder that drops a part or the example's asks, and on a record whose checklist is not its
 * diagnosis's; an input without round-2 records or checklists cannot show them (unavailable).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadPsiCourse, loadPsiRecords, type PsiRecord } from '../../lib/psi/schema';
import { buildRegenerationPrompt } from '../../lib/psi/regeneration';
import { lowScaffoldingFeedback, regenerationPromptParts, type RegenerationBuilder } from '../../lib/claims/regeneration-prompts';

const dir = join(__dirname, '..', '..', 'data', 'raw', 'psi');
const course = loadPsiCourse(dir);
const round1 = loadPsiRecords(join(dir, 'round1.jsonl'), course);
const round2 = loadPsiRecords(join(dir, 'round2.jsonl'), course);
/** The shipped builder with one piece of its text taken out. */
const without = (cut: (user: string) => string): RegenerationBuilder => (...args) => {
  const p = buildRegenerationPrompt(...args);
  return { system: p.system, user: cut(p.user) };
};

test('the shipped round-2 prompts, rebuilt, hold the five parts and the low-S_SD asks', () => {
  const parts = regenerationPromptParts(course, round1, round2);
  assert.deepEqual([parts.holds, parts.prompts, parts.detail], [true, round2.length, `${round2.length} prompts rebuilt, each with the five parts`]);
  const low = lowScaffoldingFeedback(course, round1, round2);
  assert.equal(low.holds, true, low.detail);
  assert.match(low.detail, /^\d+ of \d+ regenerated cases lack all three scaffolds/);
});

test('a builder that drops a part, or an ask of the example, fails naming the record and what is missing', () => {
  const first = round2.find((r) => r.status === 'valid')!;
  const parent = round1.find((r) => r.run_id === first.parent_run_id)!;
  const noAnswer = without((u) => u.replace(parent.text, '(answer left out)'));
  assert.match(regenerationPromptParts(course, round1, round2, { build: noAnswer }).detail, new RegExp(`^round-2 record ${first.run_id}: its rebuilt prompt lacks part \\(b\\)$`));
  const noScores = without((u) => u.replace(/^- (KD|TV|SD|EF|CL|RA) .*$/gm, ''));
  assert.match(regenerationPromptParts(course, round1, round2, { build: noScores }).detail, /lacks part \(c\)$/);
  const noDiagnosis = without((u) => u.replace(/^- \[(HIGH|MEDIUM|LOW)\].*$/gm, ''));
  assert.match(regenerationPromptParts(course, round1, round2, { build: noDiagnosis }).detail, /lacks part \(d\)$/);
  const noChecklist = without((u) => u.replace(/^- \[ \].*$/gm, ''));
  assert.match(regenerationPromptParts(course, round1, round2, { build: noChecklist }).detail, /lacks part \(e\)$/);
  const noQuestion = without((u) => u.replace("Student's question:", ''));
  assert.match(regenerationPromptParts(course, round1, round2, { build: noQuestion }).detail, /lacks part \(a\)$/);
  const noCheck = without((u) => u.replace(/^- \[ \] End with a comprehension-check question.*$/m, '- [ ] End there.'));
  const low = lowScaffoldingFeedback(course, round1, round2, { build: noCheck });
  assert.equal(low.holds, false);
  assert.match(low.detail, /: S_SD \d\.\d{3} with none of the three scaffolds, but its prompt does not ask for a comprehension-check question$/);
});

test('a record whose checklist is not its diagnosis\'s, or whose parent is missing, fails; no round 2 or no checklist is unavailable', () => {
  const k = round2.findIndex((r) => r.status === 'valid');
  const altered = round2.map((r, i) => (i === k ? ({ ...r, checklist: ['Be nicer.'] } as PsiRecord) : r));
  const bad = regenerationPromptParts(course, round1, altered);
  assert.deepEqual([bad.holds, bad.unavailable], [false, undefined]);
  assert.match(bad.detail, new RegExp(`^round-2 record ${round2[k]!.run_id}: its recorded checklist is not the one the diagnosis of its round-1 response gives$`));
  const orphan = round2.map((r, i) => (i === k ? { ...r, parent_run_id: 'nowhere' } : r));
  assert.match(regenerationPromptParts(course, round1, orphan).detail, /its parent nowhere is not among the round-1 records/);
  assert.match(regenerationPromptParts(course, round1, []).unavailable!, /^no valid round-2 record/);
  const bare = round2.map(({ checklist: _c, ...r }) => r as PsiRecord);
  assert.match(lowScaffoldingFeedback(course, round1, bare).unavailable!, /^none of the \d+ round-2 records carries the checklist/);
});
