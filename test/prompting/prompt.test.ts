import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../lib/io';
import { InputError } from '../../lib/errors';
import { buildPrompt, promptHash, CONDITIONS, type Prompt } from '../../lib/prompting';
import { handPresentation, plottingDomain } from './fixture';

// Fixture (fixtures/plotting.json): table ≺ plot, axes ≺ plot, plot ≺ slope, table ≺ intercept,
// plus the redundant table ≺ slope. Hand presentation: 1 slope, 2 table, 3 intercept, 4 plot, 5 axes.
// State {table, axes} is shown as "2, 5"; its outer fringe is {plot, intercept} = positions {4, 3}.
const domain = plottingDomain();
const presentation = handPresentation();
const state = ['FX-table', 'FX-axes'];

function render(prompt: Prompt): string {
  return [
    `=== condition ${prompt.condition}, order ${prompt.order}, schema ${prompt.schemaName} ===`,
    '=== system ===',
    prompt.system,
    '=== user ===',
    prompt.user,
    '=== json schema ===',
    JSON.stringify(prompt.jsonSchema, null, 2),
    '',
  ].join('\n');
}

for (const condition of CONDITIONS) {
  test(`snapshot: ${condition} prompt for the fixture state {table, axes} is byte-identical`, () => {
    const actual = render(buildPrompt(domain, state, condition, presentation));
    const file = join(__dirname, '__snapshots__', `plotting-table-axes-${condition}.txt`);
    if (process.env.UPDATE_SNAPSHOTS === '1' || !existsSync(file)) {
      if (process.env.UPDATE_SNAPSHOTS !== '1') assert.fail(`snapshot ${file} is missing; run with UPDATE_SNAPSHOTS=1`);
      writeFileAtomic(file, actual);
    }
    assert.equal(actual, readFileSync(file, 'utf8'));
  });
}

test('buildPrompt is pure: same input gives identical prompts and hashes', () => {
  for (const condition of CONDITIONS) {
    const a = buildPrompt(domain, state, condition, presentation);
    const b = buildPrompt(domain, [...state].reverse(), condition, handPresentation());
    assert.deepEqual(a, { ...b, jsonSchema: b.jsonSchema });
    assert.equal(a.user, b.user);
    assert.equal(promptHash(a), promptHash(b));
    assert.notEqual(a.jsonSchema, b.jsonSchema, 'each prompt gets its own schema object');
  }
});

test('promptHash is the sha256 of system, NUL, user', () => {
  const p = buildPrompt(domain, state, 'P2', presentation);
  assert.equal(promptHash(p), createHash('sha256').update(`${p.system}\u0000${p.user}`).digest('hex'));
  assert.match(promptHash(p), /^[0-9a-f]{64}$/);
  const other = buildPrompt(domain, state, 'P3', presentation);
  assert.notEqual(promptHash(p), promptHash(other));
});

test('canonical component IDs never appear in any prompt or schema', () => {
  for (const s of [[], state, ['FX-table', 'FX-axes', 'FX-plot', 'FX-slope', 'FX-intercept']]) {
    for (const condition of CONDITIONS) {
      const p = buildPrompt(domain, s, condition, presentation);
      const text = `${p.system}\n${p.user}\n${p.schemaName}\n${JSON.stringify(p.jsonSchema)}`;
      for (const id of domain.ids) assert.ok(!text.includes(id), `${condition}: "${id}" leaked into the prompt`);
      assert.ok(!/FX-/i.test(text));
    }
  }
});

test('components are listed in position order with their descriptions', () => {
  const user = buildPrompt(domain, state, 'P0', presentation).user;
  const expected = [
    '1. Read off the slope of a drawn line with a step triangle.',
    '2. Fill in a table of values for a linear equation such as y = 2x + 1.',
    '3. Name the y-intercept of a linear equation given in the form y = mx + q.',
    '4. Draw the graph of a linear equation by plotting the points of its table of values.',
    '5. Mark points with given coordinates in a coordinate system.',
  ].join('\n');
  assert.ok(user.includes(expected), user);
});

