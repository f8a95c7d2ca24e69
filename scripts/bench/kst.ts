/**
 * Speed figures of the KST core: knowledge-state enumeration on a poset with millions of states, and
 * outer/inner fringes on a seeded random 5,000-task DAG. Part of `npm run bench`.
 */
import seedrandom from 'seedrandom';
import {
  buildDomain,
  checkState,
  compileStructure,
  countStates,
  enumerateStates,
  forEachStateBits,
  forEachStateMask,
  innerFringeBits,
  outerFringeBits,
  outerFringe,
  sampleStates,
  type Domain,
} from '../../lib/kst';
import { emptyBits, setBit } from '../../lib/kst/bitset';
import { exportedItemNames } from '../../lib/kst-io/convert';

function domainOf(id: string, ids: string[], prerequisites: Array<[string, string]>): Domain {
  return buildDomain({
    id,
    title: id,
    source: 'benchmark',
    components: ids.map((c) => ({ id: c, description: `task ${c}` })),
    prerequisites,
  });
}

/** 24 components: 16 unrelated tasks plus four two-task chains, so 2^16 · 3^4 = 5,308,416 states. */
function antichainish(): Domain {
  const ids = Array.from({ length: 24 }, (_, i) => `T${i}`);
  const pairs: Array<[string, string]> = [];
  for (let c = 0; c < 4; c++) pairs.push([ids[16 + 2 * c]!, ids[17 + 2 * c]!]);
  return domainOf('antichainish-24', ids, pairs);
}

/** Seeded sparse DAG: task j gets 0–4 direct prerequisites drawn uniformly among tasks 0..j−1. */
function randomDag(seed: string, n: number): Domain {
  const rng = seedrandom(seed);
  const ids = Array.from({ length: n }, (_, i) => `T${i}`);
  const pairs: Array<[string, string]> = [];
  for (let j = 1; j < n; j++) {
    const chosen = new Set<number>();
    const k = Math.floor(rng() * 5);
    for (let t = 0; t < k; t++) chosen.add(Math.floor(rng() * j));
    for (const i of chosen) pairs.push([ids[i]!, ids[j]!]);
  }
  return domainOf(`random-dag-${n}`, ids, pairs);
}

/** Times `run` repeatedly for at least `minMs` and returns operations per second. */
function rate(minMs: number, opsPerRun: number, run: () => void): { perSecond: number; ms: number } {
  let runs = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0;
  do {
    run();
    runs++;
    elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  } while (elapsed < minMs);
  return { perSecond: (runs * opsPerRun) / (elapsed / 1000), ms: elapsed / runs };
}

const fmt = (x: number): string => Math.round(x).toLocaleString('en-US');

