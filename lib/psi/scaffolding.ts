import { propositions } from './text';

export type ScaffoldCategory = 'worked-example' | 'step-by-step' | 'hint' | 'comprehension-check' | 'analogy';

/** One regular-expression scaffolding indicator. Every pattern is global and case-insensitive. */
export interface ScaffoldIndicator {
  id: string;
  category: ScaffoldCategory;
  description: string;
  pattern: RegExp;
}

/**
 * The 25 scaffolding indicators, five per category (the project's own patterns; see README.md).
 * Every occurrence of every pattern counts once toward N_scaffold, and different indicators may match
 * the same words: "1. Step 1: …" counts as a numbered list item and as a step label.
 */
export const SCAFFOLD_INDICATORS: readonly ScaffoldIndicator[] = [
  // Worked examples: code and what it produces.
  {
    id: 'we-code-block',
    category: 'worked-example',
    description: 'a complete fenced code block',
    pattern: /^[ \t]*(`{3,}|~{3,})[^\n]*\n[\s\S]*?^[ \t]*\1[ \t]*$/gim,
  },
  {
    id: 'we-output-shown',
    category: 'worked-example',
    description: 'shown output ("Output:", "this prints", "you will see")',
    pattern: /\b(?:expected output|sample output|the output is|output\s*:|this (?:will )?prints?|it (?:will )?prints?|(?:this|it) (?:will )?displays?|you(?:'ll| will) see)/gi,
  },
  {
    id: 'we-output-comment',
    category: 'worked-example',
    description: 'a code comment giving the result ("# Output: 5", "# prints 5", "# -> 5")',
    pattern: /#\s*(?:output\b|prints?\b|result\b|returns?\b|->|=>|→)/gi,
  },
  {
    id: 'we-repl',
    category: 'worked-example',
    description: 'an interactive-interpreter line (">>> ")',
    pattern: /^[ \t]*>>>[ \t]/gm,
  },
  {
    id: 'we-example-intro',
    category: 'worked-example',
    description: 'an example introduced ("for example", "here is an example", "consider this")',
    pattern: /\b(?:for example|for instance|here(?:'s| is) an? (?:example|quick example|small example)|example\s*:|consider (?:this|the following))/gi,
  },
  // Step-by-step guidance.
  {
    id: 'st-step-label',
    category: 'step-by-step',
    description: 'a step label ("Step 1")',
    pattern: /\bstep\s*\d+\b/gi,
  },
  {
    id: 'st-numbered-item',
    category: 'step-by-step',
    description: 'a numbered list item ("1. ", "2) ")',
    pattern: /^[ \t]*\d+[.)][ \t]+\S/gm,
  },
  {
    id: 'st-sequence-word',
    category: 'step-by-step',
    description: 'a sequencing word opening a step ("First,", "Next,", "Finally,")',
    pattern: /\b(?:first|second|third|next|then|after that|finally|lastly)\s*,/gi,
  },
  {
    id: 'st-walkthrough',
    category: 'step-by-step',
    description: 'an announced walk-through ("let\'s walk through", "let\'s break it down")',
    pattern: /\blet(?:'s| us) (?:walk through|break (?:this|it) down|go through|trace|look at (?:it|this|each|what))/gi,
  },
  {
    id: 'st-incremental',
    category: 'step-by-step',
    description: 'incremental framing ("step by step", "line by line", "one step at a time")',
    pattern: /\b(?:step[- ]by[- ]step|line[- ]by[- ]line|one (?:step|line) at a time|piece by piece)\b/gi,
  },
  // Hints and prompts that leave work to the learner.
  {
    id: 'hi-hint',
    category: 'hint',
    description: 'an explicit hint',
    pattern: /\bhints?\b/gi,
  },
  {
    id: 'hi-try',
    category: 'hint',
    description: 'an invitation to try something ("try changing", "give it a try")',
    pattern: /\b(?:try (?:to|it|this|changing|adding|removing|running|writing|printing|replacing)\b|give it a try|try it yourself)/gi,
  },
  {
    id: 'hi-think-about',
    category: 'hint',
    description: 'a thinking prompt ("think about", "ask yourself", "notice that")',
    pattern: /\b(?:think about|ask yourself|notice (?:that|how|what|where))\b/gi,
  },
  {
    id: 'hi-what-if',
    category: 'hint',
    description: 'a what-if prompt ("what happens if")',
    pattern: /\bwhat (?:happens|would happen|will happen) (?:if|when)\b/gi,
  },
  {
    id: 'hi-tip',
    category: 'hint',
    description: 'a tip or warning ("tip:", "keep in mind", "common mistake", "be careful")',
    pattern: /\b(?:tip\s*:|keep in mind|watch out|be careful|common mistake|a common pitfall|note that)/gi,
  },
  // Comprehension checks.
  {
    id: 'cc-question',
    category: 'comprehension-check',
    description: 'a question addressed to the learner ("Can you …?", "What do you think …?")',
    pattern: /\b(?:can you|could you|do you|what do you|how would you|why do you|which (?:line|one|value|version))\b[^?\n]{0,160}\?/gi,
  },
  {
    id: 'cc-check-label',
    category: 'comprehension-check',
    description: 'a labelled check ("quick check", "check your understanding", "test yourself")',
    pattern: /\b(?:quick check|check your understanding|self-check|test yourself|quiz yourself|mini quiz)\b/gi,
  },
  {
    id: 'cc-predict',
    category: 'comprehension-check',
    description: 'a prediction request ("predict", "what will this print", "before running")',
    pattern: /\b(?:predict|what will (?:this|the code|it|your code) (?:print|output|display|show)|before (?:you )?run(?:ning)? it)\b/gi,
  },
  {
    id: 'cc-exercise',
    category: 'comprehension-check',
    description: 'an exercise for the learner ("exercise", "practice", "your turn", "challenge")',
    pattern: /\b(?:exercises?|practice (?:problem|task|question)|your turn|on your own|mini[- ]challenge|challenge\s*:)/gi,
  },
  {
    id: 'cc-explain-back',
    category: 'comprehension-check',
    description: 'an explain-back or sense check ("in your own words", "does this make sense")',
    pattern: /\b(?:in your own words|explain (?:it|this|that) back|does (?:this|that) make sense)\b/gi,
  },
  // Analogies.
  {
    id: 'an-think-of',
    category: 'analogy',
    description: '"think of X as …" (X up to three words)',
    pattern: /\bthink of (?:[\w-]+(?: [\w-]+){0,2}) as\b/gi,
  },
  {
    id: 'an-like-a',
    category: 'analogy',
    description: '"is/works/acts like a …"',
    pattern: /\b(?:is|are|works?|acts?|behaves?) (?:just |a bit |much |a lot )?like (?:a|an|the|your)\b/gi,
  },
  {
    id: 'an-imagine',
    category: 'analogy',
    description: '"imagine …"',
    pattern: /\bimagine\b/gi,
  },
  {
    id: 'an-analogy-word',
    category: 'analogy',
    description: 'an announced comparison ("analogy", "in real life", "everyday")',
    pattern: /\b(?:analogy|analogous|metaphor|in real life|real-world|everyday|similar to how)\b/gi,
  },
  {
    id: 'an-just-as',
    category: 'analogy',
    description: '"just as …" / "just like …"',
    pattern: /\bjust (?:as|like)\b/gi,
  },
];

/**
 * Phrases by which a response addresses this learner's history (used for α_adapt):
 * "you already know", "you've learned/seen/used", "as you saw", "remember when/how/from",
 * "recall that", "in week 3", "last week", "earlier in the course", "from class/lecture/lab",
 * "building on", "since you know".
 */
export const LEARNER_REFERENCE_PATTERN =
  /\b(?:you already know|you(?:'ve| have) (?:already )?(?:learned|learnt|seen|used|met|covered|practi[cs]ed|written)|as you (?:saw|learned|learnt|know)|remember (?:from|when|how)|recall (?:from|that|how)|in week \d+|last week|earlier in (?:the|this) (?:course|class|semester)|from (?:class|lecture|lab)|building on|since you know)\b/gi;

/** Evidence of S_SD. */
export interface ScaffoldingEvidence {
  indicators: Array<{ id: string; category: ScaffoldCategory; match: string }>;
  /** N_scaffold. */
  scaffolds: number;
  /** N_total. */
  propositions: number;
  alpha: number;
  adaptation: { knownConcepts: string[]; objectiveConcepts: string[]; phrases: string[]; references: number };
}

/** All indicator matches in `text`, in indicator order then text order. */
export function findScaffolds(text: string): ScaffoldingEvidence['indicators'] {
  const out: ScaffoldingEvidence['indicators'] = [];
  for (const ind of SCAFFOLD_INDICATORS) {
    ind.pattern.lastIndex = 0;
    for (const m of text.matchAll(ind.pattern)) out.push({ id: ind.id, category: ind.category, match: m[0] });
  }
  return out;
}

/**
 * α_adapt = base + (1 − base) · min(1, refs / needed), with
 * refs = (occurrences of learner-reference phrases, LEARNER_REFERENCE_PATTERN)
 *      + 1 if the response names at least one concept the learner already knows
 *      + 1 if it names at least one of the scenario's objective concepts.
 * The two concept terms are capped at 1 each because almost any answer names several familiar
 * concepts; only explicit references to this learner's history ("you already know", "as you saw in
 * week 4") can lift α to 1 with the defaults (base 0.5, needed 4). A response with no
 * learner-specific reference keeps `base` of its scaffolding credit.
 * Base 0.5, needed 4, a known concept, an objective concept and one "you already know": refs 3,
 * α = 0.5 + 0.5 · 0.75 = 0.875.
 * @example
 * const options = { alphaBase: 0.5, alphaNeeded: 4 };
 * adaptationAlpha('As you already know, a loop repeats.', ['loops'], ['for_loop'], options).alpha; // => 0.875
 * adaptationAlpha('A loop repeats.', [], [], options).alpha; // => 0.5
 */
export function adaptationAlpha(
  text: string,
  knownMentioned: readonly string[],
  objectiveMentioned: readonly string[],
  options: { alphaBase: number; alphaNeeded: number },
): { alpha: number; adaptation: ScaffoldingEvidence['adaptation'] } {
  LEARNER_REFERENCE_PATTERN.lastIndex = 0;
  const phrases = [...text.matchAll(LEARNER_REFERENCE_PATTERN)].map((m) => m[0]);
  const knownConcepts = [...new Set(knownMentioned)];
  const objectiveConcepts = [...new Set(objectiveMentioned)];
  const references = phrases.length + Math.min(1, knownConcepts.length) + Math.min(1, objectiveConcepts.length);
  const alpha = options.alphaBase + (1 - options.alphaBase) * Math.min(1, references / options.alphaNeeded);
  return { alpha, adaptation: { knownConcepts, objectiveConcepts, phrases, references } };
}

/**
 * Scaffolding density S_SD = min(1, (N_scaffold / N_total) · α_adapt).
 * N_scaffold = number of indicator matches (findScaffolds), N_total = number of propositions
 * (text.ts `propositions`). An empty response (N_total = 0) scores 0. The min(1, ·) cap matters only
 * for short texts dense with indicators.
 * Two matches ("Imagine", "Tip:") over 8 propositions with α = 0.875: 0.25 · 0.875 = 0.21875.
 * @example
 * const text = 'Imagine a box. Tip: name it well. A box holds a value. You set it once. You read it later. It stays the same. Names matter. That is all.';
 * const alpha = { alpha: 0.875, adaptation: { knownConcepts: [], objectiveConcepts: [], phrases: [], references: 0 } };
 * scoreScaffolding(text, alpha).score; // => 0.21875
 * scoreScaffolding('', alpha).score; // => 0
 */
export function scoreScaffolding(
  text: string,
  alpha: { alpha: number; adaptation: ScaffoldingEvidence['adaptation'] },
  codeBlocks: 'one' | 'lines' = 'one',
): { score: number; evidence: ScaffoldingEvidence } {
  const indicators = findScaffolds(text);
  const n = propositions(text, codeBlocks).length;
  const score = n === 0 ? 0 : Math.min(1, (indicators.length / n) * alpha.alpha);
  return {
    score,
    evidence: { indicators, scaffolds: indicators.length, propositions: n, alpha: alpha.alpha, adaptation: alpha.adaptation },
  };
}