test('the mastered set is shown in positions, ascending; the empty state says none', () => {
  assert.match(buildPrompt(domain, state, 'P0', presentation).user, /already mastered: 2, 5\n/);
  // {table, axes, intercept} -> positions 2, 5, 3 -> "2, 3, 5"
  assert.match(buildPrompt(domain, ['FX-axes', 'FX-intercept', 'FX-table'], 'P0', presentation).user, /already mastered: 2, 3, 5\n/);
  assert.match(buildPrompt(domain, [], 'P0', presentation).user, /already mastered: none/);
  // another permutation moves the same state to other numbers
  const reversed = handPresentation(['FX-axes', 'FX-plot', 'FX-intercept', 'FX-table', 'FX-slope'], 'fx-plotting', 2);
  const p = buildPrompt(domain, state, 'P0', reversed);
  assert.match(p.user, /already mastered: 1, 4\n/);
  assert.equal(p.order, 2);
});

test('P2 lists exactly the cover pairs (not the redundant table -> slope) in positions', () => {
  const user = buildPrompt(domain, state, 'P2', presentation).user;
  const arrows = user.split('\n').filter((line) => /^\d+ -> \d+$/.test(line));
  // covers: table->plot (2->4), axes->plot (5->4), plot->slope (4->1), table->intercept (2->3); sorted by (p, q)
  assert.deepEqual(arrows, ['2 -> 3', '2 -> 4', '4 -> 1', '5 -> 4']);
  assert.ok(!user.includes('2 -> 1'), 'the transitive pair table -> slope must not be listed');
  assert.match(user, /transitive/);
});

test('P3 lists exactly the 10 knowledge states, in positions, sorted by size then lexicographically', () => {
  const user = buildPrompt(domain, state, 'P3', presentation).user;
  const states = user.split('\n').filter((line) => line.startsWith('- {'));
  // Down-sets of the fixture order, worked out by hand and translated to positions.
  assert.deepEqual(states, [
    '- {} (no component mastered)',
    '- {2}',
    '- {5}',
    '- {2, 3}',
    '- {2, 5}',
    '- {2, 3, 5}',
    '- {2, 4, 5}',
    '- {1, 2, 4, 5}',
    '- {2, 3, 4, 5}',
    '- {1, 2, 3, 4, 5}',
  ]);
});

test('only P1 asks for a prerequisite graph; P0 has no structure block', () => {
  const prompts = Object.fromEntries(CONDITIONS.map((c) => [c, buildPrompt(domain, state, c, presentation)]));
  assert.match(prompts.P1!.user, /"prerequisites"/);
  for (const c of ['P0', 'P2', 'P3']) assert.ok(!prompts[c]!.user.includes('"prerequisites"'), c);
  assert.ok(!/ -> /.test(prompts.P0!.user) && !/- \{/.test(prompts.P0!.user));
  assert.ok(!/ -> /.test(prompts.P1!.user) && !/- \{/.test(prompts.P1!.user));
  assert.equal(prompts.P1!.schemaName, 'kst_next_steps_with_graph');
  assert.equal(prompts.P0!.schemaName, 'kst_next_steps');
  // shared core: the system text and the component list are the same in every condition
  for (const c of CONDITIONS) {
    assert.equal(prompts[c]!.system, prompts.P0!.system);
    assert.ok(prompts[c]!.user.startsWith(prompts.P0!.user.split('\n\n').slice(0, 2).join('\n\n')));
  }
});

test('the state enters a prompt only through the mastered line, so no fringe can be in it', () => {
  const states = [[], ['FX-table'], ['FX-axes'], state, ['FX-table', 'FX-axes', 'FX-plot'], domain.ids];
  for (const condition of CONDITIONS) {
    const masked = states.map((s) =>
      buildPrompt(domain, s, condition, presentation).user.replace(/^Components the learner has already mastered: .*$/m, '<mastered>'),
    );
    for (const text of masked) assert.equal(text, masked[0], condition);
  }
});

test('bad input raises InputError naming the problem', () => {
  assert.throws(() => buildPrompt(domain, ['FX-plot'], 'P0', presentation), (e: unknown) => e instanceof InputError && /not a knowledge state/.test(e.message));
  assert.throws(() => buildPrompt(domain, ['nope'], 'P0', presentation), InputError);
  assert.throws(() => buildPrompt(domain, state, 'P9' as never, presentation), /unknown prompt condition "P9"/);
  assert.throws(
    () => buildPrompt(domain, state, 'P0', handPresentation(['FX-slope', 'FX-table', 'FX-plot', 'FX-axes'])),
    /not a permutation/,
  );
  assert.throws(() => buildPrompt(domain, state, 'P0', handPresentation(undefined, 'other-domain')), /not a permutation/);
});
