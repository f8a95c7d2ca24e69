import { propositions } from './text';

export type ExtraneousCategory = 'filler' | 'hedging' | 'tangent';

/**
 * Extraneous-content markers (the project's own phrase lists; see README.md). Each is a case-insensitive
 * regular expression matched inside prose propositions (code is never searched).
 */
export const EXTRANEOUS_MARKERS: Readonly<Record<ExtraneousCategory, readonly RegExp[]>> = {
  // Social or meta talk that carries no instruction.
  filler: [
    /\bas an ai\b/i,
    /\bas a (?:large )?language model\b/i,
    /\b(?:great|good|excellent|fantastic|awesome) question\b/i,
    /\bi hope (?:this|that) helps\b|\bhope (?:this|that) helps\b/i,
    /\bhappy coding\b/i,
    /\bfeel free to\b/i,
    /\bdon'?t hesitate to\b/i,
    /\bi'?d be (?:happy|glad) to\b|\bi'?m (?:happy|glad) to help\b/i,
    /^(?:sure|certainly|absolutely|of course)\s*[!.,]/i,
    /\bthanks for (?:asking|your question|sharing)\b/i,
  ],
  // Uncertainty about the tutor's own statements.
  hedging: [
    /\bi (?:think|believe|guess|suppose)\b/i,
    /\bi'?m not (?:entirely |completely |totally |100% )?sure\b/i,
    /\b(?:probably|perhaps|possibly|arguably)\b/i,
    /\bit (?:seems|appears) (?:that|like)\b/i,
    /\b(?:sort of|kind of|more or less|to some extent)\b/i,
    /\bif i'?m not mistaken\b/i,
  ],
  // Material beyond the question.
  tangent: [
    /\bby the way\b/i,
    /\bfun fact\b/i,
    /\b(?:as a |on a )?side note\b/i,
    /\b(?:interestingly|incidentally)\b/i,
    /\boff[- ]topic\b/i,
    /\bhistorically\b/i,
    /\bin other (?:programming )?languages\b/i,
    /\bbeyond the scope\b/i,
  ],
};

/** Evidence of S_CL. */
export interface CognitiveLoadEvidence {
  /** L_total. */
  propositions: number;
  /** L_extraneous: propositions with at least one marker. */
  extraneous: number;
  markers: Array<{ category: ExtraneousCategory; match: string; proposition: string }>;
}

/**
 * Cognitive load S_CL = 1 − L_extraneous / L_total, with L_total = number of propositions (text.ts,
 * same counting as S_SD) and L_extraneous = number of prose propositions containing at least one
 * filler, hedging or tangent marker (a proposition counts once however many markers it holds).
 * An empty response (L_total = 0) scores 1: it holds nothing extraneous.
 * Five propositions, one "Great question!" and one "I think it works.": 1 − 2/5 = 0.6.
 * @example
 * +scoreCognitiveLoad('Great question! Use a loop. I think it works. Print the total. Done.').score.toFixed(12); // => 0.6
 * scoreCognitiveLoad('').score; // => 1
 */
export function scoreCognitiveLoad(
  text: string,
  codeBlocks: 'one' | 'lines' = 'one',
): { score: number; evidence: CognitiveLoadEvidence } {
  const props = propositions(text, codeBlocks);
  const markers: CognitiveLoadEvidence['markers'] = [];
  let extraneous = 0;
  for (const p of props) {
    if (p.kind !== 'sentence') continue;
    let hit = false;
    for (const category of ['filler', 'hedging', 'tangent'] as const) {
      for (const re of EXTRANEOUS_MARKERS[category]) {
        const m = re.exec(p.text);
        if (m) {
          hit = true;
          markers.push({ category, match: m[0], proposition: p.text });
        }
      }
    }
    if (hit) extraneous++;
  }
  const score = props.length === 0 ? 1 : 1 - extraneous / props.length;
  return { score, evidence: { propositions: props.length, extraneous, markers } };
}
