import { InputError } from '../errors';

type Label = string | number | boolean;

/**
 * Cohen's κ for two raters labelling the same items (nominal labels):
 * κ = (p_o − p_e) / (1 − p_e), p_o = share of items with equal labels,
 * p_e = Σ_k (n_A,k / n) · (n_B,k / n) = agreement expected from the raters' marginal frequencies.
 * When p_e = 1 (both raters give one and the same label to every item) κ is 0/0 and NaN is returned.
 * InputError for empty input or unequal lengths.
 * Example: 50 items, yes/yes 20, yes/no 5, no/yes 10, no/no 15 → p_o = 0.7, p_e = 0.5, κ = 0.4.
 */
export function cohensKappa(raterA: readonly Label[], raterB: readonly Label[]): number {
  if (raterA.length !== raterB.length) {
    throw new InputError(`Cohen's kappa: raters labelled different numbers of items (${raterA.length} vs ${raterB.length})`);
  }
  const n = raterA.length;
  if (n === 0) throw new InputError("Cohen's kappa: no items");
  const countA = new Map<Label, number>();
  const countB = new Map<Label, number>();
  let agree = 0;
  for (let i = 0; i < n; i++) {
    const a = raterA[i]!;
    const b = raterB[i]!;
    if (a === b) agree++;
    countA.set(a, (countA.get(a) ?? 0) + 1);
    countB.set(b, (countB.get(b) ?? 0) + 1);
  }
  const po = agree / n;
  let pe = 0;
  for (const [label, na] of countA) pe += (na / n) * ((countB.get(label) ?? 0) / n);
  if (pe === 1) return NaN;
  return (po - pe) / (1 - pe);
}

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
