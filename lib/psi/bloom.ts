import { BLOOM_LEVELS } from './schema';
import { isPythonBlock, segment } from './text';

/**
 * Cue words of the six Bloom levels (the project's own lists, see README.md), as regular-expression
 * sources matched case-insensitively between word boundaries, inflections spelled out. Words that are
 * also Python vocabulary ("list", "return", "print", "function") are deliberately absent.
 */
export const BLOOM_CUES: Readonly<Record<1 | 2 | 3 | 4 | 5 | 6, readonly string[]>> = {
  1: [
    'recall(?:s|ed|ing)?',
    'remember(?:s|ed|ing)?',
    'memori[sz](?:e|es|ed|ing)',
    'defin(?:e|es|ed|ing|ition|itions)',
    'is called',
    'are called',
    'is known as',
    'stands for',
    'recogni[sz](?:e|es|ed|ing)',
    'the syntax (?:is|for)',
    'look(?:s|ed|ing)? up',
  ],
  2: [
    'explain(?:s|ed|ing)?',
    'explanation',
    'means?',
    'meaning',
    'in other words',
    'describ(?:e|es|ed|ing)',
    'summari[sz](?:e|es|ed|ing)',
    'interpret(?:s|ed|ing)?',
    'for example',
    'for instance',
    'the reason',
    'this is because',
    'refers? to',
    'similar to',
    'compar(?:e|es|ed|ing)',
    'understand(?:s|ing)?',
    'the idea',
  ],
  3: [
    'us(?:e|es|ed|ing)',
    'appl(?:y|ies|ied|ying)',
    'run(?:s|ning)?',
    'execut(?:e|es|ed|ing)',
    'implement(?:s|ed|ing)?',
    'writ(?:e|es|ing)',
    'modif(?:y|ies|ied|ying)',
    'comput(?:e|es|ed|ing)',
    'calculat(?:e|es|ed|ing)',
    'solv(?:e|es|ed|ing)',
    'chang(?:e|es|ed|ing)',
    'fix(?:es|ed|ing)?',
    'type (?:this|it|the following)',
  ],
  4: [
    'analy[sz](?:e|es|ed|ing|is)',
    'debug(?:s|ged|ging)?',
    'trac(?:e|es|ed|ing)',
    'break(?:s|ing)? (?:it |this |the \\w+ )?down',
    'differentiat(?:e|es|ed|ing)',
    'distinguish(?:es|ed|ing)?',
    'examin(?:e|es|ed|ing)',
    'inspect(?:s|ed|ing)?',
    'step through',
    'why does',
    'root cause',
    'caus(?:e|es|ed|ing)',
    'figur(?:e|es|ed|ing) out',
    'diagnos(?:e|es|ed|ing|is)',
  ],
  5: [
    'evaluat(?:e|es|ed|ing)',
    'judg(?:e|es|ed|ing)',
    'justif(?:y|ies|ied|ying)',
    'critiqu(?:e|es|ed|ing)',
    'assess(?:es|ed|ing)?',
    'trade-?offs?',
    'pros and cons',
    'which is better',
    'best (?:approach|option|choice|way)',
    'more (?:efficient|readable|pythonic)',
    'prefer(?:s|red|able)?',
    'recommend(?:s|ed)?',
  ],
  6: [
    'creat(?:e|es|ed|ing)',
    'design(?:s|ed|ing)?',
    'build(?:s|ing)?',
    'come up with',
    'invent(?:s|ed|ing)?',
    'compos(?:e|es|ed|ing)',
    'construct(?:s|ed|ing)?',
    'develop(?:s|ed|ing)?',
    'your own',
    'plan(?:s|ned|ning)?',
    'extend(?:s|ed|ing)?',
    'combin(?:e|es|ed|ing)',
  ],
};

const LEVELS = [1, 2, 3, 4, 5, 6] as const;
const cuePatterns = new Map(
  LEVELS.map((l) => [l, new RegExp(`(?<![A-Za-z0-9_])(?:${BLOOM_CUES[l].join('|')})(?![A-Za-z0-9_])`, 'gi')]),
);

/** Evidence of S_RA. */
export interface BloomEvidence {
  /** Weighted cue count per level 1..6 (index 0 = Remember), code bonus included in index 2. */
  levelScores: number[];
  /** b_R. */
  detected: number;
  detectedName: string;
  /** b_T. */
  target: number;
  targetName: string;
  /** Executable Python blocks that earned the Apply bonus. */
  pythonBlocks: number;
  /** True when no cue was found and the default level was used. */
  defaulted: boolean;
}

/**
 * Bloom's alignment S_RA = 1 − |b_R − b_T| / 5.
 *
 * b_R: for each level l, score_l = w_l · (number of cue matches of level l in the prose — code blocks
 * are excluded so identifiers such as `use_count` do not count) ; the Apply score (level 3) also gets
 * `codeBonus` per executable Python code block (text.ts `isPythonBlock`). b_R is the level with the
 * highest score, ties going to the lower level (the cautious reading); with no cue and no code,
 * b_R = `defaultLevel`.
 *
 * Prose "Let me explain what this means. Run it." and one python block, codeBonus 2: scores
 * [0, 2, 1+2, 0, 0, 0] ("explain", "means"; "Run" + the bonus), b_R = 3 (Apply); target 2 gives
 * S_RA = 1 − 1/5 = 0.8.
 * @example
 * const options = { codeBonus: 2, bloomLevelWeights: [1, 1, 1, 1, 1, 1], bloomDefaultLevel: 2 };
 * const r = scoreBloomAlignment('Let me explain what this means. Run it.\n```python\nprint(1)\n```', 2, options);
 * [r.evidence.levelScores, r.evidence.detected, r.score]; // => [[0, 2, 3, 0, 0, 0], 3, 0.8]
 * scoreBloomAlignment('Hello.', 4, options).evidence.defaulted; // => true
 */
export function scoreBloomAlignment(
  text: string,
  target: number,
  options: { codeBonus: number; bloomLevelWeights: readonly number[]; bloomDefaultLevel: number },
): { score: number; evidence: BloomEvidence } {
  const { blocks, prose } = segment(text);
  const proseText = prose.map((l) => l.text).join('\n');
  const pythonBlocks = blocks.filter(isPythonBlock).length;
  const levelScores = LEVELS.map((l) => {
    const re = cuePatterns.get(l)!;
    re.lastIndex = 0;
    const count = [...proseText.matchAll(re)].length;
    return options.bloomLevelWeights[l - 1]! * count + (l === 3 ? options.codeBonus * pythonBlocks : 0);
  });
  const best = Math.max(...levelScores);
  const defaulted = best === 0;
  const detected = defaulted ? options.bloomDefaultLevel : levelScores.indexOf(best) + 1;
  const score = 1 - Math.abs(detected - target) / 5;
  return {
    score,
    evidence: {
      levelScores,
      detected,
      detectedName: BLOOM_LEVELS[detected - 1]!,
      target,
      targetName: BLOOM_LEVELS[target - 1]!,
      pythonBlocks,
      defaulted,
    },
  };
}
