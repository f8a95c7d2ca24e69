import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CONDITIONS, responseJsonSchema, responseSchema, responseSchemaName } from '../../lib/prompting';

/** Keywords inside the subset accepted by OpenAI strict mode, Anthropic and Gemini structured output. */
const ALLOWED = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', 'description', 'anyOf', 'enum']);

/** Walks a JSON Schema and returns every strict-mode problem found, with its JSON path. */
function strictProblems(node: unknown, path = '#'): string[] {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return [`${path}: not a schema object`];
  const schema = node as Record<string, unknown>;
  const problems = Object.keys(schema)
    .filter((key) => !ALLOWED.has(key))
    .map((key) => `${path}: unsupported keyword "${key}"`);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('object')) {
    const properties = schema.properties as Record<string, unknown> | undefined;
    if (!properties) problems.push(`${path}: object without properties`);
    if (schema.additionalProperties !== false) problems.push(`${path}: additionalProperties is not false`);
    const keys = Object.keys(properties ?? {}).sort();
    const required = [...((schema.required as string[]) ?? [])].sort();
    if (JSON.stringify(keys) !== JSON.stringify(required)) problems.push(`${path}: required ${required} != properties ${keys}`);
    for (const [key, child] of Object.entries(properties ?? {})) problems.push(...strictProblems(child, `${path}/properties/${key}`));
  }
  if (types.includes('array')) {
    if (schema.items === undefined) problems.push(`${path}: array without items`);
    else problems.push(...strictProblems(schema.items, `${path}/items`));
  }
  for (const t of types) {
    if (!['object', 'array', 'string', 'integer', 'number', 'boolean', 'null'].includes(t as string)) {
      problems.push(`${path}: bad type ${String(t)}`);
    }
  }
  return problems;
}

test('the strictness checker itself catches the usual mistakes', () => {
  assert.deepEqual(strictProblems({ type: 'object', properties: { a: { type: 'integer', minimum: 1 } }, required: [], additionalProperties: true }), [
    '#: additionalProperties is not false',
    '#: required  != properties a',
    '#/properties/a: unsupported keyword "minimum"',
  ]);
});

for (const condition of CONDITIONS) {
  test(`responseJsonSchema(${condition}) is strict-mode compatible`, () => {
    assert.deepEqual(strictProblems(responseJsonSchema(condition)), []);
  });
}

test('wire schemas: P1 requires prerequisites as integer pairs, the others do not have them; reason is string|null', () => {
  const p0 = responseJsonSchema('P0') as any;
  const p1 = responseJsonSchema('P1') as any;
  assert.deepEqual(p0.required, ['recommendations', 'no_recommendation_reason']);
  assert.deepEqual(p1.required, ['recommendations', 'no_recommendation_reason', 'prerequisites']);
  assert.deepEqual(p0.properties.no_recommendation_reason.type, ['string', 'null']);
  assert.deepEqual(p1.properties.prerequisites.items.items, { type: 'integer' });
  assert.deepEqual(p0.properties.recommendations.items.properties.position.type, 'integer');
  assert.deepEqual(responseJsonSchema('P2'), responseJsonSchema('P0'));
  assert.deepEqual(responseJsonSchema('P3'), responseJsonSchema('P0'));
  assert.notEqual(responseJsonSchema('P0'), responseJsonSchema('P0'), 'a fresh object per call');
  // Generated once, copied per call: a caller that mutates its copy, deep inside, changes no later one.
  const mutated = responseJsonSchema('P1') as any;
  mutated.properties.prerequisites.items.items.type = 'string';
  delete mutated.required;
  assert.deepEqual(responseJsonSchema('P1'), p1);
});

test('schema names match the OpenAI name pattern', () => {
  for (const c of CONDITIONS) assert.match(responseSchemaName(c), /^[a-zA-Z0-9_-]{1,64}$/);
});

test('local zod schema: structure only, with pairs of exactly two integers in P1', () => {
  const ok = { recommendations: [{ position: 2, justification: 'x' }], no_recommendation_reason: null };
  assert.equal(responseSchema('P0').safeParse(ok).success, true);
  assert.equal(responseSchema('P0').safeParse({ recommendations: [] }).success, true, 'absent reason counts as null');
  assert.equal(responseSchema('P0').safeParse({ ...ok, prerequisites: [] }).success, false, 'unknown key in P0');
  assert.equal(responseSchema('P1').safeParse(ok).success, false, 'P1 needs prerequisites');
  assert.equal(responseSchema('P1').safeParse({ ...ok, prerequisites: [[1, 2]] }).success, true);
  assert.equal(responseSchema('P1').safeParse({ ...ok, prerequisites: [[1, 2, 3]] }).success, false);
  assert.equal(responseSchema('P1').safeParse({ ...ok, prerequisites: [[1.5, 2]] }).success, false);
  assert.equal(responseSchema('P0').safeParse({ recommendations: [{ position: '2', justification: 'x' }] }).success, false);
});
