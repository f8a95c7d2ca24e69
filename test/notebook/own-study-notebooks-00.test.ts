// Notebook 00 on a fractions study of the test's own (own-study-helpers.ts), which replicates no paper and has no
// PSI part: no audit of the paper, no claims ledger, no fit tables, its own inputs named; and notebook 10 on
// the same study stops with one line saying that the study has no PSI part.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fractionsStudy, outputsText, runOn, tablesOf } from './own-study-helpers';

test('notebook 00 on a study of its own: no paper audit, ledger or fit, its inputs named; notebook 10 says there is no PSI part', { timeout: 600_000 }, () => {
  const study = fractionsStudy();
  const { out, result, read } = runOn(study, ['00']);
  assert.equal(result.status, 0, result.stderr);
  const nb = outputsText(read('00-paper-audit.ipynb'));
  assert.match(nb, /No audit of the \[KST-2026\] paper's printed numbers: the study does not declare/);
  assert.match(nb, /No claims ledger: the study does not declare that it replicates \[KST-2026\]/);
  assert.match(nb, /No claims ledger: the study does not declare that it replicates \[PSI-2026\]/);
  assert.match(nb, /Inputs: KST responses [^ ]*collection\/extracted\.jsonl \(\d+ of \d+ simulated\); no PSI part in the study/);
  assert.doesNotMatch(nb, /INCONSISTENT|checks, \d+ consistent|differs/);
  assert.deepEqual(tablesOf(out, '00-'), [], 'no table of the paper (audit, coverage, fit, ledger) is written');
  const psi = runOn(study, ['10']);
  assert.notEqual(psi.result.status, 0, 'notebook 10 has nothing to score');
  // reproduce's first line names the notebook, the cell and the InputError (its traceback follows as a diagnostic).
  assert.match(psi.result.stderr.split('\n')[0]!, /^FAILED notebooks\/10-psi-scoring\.ipynb: cell \d+ \(id study\) failed: InputError: .*study\.json: the study has no PSI part \(manifest "psi": scenarios, taxonomy, models\), so notebook 10 has nothing to score/);
});
