import { test } from 'node:test';
import assert from 'node:assert/strict';
import { adaptationAlpha, DEFAULT_PSI_PARAMETERS, findScaffolds, SCAFFOLD_INDICATORS, scoreScaffolding } from '../../lib/psi';
import { close } from './helpers';

test('S_SD: 25 indicators in five categories of five', () => {
  assert.equal(SCAFFOLD_INDICATORS.length, 25);
  const per: Record<string, number> = {};
  for (const i of SCAFFOLD_INDICATORS) per[i.category] = (per[i.category] ?? 0) + 1;
  assert.deepEqual(per, { 'worked-example': 5, 'step-by-step': 5, hint: 5, 'comprehension-check': 5, analogy: 5 });
  assert.equal(new Set(SCAFFOLD_INDICATORS.map((i) => i.id)).size, 25);
});

test('S_SD: hand-counted indicators, propositions and α_adapt', () => {
  const steps = '1. First, open the file.\n2. Then, try changing the name.\nWhat happens if you remove the quotes?';
  // numbered items "1. F", "2. T" (2) + "First,", "Then," (2) + "try changing" (1) + "What happens if" (1) = 6
  assert.deepEqual(
    findScaffolds(steps).map((i) => i.id),
    ['st-numbered-item', 'st-numbered-item', 'st-sequence-word', 'st-sequence-word', 'hi-try', 'hi-what-if'],
  );
  // 6 indicators over 3 propositions, α = 0.5 (no reference): min(1, 2 · 0.5) = 1 (the cap)
  const a0 = adaptationAlpha(steps, [], [], DEFAULT_PSI_PARAMETERS);
  assert.equal(a0.alpha, 0.5);
  assert.equal(scoreScaffolding(steps, a0).score, 1);

  const text = 'Lists keep items in order. You already know variables, and in week 5 you saw lists. Imagine a shelf of boxes. The shelf never moves.';
  // 4 propositions; one indicator ("Imagine"); refs = 2 phrases ("You already know", "in week 5")
  // + 1 (some known concept named) + 0 (no objective concept) = 3
  const a1 = adaptationAlpha(text, ['variables', 'lists'], [], DEFAULT_PSI_PARAMETERS);
  assert.deepEqual(a1.adaptation.phrases, ['You already know', 'in week 5']);
  assert.equal(a1.adaptation.references, 3);
  assert.equal(a1.alpha, 0.875); // 0.5 + 0.5 · min(1, 3/4)
  const r = scoreScaffolding(text, a1);
  assert.equal(r.evidence.propositions, 4);
  assert.equal(r.evidence.scaffolds, 1);
  close(r.score, 0.21875); // 1/4 · 0.875
  // with an objective concept too: refs 4 → α = 1 → 0.25
  close(scoreScaffolding(text, adaptationAlpha(text, ['variables'], ['lists'], DEFAULT_PSI_PARAMETERS)).score, 0.25);
  // needing 8 references: α = 0.5 + 0.5 · 3/8 = 0.6875 → 0.25 · 0.6875 = 0.171875
  close(scoreScaffolding(text, adaptationAlpha(text, ['variables', 'lists'], [], { alphaBase: 0.5, alphaNeeded: 8 })).score, 0.171875);
  assert.equal(scoreScaffolding('', a1).score, 0);
});
