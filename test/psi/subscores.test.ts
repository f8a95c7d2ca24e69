import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  adaptationAlpha,
  DEFAULT_PSI_PARAMETERS,
  findScaffolds,
  SCAFFOLD_INDICATORS,
  scoreBloomAlignment,
  scoreCognitiveLoad,
  scoreForgetting,
  scoreKnowledgeDistance,
  scoreScaffolding,
  scoreTemporalViolation,
} from '../../lib/psi';

const close = (actual: number, expected: number, eps = 1e-9) =>
  assert.ok(Math.abs(actual - expected) <= eps, `expected ${expected}, got ${actual}`);

test('S_KD: known-share and Jaccard overlap, no-concept case', () => {
  const opts = { deltaOpt: 0.65, overlap: 'known-share' as const };
  // C_R = {a,b,c}, K = {a,b,x,y}: known-share 2/3 → 1 − |0.666667 − 0.65| = 0.983333
  const ks = scoreKnowledgeDistance(['a', 'b', 'c'], ['a', 'b', 'x', 'y'], opts);
  close(ks.score, 1 - (2 / 3 - 0.65));
  assert.deepEqual(ks.evidence.unknown, ['c']);
  // Jaccard: |∩| = 2, |∪| = |K| 4 + new 1 = 5 → 0.4 → 1 − |0.4 − 0.65| = 0.75
  close(scoreKnowledgeDistance(['a', 'b', 'c'], ['a', 'b', 'x', 'y'], { ...opts, overlap: 'jaccard' }).score, 0.75);
  // nothing found: sim = 0 → 1 − 0.65 = 0.35 under both measures
  close(scoreKnowledgeDistance([], ['a'], opts).score, 0.35);
  close(scoreKnowledgeDistance([], ['a'], { ...opts, overlap: 'jaccard' }).score, 0.35);
  // everything familiar: sim = 1 → 1 − 0.35 = 0.65; δ = 1 would make it perfect
  close(scoreKnowledgeDistance(['a'], ['a'], opts).score, 0.65);
  close(scoreKnowledgeDistance(['a'], ['a'], { ...opts, deltaOpt: 1 }).score, 1);
});

test('S_TV: first-mention order against prerequisite pairs', () => {
  const closure = [['a', 'b'], ['a', 'c'], ['b', 'c']] as const;
  // first mentions c@0, a@10, b@20: (a,b) ok, (a,c) violated, (b,c) violated → 1 − 2/3
  const r = scoreTemporalViolation([{ id: 'c', first: 0 }, { id: 'a', first: 10 }, { id: 'b', first: 20 }], closure);
  close(r.score, 1 / 3);
  assert.equal(r.evidence.checks, 3);
  assert.deepEqual(r.evidence.violations, [['a', 'c'], ['b', 'c']]);
  // only a and b mentioned, in order: 1 check, 0 violations → 1; nothing comparable → 1
  close(scoreTemporalViolation([{ id: 'a', first: 5 }, { id: 'b', first: 9 }], closure).score, 1);
  const none = scoreTemporalViolation([{ id: 'a', first: 0 }], closure);
  assert.equal(none.score, 1);
  assert.equal(none.evidence.checks, 0);
});

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

test('S_EF: scenario mode, response mode with renormalised λ, fallback', () => {
  const memory = [
    { concept: 'variables', days_since_exposure: 2, strength_days: 4, importance: 0.5 },
    { concept: 'lists', days_since_exposure: 10, strength_days: 5, importance: 0.5 },
  ];
  // 0.5·e^−0.5 + 0.5·e^−2 = 0.5·0.6065307 + 0.5·0.1353353 = 0.3709330
  close(scoreForgetting(memory).score, 0.5 * Math.exp(-0.5) + 0.5 * Math.exp(-2));
  close(scoreForgetting(memory).score, 0.370933, 1e-6);
  // response mentions lists only: λ renormalised to 1 → e^−2 = 0.1353353
  close(scoreForgetting(memory, 'response', ['lists', 'for_loop']).score, 0.1353353, 1e-7);
  const fb = scoreForgetting(memory, 'response', []);
  close(fb.score, 0.370933, 1e-6);
  assert.equal(fb.evidence.fallback, true);
});

test('S_CL: propositions with filler / hedging / tangent markers', () => {
  // 5 propositions; "Great question!" (filler) and "I think it works." (hedging) → 1 − 2/5
  const r = scoreCognitiveLoad('Great question! I think it works. Loops repeat code. Lists hold items. Use them.');
  close(r.score, 0.6);
  assert.deepEqual(r.evidence.markers.map((m) => m.category), ['filler', 'hedging']);
  // three markers in one proposition count once: 2 propositions, 1 extraneous → 0.5
  const m = scoreCognitiveLoad('By the way, I think this is kind of neat. It runs.');
  close(m.score, 0.5);
  assert.equal(m.evidence.markers.length, 3);
  // code is not searched: "probably" in a comment does not count → 2 propositions, 0 extraneous
  assert.equal(scoreCognitiveLoad('Sort the list.\n```python\n# probably fine\nx.sort()\n```').score, 1);
  assert.equal(scoreCognitiveLoad('').score, 1);
});

test("S_RA: Bloom level from cue counts with a code bonus; ties go down; default level", () => {
  const opts = DEFAULT_PSI_PARAMETERS;
  // Understand: "explain", "means" = 2; Apply: "Run" = 1 + bonus 2 for one Python block = 3 → b_R 3
  const r = scoreBloomAlignment('Let me explain what this means. Run it.\n```python\nprint(1)\n```', 2, opts);
  assert.deepEqual(r.evidence.levelScores, [0, 2, 3, 0, 0, 0]);
  assert.equal(r.evidence.detected, 3);
  close(r.score, 0.8); // 1 − |3 − 2|/5
  // tie Understand 1 ("Explain") vs Analyze 1 ("debug") → level 2; target 4 → 1 − 2/5
  const t = scoreBloomAlignment('Explain it and debug it.', 4, opts);
  assert.equal(t.evidence.detected, 2);
  close(t.score, 0.6);
  // no cue at all: default level 1; target 3 → 0.6
  const d = scoreBloomAlignment('Hello there.', 3, opts);
  assert.equal(d.evidence.defaulted, true);
  close(d.score, 0.6);
  // cue words inside a non-Python block are ignored and earn no bonus: only "Run" (Apply) counts
  assert.deepEqual(scoreBloomAlignment('```text\nexplain explain\n```\nRun it.', 3, opts).evidence.levelScores, [0, 0, 1, 0, 0, 0]);
  // level weights scale the counts: weight 3 on Understand makes [0, 6, 3, …] → b_R 2
  assert.equal(
    scoreBloomAlignment('Let me explain what this means. Run it.\n```python\nprint(1)\n```', 2, { ...opts, bloomLevelWeights: [1, 3, 1, 1, 1, 1] }).evidence.detected,
    2,
  );
});
