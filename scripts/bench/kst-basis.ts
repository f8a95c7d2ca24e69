/**
 * Speed figures for knowledge spaces given by a basis (lib/kst/basis.ts) on a seeded random 77-item
 * space with more than a million states: union-closure throughput, fringes from the basis per second,
 * and `kstbench space` streaming the whole space to a file. Part of `npm run bench` ("KST basis").
 *
 * The space: item j gets one clause, or two with probability ½ (never for items 0–2); a clause is j
 * plus the routes of up to 15 earlier items picked at random (so every clause is closed); clauses of
 * one item that contain another are dropped. Seed "m6" gives 94 basis elements and 1,409,284 states.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import seedrandom from 'seedrandom';
import { command as spaceCommand } from '../../cli/commands/space';
import { benchKmunionclosure } from './kmunionclosure';
import {
  buildDomain,
  compileStructure,
  countStates,
  forEachStateBits,
  innerFringeFromBasis,
  outerFringeFromBasis,
  type DomainFile,
} from '../../lib/kst';

const N = 77;
const SEED = 'm6';
const MAX_DEPS = 15;
const TWO_CLAUSES = 0.5;

/** The random surmise function described above, as a domain file. */
export function randomBasisDomain(seed = SEED, n = N): DomainFile {
  const rng = seedrandom(seed);
  const ids = Array.from({ length: n }, (_, i) => `Q${i + 1}`);
  const routes: Array<Array<Set<number>>> = [];
  const surmise: Record<string, string[][]> = {};
  for (let j = 0; j < n; j++) {
    const clauses: Array<Set<number>> = [];
    const count = j > 2 && rng() < TWO_CLAUSES ? 2 : 1;
    for (let c = 0; c < count; c++) {
      const clause = new Set<number>([j]);
      if (j > 0) {
        const deps = Math.floor(rng() * (MAX_DEPS + 1));
        for (let t = 0; t < deps; t++) {
          const i = Math.floor(rng() * j);
          for (const x of routes[i]![Math.floor(rng() * routes[i]!.length)]!) clause.add(x);
        }
      }
      clauses.push(clause);
    }
    const inside = (a: Set<number>, b: Set<number>): boolean => [...a].every((x) => b.has(x));
    const kept = clauses.filter((c, k) => !clauses.some((d, l) => l !== k && inside(d, c) && (d.size < c.size || l < k)));
    routes.push(kept);
    surmise[ids[j]!] = kept.map((c) => [...c].filter((x) => x !== j).sort((a, b) => a - b).map((x) => ids[x]!));
  }
  return {
    id: `random-basis-${n}`,
    title: 'random basis',
    source: `benchmark: seeded random surmise function (seed ${seed})`,
    components: ids.map((id) => ({ id, description: `task ${id}` })),
    surmise,
  };
}

const fmt = (x: number): string => Math.round(x).toLocaleString('en-US');
const ms = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e6;

