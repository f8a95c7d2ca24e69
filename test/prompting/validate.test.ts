import { test } from 'node:test';
import assert from 'node:assert/strict';
import { INVALID_REASONS, validateResponse, type Condition, type ValidationResult } from '../../lib/prompting';

const n = 5;
const ctx = (condition: Condition = 'P0', extra: { finishReason?: string | null; refusal?: string | null; tooLarge?: { limitBytes: number } } = {}) => ({
  condition,
  componentCount: n,
  ...extra,
});
const good = { recommendations: [{ position: 4, justification: 'Both inputs of plotting are mastered.' }, { position: 3, justification: 'Needs only the table.' }], no_recommendation_reason: null };
const goodText = JSON.stringify(good);

function reasonOf(result: ValidationResult): string {
  return result.status === 'valid' ? 'valid' : result.reason;
}

test('valid P0 answer: positions ascending, parsed kept', () => {
  const r = validateResponse(goodText, ctx());
  assert.equal(r.status, 'valid');
  if (r.status !== 'valid') return;
  assert.deepEqual(r.positions, [3, 4]);
  assert.equal(r.prerequisites, undefined);
  assert.equal(r.parsed.recommendations[0]!.justification, 'Both inputs of plotting are mastered.');
});

test('valid empty answer needs a reason; surrounding whitespace is fine', () => {
  const r = validateResponse(`\n  ${JSON.stringify({ recommendations: [], no_recommendation_reason: 'Everything is mastered.' })}\n`, ctx('P3'));
  assert.equal(r.status, 'valid');
  if (r.status === 'valid') assert.deepEqual(r.positions, []);
});

test('valid P1 answer returns distinct prerequisite pairs in first-seen order', () => {
  const text = JSON.stringify({ ...good, prerequisites: [[2, 4], [5, 4], [2, 4], [4, 1]] });
  const r = validateResponse(text, ctx('P1'));
  assert.equal(r.status, 'valid');
  if (r.status === 'valid') assert.deepEqual(r.prerequisites, [[2, 4], [5, 4], [4, 1]]);
  assert.equal(reasonOf(validateResponse(JSON.stringify({ ...good, prerequisites: [] }), ctx('P1'))), 'valid');
});

test('truncated: finish reason length / max_tokens / MAX_TOKENS wins over everything', () => {
  assert.equal(reasonOf(validateResponse(goodText, ctx('P0', { finishReason: 'length' }))), 'truncated');
  assert.equal(reasonOf(validateResponse('{"recommendations": [', ctx('P0', { finishReason: 'max_tokens' }))), 'truncated');
  assert.equal(reasonOf(validateResponse('', ctx('P0', { finishReason: 'MAX_TOKENS', refusal: 'no' }))), 'truncated');
  assert.equal(reasonOf(validateResponse(goodText, ctx('P0', { finishReason: 'stop' }))), 'valid');
  assert.equal(reasonOf(validateResponse(goodText, ctx('P0', { finishReason: 'end_turn' }))), 'valid');
});

test('refusal: provider field, stop reason, or refusal prose without JSON', () => {
  assert.equal(reasonOf(validateResponse('', ctx('P0', { refusal: "I can't help with that." }))), 'refusal');
  assert.equal(reasonOf(validateResponse(goodText, ctx('P0', { refusal: 'no' }))), 'refusal');
  assert.equal(reasonOf(validateResponse('', ctx('P0', { finishReason: 'refusal' }))), 'refusal');
  assert.equal(reasonOf(validateResponse('', ctx('P0', { finishReason: 'SAFETY' }))), 'content_filter', 'a provider filter has its own code');
  assert.equal(reasonOf(validateResponse(goodText, ctx('P0', { finishReason: 'content_filter' }))), 'content_filter');
  assert.equal(reasonOf(validateResponse(goodText, ctx('P0', { tooLarge: { limitBytes: 8 } }))), 'response_too_large');
  assert.equal(reasonOf(validateResponse("I'm sorry, but I cannot help with this request.", ctx())), 'refusal');
  assert.equal(reasonOf(validateResponse('I cannot determine the next steps.', ctx())), 'refusal');
  assert.equal(reasonOf(validateResponse(goodText, ctx('P0', { refusal: '  ' }))), 'valid', 'a blank refusal field is no refusal');
});

test('extra_prose: JSON inside prose or Markdown fences', () => {
  const fenced = validateResponse('```json\n' + goodText + '\n```', ctx());
  assert.equal(reasonOf(fenced), 'extra_prose');
  assert.ok(fenced.status === 'invalid' && /code fence/.test(fenced.detail));
  assert.deepEqual(fenced.status === 'invalid' && fenced.parsed, good, 'the recovered object is kept for audit');
  assert.equal(reasonOf(validateResponse('```\n' + goodText + '\n```', ctx())), 'extra_prose');
  assert.equal(reasonOf(validateResponse('Here is my answer: ' + goodText, ctx())), 'extra_prose');
  assert.equal(reasonOf(validateResponse(goodText + '\nI hope this helps!', ctx())), 'extra_prose');
  // braces inside strings do not confuse the extraction
  const tricky = { recommendations: [{ position: 1, justification: 'uses {2} and "}"' }], no_recommendation_reason: null };
  const r = validateResponse('Answer: ' + JSON.stringify(tricky) + ' done', ctx());
  assert.deepEqual(r.status === 'invalid' && r.parsed, tricky);
  // a refusal sentence followed by a JSON object is still prose around JSON
  assert.equal(reasonOf(validateResponse("I'm sorry for the delay. " + goodText, ctx())), 'extra_prose');
});

