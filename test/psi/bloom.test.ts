import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_PSI_PARAMETERS, scoreBloomAlignment } from '../../lib/psi';
import { close } from './helpers';

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
