/**
 * Union closure against kstMatrix's C `kmunionclosure` (the tool a KST researcher already uses), run
 * side by side when R is installed: part of `npm run bench` ("KST basis").
 *
 * The peers' sources (kstMatrix 2.3-4, GPL) are read from `../shared/peers/kstMatrix` (or
 * $KSTBENCH_PEERS/kstMatrix) and compiled with `R CMD SHLIB` into a temporary folder; nothing of them is
 * copied into the project. The bases: cad1, cad6, cadmaj (kstMatrix's cad data, 28 items), frac1,
 * frac3 (its fractions data, 77 items), and the bench's seeded random 77-item basis. For each, the
 * median of $KSTBENCH_R_RUNS (default 5) wall-clock runs of
 *   - `kmunionclosure(basis)` inside one R session (R's start-up not counted),
 *   - the library walk: `forEachStateBits` over the imported domain,
 *   - the CLI as a user runs it: `kstbench space --domain D --count` and
 *     `kstbench space --domain D --format srbt --out FILE` (node start-up counted),
 * and the ratio kmunionclosure ÷ kstbench. Without R the section says so and prints kstbench's own
 * times only.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildDomain, compileStructure, forEachStateBits, type DomainFile } from '../../lib/kst';
import { importStructure } from '../../lib/kst-io';

const ROOT = resolve(__dirname, '..', '..', ...(__dirname.includes(`${join('dist', 'scripts')}`) ? ['..'] : []));
const RUNS = Number(process.env.KSTBENCH_R_RUNS ?? 5);
const REAL_BASES = ['cad1', 'cad6', 'cadmaj', 'frac1', 'frac3'];

function peersDir(): string | undefined {
  const candidates = [process.env.KSTBENCH_PEERS, join(ROOT, '..', 'shared', 'peers'), join(ROOT, '..', '..', 'shared', 'peers')];
  return candidates.find((d): d is string => d !== undefined && existsSync(join(d, 'kstMatrix', 'src')));
}

function hasR(): boolean {
  return spawnSync('Rscript', ['--version'], { stdio: 'ignore' }).status === 0;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number): string => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);

/** Compiles kstMatrix in `dir`, writes every real basis there as a 0/1 matrix, times kmunionclosure; returns name → median ms. */
function runR(peers: string, dir: string, bases: string[]): Map<string, { ms: number; states: number }> {
  const src = join(peers, 'kstMatrix', 'src');
  const build = join(dir, 'kstMatrix-build');
  execFileSync('mkdir', ['-p', build]);
  execFileSync('sh', ['-c', `cp "${src}"/*.c "${src}"/*.h "${build}" && cd "${build}" && R CMD SHLIB -o kstMatrix.so *.c`], { stdio: 'ignore' });
  const script = `
P <- '${join(peers, 'kstMatrix')}'; D <- '${dir}'
dyn.load(file.path('${build}', 'kstMatrix.so'))
for (f in list.files(file.path(P, 'R'), full.names = TRUE)) source(f)
load(file.path(P, 'data', 'cad.rda')); load(file.path(P, 'data', 'fractions.rda'))
real <- list(cad1 = cad$cad1, cad6 = cad$cad6, cadmaj = cad$cadmaj, frac1 = fractions$frac1, frac3 = fractions$frac3)
for (nm in names(real)) write.table(real[[nm]], file.path(D, paste0(nm, '.mat')), row.names = FALSE, col.names = FALSE, sep = '')
for (nm in c(${bases.map((b) => `'${b}'`).join(', ')})) {
  b <- if (nm %in% names(real)) real[[nm]] else {
    l <- readLines(file.path(D, paste0(nm, '.mat'))); do.call(rbind, lapply(strsplit(l, ''), as.integer)) }
  t <- c(); for (i in 1:${RUNS}) { t <- c(t, system.time(s <- kmunionclosure(b))[['elapsed']]) }
  cat(nm, nrow(s), t, '\\n')
}`;
  const out = execFileSync('Rscript', ['-e', script], { encoding: 'utf8', maxBuffer: 1 << 20 });
  const result = new Map<string, { ms: number; states: number }>();
  for (const line of out.trim().split('\n')) {
    const [name, states, ...times] = line.trim().split(/\s+/);
    result.set(name!, { ms: median(times.map((t) => Number(t) * 1000)), states: Number(states) });
  }
  return result;
}

/** The median wall time of `runs` calls of `fn`, in ms. */
function timed(runs: number, fn: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return median(times);
}

/** kstbench's three times on one basis file (imported first, as a user would). */
function runKstbench(dir: string, name: string): { states: number; walk: number; count: number; srbt: number } {
  const domainFile = join(dir, `${name}.json`);
  const file = importStructure(readFileSync(join(dir, `${name}.mat`), 'utf8'), `${name}.mat`, { id: name, kind: 'basis' });
  writeFileSync(domainFile, JSON.stringify(file));
  const s = compileStructure(buildDomain(file));
  let states = 0;
  const walk = timed(RUNS, () => {
    states = forEachStateBits(s, () => {});
  });
  const cli = (args: string[]): void => {
    const run = spawnSync(process.execPath, [join(ROOT, 'bin', 'kstbench.js'), 'space', '--domain', domainFile, ...args], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`kstbench space ${args.join(' ')}: exit ${run.status}: ${run.stderr}`);
    if (args[0] === '--count' && Number(run.stdout.trim()) !== states) throw new Error(`kstbench space --count printed ${run.stdout.trim()}, the walk found ${states}`);
  };
  const count = timed(RUNS, () => cli(['--count']));
  const srbt = timed(RUNS, () => cli(['--format', 'srbt', '--out', join(dir, `${name}.srbt`)]));
  rmSync(join(dir, `${name}.srbt`), { force: true });
  return { states, walk, count, srbt };
}

export async function benchKmunionclosure(print: (line: string) => void, randomBasis: DomainFile): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-bench-km-'));
  try {
    const random = buildDomain(randomBasis);
    // The random basis as a plain 0/1 matrix file, as kmunionclosure takes it.
    const text = random.basis!.map((b) => random.ids.map((id) => (b.includes(id) ? '1' : '0')).join('')).join('\n');
    writeFileSync(join(dir, 'random77.mat'), `${text}\n`);
    const peers = peersDir();
    const r = peers && hasR() ? runR(peers, dir, [...REAL_BASES, 'random77']) : undefined;
    if (!r) {
      print(`kstMatrix's kmunionclosure: not run (${peers ? 'Rscript is not on PATH' : 'no ../shared/peers/kstMatrix; set KSTBENCH_PEERS'}); kstbench's times only, on the random basis`);
    }
    print(`union closure, median of ${RUNS} wall-clock runs; ratio = kmunionclosure time ÷ kstbench time (goal ≥ 20×)`);
    print('| base | states | kmunionclosure | library walk | CLI --count | CLI --format srbt --out |');
    print('|---|---|---|---|---|---|');
    for (const name of r ? [...REAL_BASES, 'random77'] : ['random77']) {
      const k = runKstbench(dir, name);
      const km = r?.get(name);
      if (km && km.states !== k.states) throw new Error(`${name}: kmunionclosure has ${km.states} states, kstbench ${k.states}`);
      const cell = (ms: number): string => (km ? `${fmt(ms)} (${(km.ms / ms).toFixed(1)}×)` : fmt(ms));
      print(`| ${name} | ${k.states.toLocaleString('en-US')} | ${km ? fmt(km.ms) : '—'} | ${cell(k.walk)} | ${cell(k.count)} | ${cell(k.srbt)} |`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