test('malformed_json: broken or empty text without a recoverable object', () => {
  assert.equal(reasonOf(validateResponse('{"recommendations": [', ctx())), 'malformed_json');
  assert.equal(reasonOf(validateResponse("{'recommendations': []}", ctx())), 'malformed_json');
  assert.equal(reasonOf(validateResponse('', ctx())), 'malformed_json');
  assert.equal(reasonOf(validateResponse('The next steps are 3 and 4.', ctx())), 'malformed_json');
  assert.equal(reasonOf(validateResponse('{"recommendations": [], "no_recommendation_reason": "x",}', ctx())), 'malformed_json');
});

test('schema_violation: types, unknown or missing keys, bad P1 pairs, reason alongside recommendations', () => {
  const cases: Array<[unknown, Condition]> = [
    [[1, 2], 'P0'],
    ['just a string', 'P0'],
    [{ no_recommendation_reason: 'x' }, 'P0'],
    [{ recommendations: [{ position: '4', justification: 'x' }], no_recommendation_reason: null }, 'P0'],
    [{ recommendations: [{ position: 2.5, justification: 'x' }], no_recommendation_reason: null }, 'P0'],
    [{ recommendations: [{ position: 4, justification: 'x', confidence: 1 }], no_recommendation_reason: null }, 'P0'],
    [{ ...good, extra: true }, 'P0'],
    [{ ...good, prerequisites: [[1, 2]] }, 'P2'],
    [good, 'P1'],
    [{ ...good, prerequisites: [[1, 2, 3]] }, 'P1'],
    [{ ...good, prerequisites: [[1]] }, 'P1'],
    [{ ...good, prerequisites: [['1', '2']] }, 'P1'],
    [{ ...good, no_recommendation_reason: 'but also nothing' }, 'P0'],
  ];
  for (const [value, condition] of cases) {
    const r = validateResponse(JSON.stringify(value), ctx(condition));
    assert.equal(reasonOf(r), 'schema_violation', JSON.stringify(value));
    assert.ok(r.status === 'invalid' && r.detail.length > 0);
  }
});

test('missing_justification: blank, null or absent justification; empty list without reason', () => {
  const cases: unknown[] = [
    { recommendations: [{ position: 4, justification: '' }], no_recommendation_reason: null },
    { recommendations: [{ position: 4, justification: '   \n' }], no_recommendation_reason: null },
    { recommendations: [{ position: 4, justification: 'ok' }, { position: 3, justification: null }], no_recommendation_reason: null },
    { recommendations: [{ position: 4 }], no_recommendation_reason: null },
    { recommendations: [], no_recommendation_reason: null },
    { recommendations: [], no_recommendation_reason: ' ' },
    { recommendations: [] },
  ];
  for (const value of cases) assert.equal(reasonOf(validateResponse(JSON.stringify(value), ctx())), 'missing_justification', JSON.stringify(value));
  const r = validateResponse(JSON.stringify(cases[2]), ctx());
  assert.ok(r.status === 'invalid' && /recommendations\[1\] \(position 3\)/.test(r.detail));
});

test('duplicate_position: the same position recommended twice', () => {
  const value = { recommendations: [{ position: 3, justification: 'a' }, { position: 4, justification: 'b' }, { position: 3, justification: 'c' }], no_recommendation_reason: null };
  const r = validateResponse(JSON.stringify(value), ctx());
  assert.equal(reasonOf(r), 'duplicate_position');
  assert.ok(r.status === 'invalid' && /position 3/.test(r.detail));
});

test('out_of_range: positions outside 1..n, in recommendations or P1 pairs', () => {
  for (const position of [0, -1, 6, 99]) {
    const value = { recommendations: [{ position, justification: 'x' }], no_recommendation_reason: null };
    assert.equal(reasonOf(validateResponse(JSON.stringify(value), ctx())), 'out_of_range', String(position));
  }
  assert.equal(reasonOf(validateResponse(JSON.stringify({ ...good, prerequisites: [[1, 2], [6, 1]] }), ctx('P1'))), 'out_of_range');
  assert.equal(reasonOf(validateResponse(JSON.stringify({ ...good, prerequisites: [[0, 1]] }), ctx('P1'))), 'out_of_range');
  const edge = { recommendations: [{ position: 1, justification: 'x' }, { position: 5, justification: 'y' }], no_recommendation_reason: null };
  assert.equal(reasonOf(validateResponse(JSON.stringify(edge), ctx())), 'valid');
});

test('precedence: duplicate before out_of_range, justification before duplicate, schema before justification', () => {
  const dupAndRange = { recommendations: [{ position: 9, justification: 'a' }, { position: 9, justification: 'b' }], no_recommendation_reason: null };
  assert.equal(reasonOf(validateResponse(JSON.stringify(dupAndRange), ctx())), 'duplicate_position');
  const blankAndDup = { recommendations: [{ position: 2, justification: '' }, { position: 2, justification: 'b' }], no_recommendation_reason: null };
  assert.equal(reasonOf(validateResponse(JSON.stringify(blankAndDup), ctx())), 'missing_justification');
  const schemaAndBlank = { recommendations: [{ position: 2, justification: '' }], no_recommendation_reason: null, note: 1 };
  assert.equal(reasonOf(validateResponse(JSON.stringify(schemaAndBlank), ctx())), 'schema_violation');
  assert.equal(reasonOf(validateResponse('```json\n{"recommendations": [}\n```', ctx())), 'malformed_json');
});

test('every reason code is exercised above and listed once', () => {
  assert.deepEqual([...INVALID_REASONS].sort(), [
    'content_filter', 'duplicate_position', 'extra_prose', 'malformed_json', 'missing_justification', 'out_of_range', 'refusal', 'response_too_large', 'schema_violation', 'truncated',
  ]);
});
