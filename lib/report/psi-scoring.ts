/**
 * Notebook 10 (10-psi-scoring): one response's PSI explained — each sub-score's formula with the
 * response's own numbers and the evidence behind them, and the concepts the scorer found.
 */
import { SUBSCORES, type Subscores } from '../psi/parameters';
import type { Scenario } from '../psi/schema';
import type { PsiScoring } from '../psi/score';
import { SUBSCORE_SHORT, numericCell } from './psi-tables';

const f3 = (x: number) => x.toFixed(3);
const list = (xs: readonly string[], empty = '(none)') => (xs.length === 0 ? empty : xs.join(', '));

/**
 * One row per sub-score (and the composite) explaining a scoring: the formula with this response's
 * numbers filled in and the evidence behind them (concepts found, out-of-order pairs, scaffold
 * indicators, memory terms, extraneous markers, Bloom level scores), so a reader sees why the response
 * scored as it did. `weights` are the composite weights used (default equal).
 */
export function explainScoring(scoring: PsiScoring, scenario: Scenario, weights?: Subscores) {
  const e = scoring.evidence;
  const s = scoring.subscores;
  const kdFormula =
    e.kd.conceptsFound.length === 0
      ? `no concept found → sim = 0; 1 − |0 − ${e.kd.deltaOpt}| = ${f3(s.kd)}`
      : `sim = ${e.kd.measure === 'known-share' ? `${e.kd.known.length}/${e.kd.conceptsFound.length}` : 'jaccard'} = ${f3(e.kd.overlap)}; 1 − |${f3(e.kd.overlap)} − ${e.kd.deltaOpt}| = ${f3(s.kd)}`;
  const byCategory = new Map<string, string[]>();
  for (const ind of e.sd.indicators) {
    const l = byCategory.get(ind.category) ?? [];
    l.push(`${ind.id} “${ind.match.replace(/\s+/g, ' ').slice(0, 40)}”`);
    byCategory.set(ind.category, l);
  }
  const sdRaw = e.sd.propositions === 0 ? 0 : (e.sd.scaffolds / e.sd.propositions) * e.sd.alpha;
  const markers = e.cl.markers.map((m) => `${m.category} “${m.match}”`);
  const w = weights ?? { kd: 1 / 6, tv: 1 / 6, sd: 1 / 6, ef: 1 / 6, cl: 1 / 6, ra: 1 / 6 };
  const equal = SUBSCORES.every((n) => Math.abs(w[n] - 1 / 6) < 1e-12);
  return [
    {
      'sub-score': 'KD knowledge distance',
      score: numericCell(s.kd),
      formula: kdFormula,
      evidence: `found: ${list(e.kd.conceptsFound)} | known to learner: ${list(e.kd.known)} | new to learner: ${list(e.kd.unknown)}`,
    },
    {
      'sub-score': 'TV temporal violation',
      score: numericCell(s.tv),
      formula: e.tv.checks === 0 ? 'no prerequisite pair with both concepts mentioned → 1' : `1 − ${e.tv.violations.length}/${e.tv.checks} = ${f3(s.tv)}`,
      evidence: `checks: ${e.tv.checks} | out of order (prerequisite after dependent): ${list(e.tv.violations.map(([p, q]) => `${q} before ${p}`))}`,
    },
    {
      'sub-score': 'SD scaffolding density',
      score: numericCell(s.sd),
      formula: `min(1, ${e.sd.scaffolds}/${e.sd.propositions} · α ${f3(e.sd.alpha)}) = min(1, ${f3(sdRaw)}) = ${f3(s.sd)}`,
      evidence:
        `${[...byCategory].map(([c, l]) => `${c}: ${l.join('; ')}`).join(' | ') || 'no indicator matched'}` +
        ` | α refs ${e.sd.adaptation.references}: phrases ${list(e.sd.adaptation.phrases.map((p) => `“${p}”`))}, known concept ${e.sd.adaptation.knownConcepts.length > 0 ? 'yes' : 'no'}, objective concept ${e.sd.adaptation.objectiveConcepts.length > 0 ? 'yes' : 'no'}`,
    },
    {
      'sub-score': 'EF Ebbinghaus forgetting',
      score: numericCell(s.ef),
      formula: `Σ λ·e^(−t/S) over ${e.ef.mode === 'scenario' ? "the scenario's memory" : 'mentioned memory concepts'}${e.ef.fallback ? ' (fallback: none mentioned)' : ''} = ${f3(s.ef)}`,
      evidence: e.ef.terms.map((t) => `${t.concept}: ${f3(t.weight)} × ${f3(t.retention)}`).join(' | '),
    },
    {
      'sub-score': 'CL cognitive load',
      score: numericCell(s.cl),
      formula: e.cl.propositions === 0 ? 'empty response → 1' : `1 − ${e.cl.extraneous}/${e.cl.propositions} = ${f3(s.cl)}`,
      evidence: `extraneous markers: ${list(markers)}`,
    },
    {
      'sub-score': "RA Bloom's alignment",
      score: numericCell(s.ra),
      formula: `1 − |${e.ra.detected} − ${e.ra.target}|/5 = ${f3(s.ra)}`,
      evidence:
        `detected ${e.ra.detectedName} (${e.ra.detected})${e.ra.defaulted ? ' by default: no cue' : ''}, target ${e.ra.targetName} (${scenario.target_bloom})` +
        ` | level scores R/U/Ap/An/E/C: ${e.ra.levelScores.join('/')} | executable Python blocks: ${e.ra.pythonBlocks}`,
    },
    {
      'sub-score': 'PSI composite',
      score: numericCell(scoring.psi),
      formula: equal ? `(${SUBSCORES.map((n) => f3(s[n])).join(' + ')}) / 6 = ${f3(scoring.psi)}` : `Σ w·S = ${f3(scoring.psi)}`,
      evidence: `weights: ${SUBSCORES.map((n) => `${SUBSCORE_SHORT[n]} ${f3(w[n])}`).join(', ')}`,
    },
  ];
}

/**
 * The concepts found in a response, in order of first mention, with the keyword that matched, how
 * often, and whether the learner knows it, it is a learning objective, or it is new to the learner.
 */
export function conceptTable(scoring: PsiScoring, scenario: Scenario) {
  const known = new Set(scenario.learner.known_concepts);
  const objective = new Set(scenario.objective_concepts);
  return [...scoring.evidence.mentions]
    .sort((a, b) => a.first - b.first)
    .map((m) => ({
      concept: m.id,
      'first at (char)': m.first,
      mentions: m.count,
      keyword: m.keyword,
      'known to learner': known.has(m.id),
      objective: objective.has(m.id),
    }));
}
