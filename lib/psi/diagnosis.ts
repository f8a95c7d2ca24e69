import { SUBSCORES, SUBSCORE_LABELS, type SubscoreName, type Subscores } from './parameters';
import type { ScaffoldCategory } from './scaffolding';
import { BLOOM_LEVELS } from './schema';
import type { PsiEvidence } from './score';

export type Severity = 'high' | 'medium' | 'low';

/** A weak sub-score with a concrete, evidence-based description. */
export interface Weakness {
  subscore: SubscoreName;
  score: number;
  severity: Severity;
  issue: string;
  /** Structured facts the checklist turns into instructions (present when evidence was available). */
  details?: {
    /** KD: the response has too little ('too-new') or too much ('too-familiar') familiar material. */
    direction?: 'too-new' | 'too-familiar' | 'no-concepts';
    newConcepts?: string[];
    knownConcepts?: string[];
    /** TV: [prerequisite, dependent] pairs mentioned in the wrong order. */
    violations?: Array<[string, string]>;
    /** SD: scaffold categories with no indicator, and whether α_adapt < 1. */
    missingCategories?: ScaffoldCategory[];
    lowAdaptation?: boolean;
    /** EF: memory concepts with retention below 0.5, stalest first. */
    fading?: Array<{ concept: string; retention: number }>;
    /** CL: matched extraneous phrases. */
    markers?: string[];
    /** RA: detected and target Bloom levels. */
    detected?: number;
    target?: number;
  };
}

/**
 * Severity cut-offs: a sub-score below `high` is a high-severity weakness, below `medium` medium,
 * below `low` low; at or above `low` it is not a weakness. Defaults 0.3 / 0.5 / 0.7: in the paper the
 * weak cases' scaffolding density averaged 0.073 (high), the overall PSI sits near 0.6, and a
 * sub-score of 0.7 or more is taken as acceptable.
 */
export interface SeverityCutoffs {
  high: number;
  medium: number;
  low: number;
}
export const DEFAULT_SEVERITY_CUTOFFS: Readonly<SeverityCutoffs> = Object.freeze({ high: 0.3, medium: 0.5, low: 0.7 });

const SEVERITY_RANK: Record<Severity, number> = { high: 0, medium: 1, low: 2 };
const ALL_SCAFFOLD_CATEGORIES: ScaffoldCategory[] = ['worked-example', 'step-by-step', 'hint', 'comprehension-check', 'analogy'];

function severityOf(score: number, c: SeverityCutoffs): Severity | undefined {
  if (score < c.high) return 'high';
  if (score < c.medium) return 'medium';
  if (score < c.low) return 'low';
  return undefined;
}

const fmt = (x: number) => x.toFixed(3);
const list = (ids: readonly string[], max = 4) =>
  ids.length <= max ? ids.join(', ') : `${ids.slice(0, max).join(', ')} and ${ids.length - max} more`;