export async function benchKstBasis(print: (line: string) => void): Promise<void> {
  const file = randomBasisDomain();
  let t = process.hrtime.bigint();
  const domain = buildDomain(file);
  const s = compileStructure(domain);
  const basis = s.basis!;
  print(`random basis space: ${N} items, ${basis.m} basis elements, ${domain.notions.length} notions (seed ${SEED}); validate + compile ${ms(t).toFixed(0)} ms`);
  t = process.hrtime.bigint();
  const count = countStates(domain);
  const countMs = ms(t);
  print(`countStates: ${fmt(count)} states in ${countMs.toFixed(0)} ms`);
  // Union closure: a full visit of every state.
  let best = Infinity;
  let bestCpu = Infinity;
  const keep: Uint32Array[] = [];
  for (let run = 0; run < 3; run++) {
    const cpu = process.cpuUsage();
    t = process.hrtime.bigint();
    let k = 0;
    forEachStateBits(s, (bits) => {
      if (run === 0 && k++ % 113 === 0) keep.push(bits.slice());
    });
    best = Math.min(best, ms(t));
    const used = process.cpuUsage(cpu);
    bestCpu = Math.min(bestCpu, (used.user + used.system) / 1000);
  }
  print(
    `union closure (forEachStateBits from the basis): ${fmt(count / (bestCpu / 1000))} states per CPU second (${bestCpu.toFixed(0)} ms CPU, ${best.toFixed(0)} ms wall per full pass, best of 3)`,
  );
  const out = new Uint32Array(s.words);
  t = process.hrtime.bigint();
  let fringes = 0;
  do {
    for (const st of keep) {
      outerFringeFromBasis(basis, st, out);
      fringes++;
    }
  } while (ms(t) < 1000);
  print(`outer fringe from the basis: ${fmt(fringes / (ms(t) / 1000))} fringes/s (${fmt(keep.length)} states of the space)`);
  t = process.hrtime.bigint();
  fringes = 0;
  do {
    for (const st of keep) {
      innerFringeFromBasis(basis, st, out);
      fringes++;
    }
  } while (ms(t) < 1000);
  print(`inner fringe from the basis: ${fmt(fringes / (ms(t) / 1000))} fringes/s`);
  // `kstbench space` streaming the space to a file, run in-process so that CPU time can be reported
  // next to wall time (the machine may be shared; CPU time is the steadier figure).
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-bench-space-'));
  try {
    const domainFile = join(dir, 'random-basis.json');
    writeFileSync(domainFile, JSON.stringify(file));
    for (const format of ['jsonl', 'srbt']) {
      const target = join(dir, `space.${format}`);
      const cpu = process.cpuUsage();
      t = process.hrtime.bigint();
      const code = await spaceCommand.run(['--domain', domainFile, '--format', format, '--out', target]);
      const wall = ms(t);
      const used = process.cpuUsage(cpu);
      const cpuMs = (used.user + used.system) / 1000;
      if (code !== 0) {
        print(`kstbench space --format ${format}: exit ${code}`);
        continue;
      }
      const size = statSync(target).size;
      print(
        `kstbench space --format ${format} --out FILE: ${fmt(count)} states, ${(size / 2 ** 20).toFixed(0)} MiB; wall ${(wall / 1000).toFixed(1)} s, CPU ${(cpuMs / 1000).toFixed(1)} s (${fmt(count / (cpuMs / 1000))} states per CPU second)`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  benchLargeBasisMemory(print);
  await benchKmunionclosure(print, file);
}

/** Elements and items of the large basis of benchLargeBasisMemory: its union table for the three-word walk is just under UNION_TABLE_LIMIT. */
const LARGE_BASIS = { elements: 170_000, items: 80, seed: 'kstbench-bench-large-basis' };

/**
 * Peak memory of the union-closure walk's tables on a basis of 170,000 seeded random elements over 80
 * items (three words: a 62 MiB union table), in a fresh process (the bench's own peak says nothing):
 * its peak RSS after building the model, and after 65,792 splits (its second budget charge, 256 + 65,536
 * splits: a budget of 65,536 steps stops it there, once every table is built; before the first charge
 * came early it was 65,536 splits with a budget of 1).
 */
export function benchLargeBasisMemory(print: (line: string) => void): void {
  const { elements, items, seed } = LARGE_BASIS;
  const code = `
const { basisModel, countUnionStates } = require(${JSON.stringify(require.resolve('../../lib/kst/basis'))});
const { BudgetError, workBudget } = require(${JSON.stringify(require.resolve('../../lib/kst/budget'))});
const rng = require(${JSON.stringify(require.resolve('seedrandom'))})(${JSON.stringify(seed)});
const m = ${elements}, packed = new Uint32Array(m * 3);
for (let i = 0; i < packed.length; i++) packed[i] = (rng.int32() >>> 0) & (i % 3 === 2 ? ${(2 ** (items - 64) - 1).toString()} : 0xffffffff);
const model = basisModel(${items}, Array.from({ length: m }, (_, b) => packed.subarray(3 * b, 3 * b + 3)));
const model$ = process.resourceUsage().maxRSS;
const t = process.cpuUsage();
try { countUnionStates(model, workBudget(65536)); } catch (err) { if (!(err instanceof BudgetError)) throw err; }
const cpu = process.cpuUsage(t);
console.log(JSON.stringify({ model: model$, peak: process.resourceUsage().maxRSS, cpu: (cpu.user + cpu.system) / 1000 }));`;
  const run = spawnSync(process.execPath, ['-e', code], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`large-basis memory run: exit ${run.status}: ${run.stderr}`);
  const { model, peak, cpu } = JSON.parse(run.stdout) as { model: number; peak: number; cpu: number };
  const tableMiB = (Math.ceil(elements / 32) * 4 * 256 * 3 * 4) / 2 ** 20;
  print(
    `three-word walk on ${fmt(elements)} random basis elements over ${items} items (seed ${seed}): peak RSS ${(peak / 1024).toFixed(0)} MiB, ${((peak - model) / 1024).toFixed(0)} MiB above the model's ${(model / 1024).toFixed(0)} MiB (union table ${tableMiB.toFixed(0)} MiB); walk plan, tables and first 65,792 splits ${fmt(cpu)} ms CPU`,
  );
}

if (require.main === module) {
  void benchKstBasis((line) => console.log(line));
}
