import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildDomain, presentation } from '../../lib/kst';
import { buildPrompt, relationsBlock } from '../../lib/prompting/prompt';

/** c after a OR after b; d after c (with a or b). Not quasi-ordinal (see test/kst/basis.test.ts). */
const twoRoutes = buildDomain({
  id: 'two-routes',
  title: 'Two routes',
  source: 'hand-made',
  components: ['a', 'b', 'c', 'd'].map((id) => ({ id, description: `task ${id}` })),
  surmise: { c: [['a'], ['b']], d: [['a', 'c'], ['b', 'c']] },
});

test('P2 for a non-quasi-ordinal domain presents the surmise function in positions', () => {
  const p = presentation(twoRoutes, 1);
  const at = (id: string) => p.toPosition(id);

  // Clauses by hand: a, b none; c after {a} or {b}; d after {a, c} or {b, c}. Sets of equal size are
  // listed lexicographically by position, so the order of the two alternatives follows the positions.
  const alternatives = (x: string[], y: string[]) => {
    const [first, second] = [x, y].map((s) => s.map(at).sort((u, v) => u - v)).sort((u, v) => u[0]! - v[0]! || u[1]! - v[1]!);
    return `after {${first!.join(', ')}} or after {${second!.join(', ')}}`;
  };
  const expected = new Map<string, string>([
    ['a', 'no prerequisites'],
    ['b', 'no prerequisites'],
    ['c', alternatives(['a'], ['b'])],
    ['d', alternatives(['a', 'c'], ['b', 'c'])],
  ]);
  const block = relationsBlock(twoRoutes, p).split('\n');
  assert.equal(block[0], 'Prerequisite relations:');
  assert.match(block[1]!, /more than one route/);
  const lines = block.slice(2, 6);
  assert.deepEqual(
    lines,
    p.positions.map((id, i) => `${i + 1}: ${expected.get(id)}`),
  );
  assert.match(block[6]!, /no other routes/);
  assert.equal(block.length, 7, 'no notion sentence: the domain has no equivalent items');
  // The whole prompt builds for a state of the space and refuses a non-state.
  const prompt = buildPrompt(twoRoutes, ['b', 'c'], 'P2', p);
  assert.ok(prompt.user.includes(block.join('\n')));
  assert.throws(() => buildPrompt(twoRoutes, ['c'], 'P2', p), /no route to it/);
});

test('P3 for a domain with equivalent items adds the group rule; P0 and P1 are unchanged in form', () => {
  const notions = buildDomain({
    id: 'notions',
    title: 'Notions',
    source: 'hand-made',
    components: ['a', 'b', 'c'].map((id) => ({ id, description: `task ${id}` })),
    basis: [['a'], ['a', 'b', 'c']],
  });
  assert.deepEqual(notions.notions, [['b', 'c']]);
  const p = presentation(notions, 1);
  const p3 = buildPrompt(notions, ['a'], 'P3', p).user;
  assert.match(p3, /Some components can only be learned together/);
  // States ∅, {a}, Q: three lines.
  assert.equal(p3.split('\n').filter((l) => l.startsWith('- {')).length, 3);
  const p2 = buildPrompt(notions, ['a'], 'P2', p).user;
  assert.match(p2, /can only be learned together, as one step/);
  const p0 = buildPrompt(notions, ['a'], 'P0', p).user;
  assert.ok(!p0.includes('Prerequisite relations:'));
});