export async function benchKst(print: (line: string) => void): Promise<void> {
  const big = antichainish();
  const s = compileStructure(big);
  const count = countStates(big);
  print(`enumeration poset: ${big.ids.length} components (16 unrelated + 4 two-task chains), ${fmt(count)} states`);
  let seen = 0;
  const masks = rate(1000, count, () => {
    seen = forEachStateMask(s, () => {});
  });
  if (seen !== count) throw new Error(`enumeration visited ${seen} states, expected ${count}`);
  print(`forEachStateMask (32-bit masks): ${fmt(masks.perSecond)} states/s (${masks.ms.toFixed(0)} ms per full pass)`);
  const bits = rate(1000, count, () => {
    forEachStateBits(s, () => {});
  });
  print(`forEachStateBits (word bitsets): ${fmt(bits.perSecond)} states/s (${bits.ms.toFixed(0)} ms per full pass)`);
  const counting = rate(500, count, () => {
    countStates(big);
  });
  print(`countStates (product over connected parts): ${counting.ms.toFixed(2)} ms per call`);
  const mid = domainOf('antichain-16', Array.from({ length: 16 }, (_, i) => `T${i}`), []);
  const listing = rate(500, 65536, () => {
    enumerateStates(mid);
  });
  print(`enumerateStates (sorted string[][]), 16-task antichain: ${fmt(listing.perSecond)} states/s`);

  const n = 5000;
  const dag = randomDag('kstbench-bench-dag', n);
  const compileStart = process.hrtime.bigint();
  const ds = compileStructure(dag);
  const compileMs = Number(process.hrtime.bigint() - compileStart) / 1e6;
  print(`fringe DAG: ${n} tasks, ${fmt(dag.prerequisites.length)} direct pairs (seed kstbench-bench-dag); compile ${compileMs.toFixed(0)} ms`);
  // Random states: prefixes of a seeded random topological order (random Kahn choices).
  const rng = seedrandom('kstbench-bench-states');
  const states: Uint32Array[] = [];
  const stateIds: string[][] = [];
  for (let k = 0; k < 100; k++) {
    const indegree = Int32Array.from(ds.directPrerequisites, (list) => list.length);
    const ready: number[] = [];
    for (let v = 0; v < n; v++) if (indegree[v] === 0) ready.push(v);
    const length = Math.floor(rng() * (n + 1));
    const bitsOfState = emptyBits(n);
    const ids: string[] = [];
    for (let t = 0; t < length; t++) {
      const pick = Math.floor(rng() * ready.length);
      const v = ready[pick]!;
      ready[pick] = ready[ready.length - 1]!;
      ready.pop();
      setBit(bitsOfState, v);
      ids.push(dag.ids[v]!);
      for (const w of ds.directSuccessors[v]!) if (--indegree[w]! === 0) ready.push(w);
    }
    states.push(bitsOfState);
    stateIds.push(ids);
  }
  const out = emptyBits(n);
  const outer = rate(1000, states.length, () => {
    for (const st of states) outerFringeBits(ds, st, out);
  });
  print(`outerFringeBits: ${fmt(outer.perSecond)} fringes/s on 100 random states`);
  const inner = rate(1000, states.length, () => {
    for (const st of states) innerFringeBits(ds, st, out);
  });
  print(`innerFringeBits: ${fmt(inner.perSecond)} fringes/s`);
  const checked = rate(1000, states.length, () => {
    for (const ids of stateIds) checkState(dag, ids);
  });
  print(`checkState (string IDs): ${fmt(checked.perSecond)} checks/s`);
  const stringOuter = rate(1000, states.length, () => {
    for (const ids of stateIds) outerFringe(dag, ids);
  });
  print(`outerFringe (string IDs, validated): ${fmt(stringOuter.perSecond)} fringes/s`);
  const sampleStart = process.hrtime.bigint();
  const sample = sampleStates(dag, { size: 100, seed: 'kstbench-bench-sample' });
  const sampleMs = Number(process.hrtime.bigint() - sampleStart) / 1e6;
  const steps = sample.burnIn + (sample.draws - 1) * sample.thin;
  print(
    `sampleStates: 100 draws (burn-in ${fmt(sample.burnIn)}, thin ${fmt(sample.thin)}; ${fmt(steps)} chain steps) in ${sampleMs.toFixed(0)} ms, ${sample.states.length} distinct states`,
  );
  benchExportNames(print);
}

/** exportedItemNames when no label round-trips (each item gets a note): once quadratic (34 s at 4,000 items). */
function benchExportNames(print: (line: string) => void): void {
  const n = 4000;
  const components = Array.from({ length: n }, (_, i) => ({ id: `q${i}`, label: `Question ${i}`, description: 'x' }));
  const d = buildDomain({ id: 'many', title: 'many', source: 'benchmark', components, basis: components.map((c) => [c.id]) });
  const before = process.cpuUsage();
  const { notes } = exportedItemNames(d);
  const used = process.cpuUsage(before);
  print(`export item names: ${fmt(n)} items whose labels do not round-trip (${fmt(notes.length)} notes): ${((used.user + used.system) / 1000).toFixed(0)} ms CPU`);
}

if (require.main === module) {
  void benchKst((line) => console.log(line));
}
