import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answerOutcome } from '../../lib/provider/outcome';

test('answerOutcome: cut off, refused, filtered, too large, or an answer — one rule for both studies', () => {
  const kind = (finishReason: string | null, refusal: string | null = null, tooLarge?: { limitBytes: number }) =>
    answerOutcome({ finishReason, refusal, ...(tooLarge ? { tooLarge } : {}) }).kind;
  assert.equal(kind('length'), 'cut_off', 'OpenAI');
  assert.equal(kind('max_tokens'), 'cut_off', 'Anthropic');
  assert.equal(kind('MAX_TOKENS'), 'cut_off', 'case-insensitive');
  assert.equal(kind('model_context_window_exceeded'), 'cut_off');
  assert.equal(kind('length', 'no'), 'cut_off', 'a cut wins over a refusal field');
  assert.equal(kind('stop', "I can't help"), 'refused');
  assert.equal(kind('refusal'), 'refused');
  assert.equal(kind('stop', '   '), 'answer', 'a blank refusal field is no refusal');
  assert.equal(kind('content_filter'), 'filtered');
  assert.equal(kind('SAFETY'), 'filtered');
  assert.equal(kind('stop', null, { limitBytes: 8 }), 'too_large');
  for (const f of ['stop', 'end_turn', 'tool_use', null]) assert.equal(kind(f), 'answer', String(f));
  const cut = answerOutcome({ finishReason: 'length', refusal: null });
  assert.deepEqual(cut, { kind: 'cut_off', reason: 'truncated', detail: 'finish reason "length": the output allowance was exhausted' });
});