function describe(name: SubscoreName, score: number, ev: Partial<PsiEvidence> | undefined): Pick<Weakness, 'issue' | 'details'> {
  switch (name) {
    case 'kd': {
      const e = ev?.kd;
      if (!e) return { issue: `knowledge distance ${fmt(score)}: the share of familiar material is far from the target` };
      if (e.conceptsFound.length === 0) {
        return { issue: 'no course concept could be identified in the response', details: { direction: 'no-concepts' } };
      }
      const tooNew = e.overlap < e.deltaOpt;
      return {
        issue: tooNew
          ? `only ${fmt(e.overlap)} of the response's concepts are familiar to the learner (target ${e.deltaOpt}); new: ${list(e.unknown)}`
          : `${fmt(e.overlap)} of the response's concepts are already familiar (target ${e.deltaOpt}); it adds little beyond what the learner knows`,
        details: { direction: tooNew ? 'too-new' : 'too-familiar', newConcepts: e.unknown, knownConcepts: e.known },
      };
    }
    case 'tv': {
      const e = ev?.tv;
      if (!e) return { issue: `prerequisite order score ${fmt(score)}: concepts appear before their prerequisites` };
      const shown = e.violations.slice(0, 3).map(([p, q]) => `${q} before its prerequisite ${p}`);
      return {
        issue: `${e.violations.length} of ${e.checks} prerequisite-order checks fail: ${shown.join('; ')}${e.violations.length > 3 ? '; …' : ''}`,
        details: { violations: e.violations },
      };
    }
    case 'sd': {
      const e = ev?.sd;
      if (!e) return { issue: `scaffolding density ${fmt(score)}: few worked examples, steps, hints or checks` };
      const present = new Set(e.indicators.map((i) => i.category));
      const missing = ALL_SCAFFOLD_CATEGORIES.filter((c) => !present.has(c));
      const lowAdaptation = e.alpha < 1;
      return {
        issue:
          `${e.scaffolds} scaffolding element(s) over ${e.propositions} proposition(s)` +
          (missing.length > 0 ? `; missing: ${missing.join(', ')}` : '') +
          (lowAdaptation ? `; little reference to the learner's prior knowledge (α = ${fmt(e.alpha)})` : ''),
        details: { missingCategories: missing, lowAdaptation },
      };
    }
    case 'ef': {
      const e = ev?.ef;
      if (!e) return { issue: `retention score ${fmt(score)}: related concepts were last practised long ago` };
      const fading = e.terms
        .filter((t) => t.retention < 0.5)
        .sort((a, b) => a.retention - b.retention)
        .map((t) => ({ concept: t.concept, retention: t.retention }));
      return {
        issue:
          fading.length > 0
            ? `the learner's memory of ${list(fading.map((f) => f.concept))} has faded (estimated retention ${fading.map((f) => fmt(f.retention)).slice(0, 4).join(', ')})`
            : `estimated retention of related concepts is ${fmt(score)}`,
        details: { fading },
      };
    }
    case 'cl': {
      const e = ev?.cl;
      if (!e) return { issue: `cognitive load score ${fmt(score)}: the response contains extraneous material` };
      const markers = [...new Set(e.markers.map((m) => m.match))];
      return {
        issue: `${e.extraneous} of ${e.propositions} proposition(s) hold filler, hedging or tangents (${list(markers.map((m) => `"${m}"`), 3)})`,
        details: { markers },
      };
    }
    case 'ra': {
      const e = ev?.ra;
      if (!e) return { issue: `Bloom alignment ${fmt(score)}: the response's cognitive level differs from the target` };
      return {
        issue: `the response works at ${e.detectedName} (level ${e.detected}) while the target is ${e.targetName} (level ${e.target})`,
        details: { detected: e.detected, target: e.target },
      };
    }
  }
}

/**
 * Lists the weak sub-scores, most severe first (ties in SUBSCORES order), each with an issue built
 * from the evidence when available (e.g. the prerequisite pairs in the wrong order). Evidence may be
 * absent (records carrying recorded scores only); issues are then generic.
 */
