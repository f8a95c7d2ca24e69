import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { buildDomain, loadDomain, type Domain } from '../../lib/kst';
import { InputError } from '../../lib/errors';
import { FRINGE_COLOUR, HIGHLIGHT_COLOUR, MAX_LATTICE_STATES, hasseDiagramSpec, hasseLayout, latticeLayout, latticeSpec, shortIds, stateKey, stateLabel } from '../../lib/report/kst-diagrams';
import { randomDomain } from '../kst/random-poset';

const slope = loadDomain(join(__dirname, '..', '..', 'data', 'raw', 'domains', 'slope.json'));

// Slope, worked by hand from its file: SL1 -> SL2 -> SL3 -> SL5, SL1 -> SL4 -> SL5, SL5 -> SL6, SL5 -> SL7.
test('Hasse layout of slope: layers by longest chain below, centred at unit spacing', () => {
  const layout = hasseLayout(slope);
  const at = Object.fromEntries(layout.nodes.map((n) => [n.key, [n.layer, n.x]]));
  assert.deepEqual(at, {
    SL1: [0, 0],
    SL2: [1, -0.5],
    SL4: [1, 0.5],
    SL3: [2, 0],
    SL5: [3, 0],
    SL6: [4, -0.5],
    SL7: [4, 0.5],
  });
  assert.equal(layout.layers, 5);
  assert.equal(layout.edges.length, 7); // no pair of slope's file is implied by the others
  assert.deepEqual(layout.nodes.map((n) => n.label), ['1', '2', '3', '4', '5', '6', '7']);
  assert.match(layout.nodes[0]!.hover, /^SL1: Decide from its graph/);
});

test('Hasse layout draws only cover pairs: an implied pair is left out', () => {
  const d = buildDomain({
    id: 'chain',
    title: 'Chain',
    source: 'test',
    components: ['A', 'B', 'C'].map((id) => ({ id, description: id })),
    prerequisites: [['A', 'B'], ['B', 'C'], ['A', 'C']],
  });
  const layout = hasseLayout(d);
  assert.deepEqual(layout.edges.map((e) => [e.from, e.to]), [['A', 'B'], ['B', 'C']]);
  assert.deepEqual(layout.nodes.map((n) => n.layer), [0, 1, 2]);
});

test('lattice layout of slope: the 11 states by size, 13 one-step edges, worked by hand', () => {
  const layout = latticeLayout(slope);
  assert.equal(layout.nodes.length, 11);
  assert.equal(layout.layers, 8); // sizes 0..7
  const bySize = (k: number) => layout.nodes.filter((n) => n.layer === k).map((n) => n.label);
  assert.deepEqual(bySize(0), ['∅']);
  assert.deepEqual(bySize(2), ['{1,2}', '{1,4}']);
  // {1,2,3} sits over {1,2} only (barycentre -0.5), {1,2,4} over {1,2} and {1,4} (barycentre 0).
  assert.deepEqual(bySize(3), ['{1,2,3}', '{1,2,4}']);
  assert.deepEqual(bySize(6), ['{1,2,3,4,5,6}', '{1,2,3,4,5,7}']);
  // Outer fringes: ∅:1, {1}:2, {1,2}:2, {1,4}:1, {1,2,3}:1, {1,2,4}:1, {1..4}:1, {1..5}:2, the two 6-sets 1 each, Q:0.
  assert.equal(layout.edges.length, 13);
  const from12 = layout.edges.filter((e) => e.from === 'SL1,SL2').map((e) => [e.to, e.label]);
  assert.deepEqual(from12, [
    ['SL1,SL2,SL3', 'SL3'],
    ['SL1,SL2,SL4', 'SL4'],
  ]);
  const empty = layout.nodes.find((n) => n.key === '')!;
  assert.equal(empty.hover, '∅<br>outer fringe {SL1}');
});

/** Every subset of the domain closed under the prerequisites, by brute force over all 2^n subsets. */
function bruteForceStates(d: Domain): string[][] {
  const out: string[][] = [];
  for (let mask = 0; mask < 1 << d.ids.length; mask++) {
    const has = (id: string) => (mask & (1 << d.index.get(id)!)) !== 0;
    if (d.prerequisites.every(([p, q]) => !has(q) || has(p))) out.push(d.ids.filter(has));
  }
  return out;
}

