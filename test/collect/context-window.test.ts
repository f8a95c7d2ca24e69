/** The one context-window check (context-window.ts), shared by `kstbench collect` and `study check`; the wired refusals: collect.test.ts, test/study/check.test.ts. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkContextWindows } from '../../lib/collect/context-window';

const wording = { entry: (i: number) => ({ where: `models[${i}]`, item: `models[${i}]`, file: 'study.json' }), windowSource: 'somewhere', designFields: 'fields' };
const cost = (tokens: number) => ({ models: [{ model: 'openai:a', calls: 1, inputTokens: tokens, outputTokensAssumed: 0, costUsd: 0, costUpperBoundUsd: 0, simulated: false, largestPrompt: { runId: 'd.P3.o1.abc', tokens } }] });

test('checkContextWindows: a prompt over the window is one InputError naming the entry, the cell and the fields; at the window, or with no known window, it passes', () => {
  assert.throws(
    () => checkContextWindows([{ spec: 'openai:a', contextWindow: 100 }], cost(101), wording),
    (err: Error & { where?: unknown }) =>
      err.message === "models[0]: openai:a: the longest prompt of the design, cell d.P3.o1.abc, is about 101 tokens (prompt characters / 4), over the model's context window of 100 (somewhere); leave out the condition or domain it comes from (fields), or use a model with a larger window" &&
      JSON.stringify(err.where) === '{"file":"study.json","item":"models[0]"}',
  );
  checkContextWindows([{ spec: 'openai:a', contextWindow: 100 }], cost(100), wording);
  checkContextWindows([{ spec: 'openai:a', contextWindow: null }], cost(1e9), wording);
  // A model with no pending prompt (all collected) has nothing to refuse.
  checkContextWindows([{ spec: 'openai:b', contextWindow: 1 }], cost(1e9), wording);
});