export function diagnose(
  scores: Subscores,
  evidence?: Partial<PsiEvidence>,
  cutoffs: SeverityCutoffs = DEFAULT_SEVERITY_CUTOFFS,
): Weakness[] {
  const out: Weakness[] = [];
  for (const name of SUBSCORES) {
    const severity = severityOf(scores[name], cutoffs);
    if (!severity) continue;
    out.push({ subscore: name, score: scores[name], severity, ...describe(name, scores[name], evidence) });
  }
  return out.sort(
    (a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || SUBSCORES.indexOf(a.subscore) - SUBSCORES.indexOf(b.subscore),
  );
}

/** What a response at each Bloom level asks of the learner (used in checklist items). */
const BLOOM_ACTIVITY: Record<number, string> = {
  1: 'state the key fact or syntax plainly and briefly',
  2: 'explain in plain words why it works, with a small example',
  3: 'have the student write or run a short piece of code that uses the idea',
  4: 'have the student trace or debug code and explain what causes the behaviour',
  5: 'have the student compare two approaches and justify which is better',
  6: 'have the student design a small program of their own',
};

const SCAFFOLD_ITEMS: Record<ScaffoldCategory, string> = {
  'worked-example': 'Add at least one worked code example with its expected output.',
  'step-by-step': 'Break the solution into numbered steps.',
  'comprehension-check': 'End with a comprehension-check question the student can answer.',
  hint: 'Give a hint that lets the student attempt the next step before seeing the full answer.',
  analogy: 'Add a short everyday analogy for the key idea.',
};

function itemsFor(w: Weakness): string[] {
  const d = w.details;
  switch (w.subscore) {
    case 'kd':
      if (d?.direction === 'too-new') {
        return [
          `Build on concepts the student already knows${d.knownConcepts?.length ? ` (${list(d.knownConcepts)})` : ''} and introduce at most one or two new ones${d.newConcepts?.length ? `; ${list(d.newConcepts)} are new to this student` : ''}.`,
        ];
      }
      if (d?.direction === 'too-familiar') {
        return ['Go one step beyond what the student already knows: connect the answer to the learning objective instead of restating familiar material.'];
      }
      if (d?.direction === 'no-concepts') return ['Name the course concepts the answer relies on, using the terms taught in class.'];
      return ['Match the answer to the student: mostly familiar concepts plus one new idea tied to the learning objective.'];
    case 'tv':
      if (d?.violations?.length) return d.violations.slice(0, 3).map(([p, q]) => `Explain ${p} before using ${q}.`);
      return ['Introduce each prerequisite concept before the concepts that depend on it.'];
    case 'sd': {
      const missing = d?.missingCategories ?? ['worked-example', 'step-by-step', 'comprehension-check'];
      const order: ScaffoldCategory[] = ['worked-example', 'step-by-step', 'comprehension-check', 'hint', 'analogy'];
      const items = order.filter((c) => missing.includes(c)).map((c) => SCAFFOLD_ITEMS[c]);
      if (items.length === 0) items.push('Add more worked examples, steps and checks relative to the amount of explanation.');
      if (d?.lowAdaptation) items.push("Refer explicitly to what the student already learned (e.g. 'as you saw in week 3 with variables').");
      return items;
    }
    case 'ef':
      if (d?.fading?.length) return d.fading.slice(0, 2).map((f) => `Briefly recap ${f.concept} before building on it; the student last practised it a while ago.`);
      return ['Briefly recap the earlier concepts the answer builds on.'];
    case 'cl':
      return [
        `Remove filler, hedging and side remarks${d?.markers?.length ? ` (e.g. ${list(d.markers.map((m) => `"${m}"`), 3)})` : ''}; keep every sentence about the student's question.`,
      ];
    case 'ra':
      if (d?.detected !== undefined && d.target !== undefined) {
        const name = BLOOM_LEVELS[d.target - 1];
        return d.detected < d.target
          ? [`Raise the cognitive level to ${name}: ${BLOOM_ACTIVITY[d.target]}.`]
          : [`Bring the response down to the ${name} level: ${BLOOM_ACTIVITY[d.target]}; leave harder tasks for later.`];
      }
      return ["Pitch the response at the target Bloom level of the learning objective."];
  }
}

/**
 * Turns weaknesses into concrete checklist items, in the weaknesses' order, without duplicates.
 * @example
 * const sd = { subscore: 'sd' as const, score: 0.1, severity: 'high' as const, issue: '', details: { missingCategories: ['worked-example', 'step-by-step'] } } as any;
 * const tv = { subscore: 'tv' as const, score: 0.5, severity: 'medium' as const, issue: '', details: { violations: [['variables', 'for_loop']] } } as any;
 * improvementChecklist([sd, tv, tv]); // => ['Add at least one worked code example with its expected output.', 'Break the solution into numbered steps.', 'Explain variables before using for_loop.']
 */
export function improvementChecklist(weaknesses: readonly Weakness[]): string[] {
  return [...new Set(weaknesses.flatMap(itemsFor))];
}

/** One-line label of a sub-score for prompts and tables, e.g. "SD (Scaffolding density)". */
export function subscoreLabel(name: SubscoreName): string {
  return `${name.toUpperCase()} (${SUBSCORE_LABELS[name]})`;
}
