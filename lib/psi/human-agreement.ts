import { cohensKappa } from '../stats/kappa';

export { cohensKappa } from '../stats/kappa';

/** One regenerated case judged by a human rater. */
export interface HumanJudgedCase {
  /** The rater's verdict, e.g. "meaningful improvement" or "weaknesses resolved". */
  human: boolean;
  psiBefore: number;
  psiAfter: number;
}

/**
 * Agreement between a human rater's yes/no verdicts and PSI-judged improvement (psiAfter > psiBefore)
 * over the same cases: the 2×2 counts, both rates, the observed agreement and Cohen's κ.
 * The paper reports the rates only (weaknesses resolved 82.3 %, meaningful improvement 74.2 %, PSI
 * improved 51/62 = 82.3 %); matching rates do not imply case-by-case agreement, which κ measures.
 */
export function agreementWithPsi(cases: readonly HumanJudgedCase[]): {
  n: number;
  humanRate: number;
  psiRate: number;
  bothYes: number;
  humanOnly: number;
  psiOnly: number;
  bothNo: number;
  observedAgreement: number;
  kappa: number;
} {
  const human = cases.map((c) => c.human);
  const psi = cases.map((c) => c.psiAfter > c.psiBefore);
  const kappa = cohensKappa(human, psi);
  const n = cases.length;
  let bothYes = 0;
  let humanOnly = 0;
  let psiOnly = 0;
  let bothNo = 0;
  for (let i = 0; i < n; i++) {
    if (human[i] && psi[i]) bothYes++;
    else if (human[i]) humanOnly++;
    else if (psi[i]) psiOnly++;
    else bothNo++;
  }
  return {
    n,
    humanRate: (bothYes + humanOnly) / n,
    psiRate: (bothYes + psiOnly) / n,
    bothYes,
    humanOnly,
    psiOnly,
    bothNo,
    observedAgreement: (bothYes + bothNo) / n,
    kappa,
  };
}