test('lattice layout on random domains: nodes are the closed subsets, edges join sets one component apart', () => {
  for (const seed of ['a', 'b', 'c', 'd']) {
    const d = randomDomain(seed, 7, 0.3);
    const layout = latticeLayout(d);
    const expected = bruteForceStates(d).map(stateKey).sort();
    assert.deepEqual(layout.nodes.map((n) => n.key).sort(), expected, seed);
    const sets = new Map(layout.nodes.map((n) => [n.key, new Set(n.key === '' ? [] : n.key.split(','))]));
    // Brute-force edge count: pairs of states K ⊂ L with |L| = |K| + 1.
    let pairs = 0;
    for (const a of sets.values()) for (const b of sets.values()) if (b.size === a.size + 1 && [...a].every((x) => b.has(x))) pairs++;
    assert.equal(layout.edges.length, pairs, seed);
    for (const e of layout.edges) {
      const a = sets.get(e.from)!;
      const b = sets.get(e.to)!;
      assert.equal(b.size, a.size + 1);
      assert.ok([...a].every((x) => b.has(x)));
      assert.ok(b.has(e.label) && !a.has(e.label));
    }
    for (const n of layout.nodes) assert.equal(n.y, sets.get(n.key)!.size);
    // Within a layer nodes are one unit apart and centred on 0.
    for (let k = 0; k < layout.layers; k++) {
      const xs = layout.nodes.filter((n) => n.layer === k).map((n) => n.x).sort((a, b) => a - b);
      xs.forEach((x, i) => assert.equal(x, i - (xs.length - 1) / 2));
    }
  }
});

test('short IDs drop the shared prefix but never split a number or empty an ID', () => {
  assert.deepEqual([...shortIds(['SL1', 'SL2', 'SL10']).values()], ['1', '2', '10']);
  assert.deepEqual([...shortIds(['A1', 'A10']).values()], ['1', '10']);
  assert.deepEqual([...shortIds(['x', 'y']).values()], ['x', 'y']);
  assert.deepEqual([...shortIds(['AB', 'ABC']).values()], ['AB', 'ABC']);
  assert.equal(stateLabel([]), '∅');
  assert.equal(stateLabel(['SL1', 'SL4'], shortIds(slope.ids)), '{1,4}');
});

test('Hasse spec: edges as null-separated segments, one labelled marker per component', () => {
  const spec = hasseDiagramSpec(slope);
  const [edges, nodes] = spec.data as [Record<string, unknown[]>, Record<string, unknown[]>];
  assert.equal(edges.x!.length, 7 * 3);
  assert.deepEqual(edges.x!.slice(0, 3), [0, -0.5, null]); // SL1 -> SL2
  assert.deepEqual(edges.y!.slice(0, 3), [0, 1, null]);
  assert.deepEqual(nodes.text, slope.ids);
  assert.equal((spec.layout!.title as { text: string }).text, 'Slope: prerequisite order (Hasse diagram)');
});

test('lattice spec highlights a state and its outer-fringe edges; a non-state is an InputError', () => {
  const plain = latticeSpec(slope);
  assert.equal(plain.data.length, 2);
  const spec = latticeSpec(slope, { highlight: ['SL1'] });
  assert.equal(spec.data.length, 3);
  const fringe = spec.data[1] as { x: unknown[]; y: unknown[] };
  // {SL1} (x 0, y 1) to {SL1,SL2} (x -0.5, y 2) and {SL1,SL4} (x 0.5, y 2).
  assert.deepEqual(fringe.x, [0, -0.5, null, 0, 0.5, null]);
  assert.deepEqual(fringe.y, [1, 2, null, 1, 2, null]);
  const colours = ((spec.data[2] as { marker: { color: string[] } }).marker.color);
  assert.equal(colours.filter((c) => c === HIGHLIGHT_COLOUR).length, 1);
  assert.equal(colours.filter((c) => c === FRINGE_COLOUR).length, 2);
  assert.match((spec.layout!.title as { text: string }).text, /state \{1\} in red; its outer fringe \{2,4\} \(the admissible next steps\):<\/sup><br><sup>orange lines, each adding one, up to the states in orange<\/sup>$/);
  // The full domain has an empty fringe: no orange at all, and the caption says ∅.
  assert.match((latticeSpec(slope, { highlight: slope.ids }).layout!.title as { text: string }).text, /its outer fringe ∅ \(the admissible next steps\):<\/sup><br><sup>nothing is left to learn<\/sup>$/);
  const labels = spec.layout!.annotations as Array<{ text: string; x: number; y: number }>;
  assert.equal(labels.length, 11);
  assert.deepEqual(labels.find((a) => a.text === '{1,4}'), { ...labels.find((a) => a.text === '{1,4}')!, x: 0.5, y: 2 });
  assert.throws(() => latticeSpec(slope, { highlight: ['SL2'] }), InputError);
});

test('the knowledge space is drawn up to MAX_LATTICE_STATES states; a larger one is refused by count before it is enumerated', () => {
  const free = (n: number) =>
    buildDomain({ id: `free${n}`, title: `Free ${n}`, source: 'test', components: Array.from({ length: n }, (_, i) => ({ id: `T${i + 1}`, description: `task ${i + 1}` })), prerequisites: [] });
  assert.equal(2 ** 8, MAX_LATTICE_STATES);
  assert.equal(latticeLayout(free(8)).nodes.length, 256);
  assert.throws(() => latticeSpec(free(9)), (e: unknown) => e instanceof InputError && e.message.startsWith(`domain "free9": its knowledge space has 512 states, more than the ${MAX_LATTICE_STATES} a diagram of the space draws`) && e.message.endsWith('draw a smaller domain (notebook 01: domainId)'));
  // 2^64 states: refused at once (enumerating them would never end).
  assert.throws(() => latticeLayout(free(64)), /has 18446744073709551616 states/);
});
