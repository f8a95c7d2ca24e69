/**
 * Union closure against kstMatrix's C `kmunionclosure` (the tool a KST researcher already uses), run
 * side by side when R is installed: part of `npm run bench` ("KST basis").
 *
 * The peers' sources (kstMatrix 2.3-4, GPL) are read from `../shared/peers/kstMatrix` (or
 * $KSTBENCH_PEERS/kstMatrix) and compiled with `R CMD SHLIB` into a temporary folder; nothing of them is
 * copied into the project. The bases: cad1, cad6, cadmaj (kstMatrix's cad data, 28 items), frac1,
 * frac3 (its fractions data, 77 items), and the bench's seeded random 77-item basis. For each, the
 * median of $KSTBENCH_R_RUNS (default 5) runs ($KSTBENCH_BASES=cad6,frac1 picks bases), wall clock and
 * CPU time (user + system: on a shared machine the steadier figure), of
 *   - `kmunionclosure(basis)` inside one R session (R's start-up not counted),
 *   - the library walk: `forEachStateBits` over the imported domain,
 *   - the CLI as a user runs it: `kstbench space --domain D --count` and
 *     `kstbench space --domain D --format srbt --out FILE` (node start-up counted),
 * and the ratio kmunionclosure ÷ kstbench; then whole processes against each other: an Rscript that
 * starts R, loads kstMatrix, reads the basis and runs kmunionclosure, against the kstbench process.
 * It also prints the CLI's floor: `node -e 0` and `kstbench space --count` on a one-item domain.
 * Without R the section says so and prints kstbench's own times only.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildDomain, compileStructure, forEachStateBits, type DomainFile } from '../../lib/kst';
import { importStructure } from '../../lib/kst-io';

const ROOT = resolve(__dirname, '..', '..', ...(__dirname.includes(`${join('dist', 'scripts')}`) ? ['..'] : []));
const RUNS = Number(process.env.KSTBENCH_R_RUNS ?? 5);
const REAL_BASES = ['cad1', 'cad6', 'cadmaj', 'frac1', 'frac3'];

/**
 * The peers' kstMatrix and kstIO sources: $KSTBENCH_PEERS, else `shared/peers` beside the project (one
 * or two folders up), else beside the local repository this checkout was cloned from (a fresh clone
 * of the team's checkout elsewhere, as .ci/run also finds them).
 */
export function peersDir(): string | undefined {
  const candidates = [process.env.KSTBENCH_PEERS, join(ROOT, '..', 'shared', 'peers'), join(ROOT, '..', '..', 'shared', 'peers'), besideOrigin()];
  return candidates.find((d): d is string => d !== undefined && existsSync(join(d, 'kstMatrix', 'src')) && existsSync(join(d, 'kstIO', 'R')));
}

/** `shared/peers` beside the repository `origin` names, when that is a local folder. */
function besideOrigin(): string | undefined {
  const r = spawnSync('git', ['config', '--get', 'remote.origin.url'], { cwd: ROOT, encoding: 'utf8' });
  const origin = r.status === 0 ? r.stdout.trim() : '';
  return origin !== '' && existsSync(origin) ? join(resolve(ROOT, origin), '..', 'shared', 'peers') : undefined;
}

export function hasR(): boolean {
  return spawnSync('Rscript', ['--version'], { stdio: 'ignore' }).status === 0;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number): string => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);

/**
 * The whole Rscript process as a user runs it for one basis file: start R, load kstMatrix (its
 * compiled code and R sources: the package cannot be installed here, its imports are missing), read
 * the 0/1 matrix, kmunionclosure. Timed under sh like the CLI (children's CPU by `times`).
 */
function runRProcess(peers: string, build: string, dir: string, name: string): Times {
  const script = `
P <- '${join(peers, 'kstMatrix')}'
dyn.load(file.path('${build}', 'kstMatrix.so'))
for (f in list.files(file.path(P, 'R'), full.names = TRUE)) source(f)
load(file.path(P, 'data', 'cad.rda'))
l <- readLines('${join(dir, `${name}.mat`)}')
b <- do.call(rbind, lapply(strsplit(l, ''), as.integer)); class(b) <- class(cad$cad1)
s <- kmunionclosure(b); cat(nrow(s), '\\n')`;
  writeFileSync(join(dir, 'process.R'), script);
  return timed(RUNS, () => {
    const run = spawnSync('sh', ['-c', `Rscript "$0" > "$0.out" && times >&2`, join(dir, 'process.R')], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`Rscript process for ${name}: exit ${run.status}: ${run.stderr}`);
    const [user, system] = run.stderr.trim().split('\n').pop()!.trim().split(/\s+/);
    return shTime(user!) + shTime(system!);
  });
}

/** Compiles kstMatrix in `dir`, writes every real basis there as a 0/1 matrix, times kmunionclosure; returns name → median ms. */
function runR(peers: string, dir: string, bases: string[]): Map<string, Times & { states: number; process: Times }> {
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
    l <- readLines(file.path(D, paste0(nm, '.mat')))
    m <- do.call(rbind, lapply(strsplit(l, ''), as.integer)); class(m) <- class(real$cad1); m }
  w <- c(); u <- c()
  for (i in 1:${RUNS}) { t <- system.time(s <- kmunionclosure(b)); w <- c(w, t[['elapsed']]); u <- c(u, t[['user.self']] + t[['sys.self']]) }
  cat(nm, nrow(s), 'wall', w, 'cpu', u, '\\n')
}`;
  const out = execFileSync('Rscript', ['-e', script], { encoding: 'utf8', maxBuffer: 1 << 20 });
  const result = new Map<string, Times & { states: number; process: Times }>();
  for (const line of out.trim().split('\n')) {
    const [name, states, , ...rest] = line.trim().split(/\s+/);
    const wall = rest.slice(0, rest.indexOf('cpu')).map((t) => Number(t) * 1000);
    const cpu = rest.slice(rest.indexOf('cpu') + 1).map((t) => Number(t) * 1000);
    result.set(name!, { wall: median(wall), cpu: median(cpu), states: Number(states), process: runRProcess(peers, build, dir, name!) });
  }
  return result;
}

/** Median wall-clock and CPU milliseconds. */
interface Times {
  wall: number;
  cpu: number;
}

/** The medians of `runs` calls of `fn`; `fn` returns its CPU ms, or undefined to use this process's. */
function timed(runs: number, fn: () => number | undefined): Times {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c = process.cpuUsage();
    const t = process.hrtime.bigint();
    const childCpu = fn();
    wall.push(Number(process.hrtime.bigint() - t) / 1e6);
    const used = process.cpuUsage(c);
    cpu.push(childCpu ?? (used.user + used.system) / 1000);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

/** Seconds in the `times` format of sh ("0m1.250s") as ms. */
const shTime = (text: string): number => {
  const m = /^(\d+)m([\d.]+)s$/.exec(text)!;
  return (Number(m[1]) * 60 + Number(m[2])) * 1000;
};

/** kstbench's three times on one basis file (imported first, as a user would). */
function runKstbench(dir: string, name: string): { states: number; walk: Times; count: Times; srbt: Times } {
  const domainFile = join(dir, `${name}.json`);
  const file = importStructure(readFileSync(join(dir, `${name}.mat`), 'utf8'), `${name}.mat`, { id: name, kind: 'basis' });
  writeFileSync(domainFile, JSON.stringify(file));
  const s = compileStructure(buildDomain(file));
  let states = 0;
  const walk = timed(RUNS, () => {
    states = forEachStateBits(s, () => {});
    return undefined;
  });
  // The CLI as a user starts it, under sh so that `times` reports the child's CPU (user + system).
  const cli = (args: string[]): number => {
    const quoted = [process.execPath, join(ROOT, 'bin', 'kstbench.js'), 'space', '--domain', domainFile, ...args].map((a) => `'${a}'`).join(' ');
    const run = spawnSync('sh', ['-c', `${quoted} > "$0.out" && times >&2`, join(dir, 'cli')], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`kstbench space ${args.join(' ')}: exit ${run.status}: ${run.stderr}`);
    const printed = readFileSync(join(dir, 'cli.out'), 'utf8').trim();
    if (args[0] === '--count' && Number(printed) !== states) throw new Error(`kstbench space --count printed ${printed}, the walk found ${states}`);
    const [user, system] = run.stderr.trim().split('\n').pop()!.trim().split(/\s+/);
    return shTime(user!) + shTime(system!);
  };
  const count = timed(RUNS, () => cli(['--count']));
  const srbt = timed(RUNS, () => cli(['--format', 'srbt', '--out', join(dir, `${name}.srbt`)]));
  rmSync(join(dir, `${name}.srbt`), { force: true });
  return { states, walk, count, srbt };
}

/**
 * The floor under every CLI cell: CPU of `node -e 0` and of `kstbench space --count` on a one-item
 * domain (node, the worker thread, loading the command, zod and lib/kst, reading and checking the
 * file; the walk is one state), median of RUNS, under sh like the cells. The worker loads its modules
 * from its code cache (docs/startup.md) once an earlier run of `space` wrote it: at most the first of
 * the RUNS compiles them, which the median leaves out.
 */
function startupFloor(dir: string): { node: Times; cli: Times } {
  const domainFile = join(dir, 'one-item.json');
  writeFileSync(domainFile, JSON.stringify({ id: 'one', title: 'one item', source: 'bench: start-up floor', components: [{ id: 'a', description: 'a' }], basis: [['a']] }));
  const cpuOf = (args: string[]): number => {
    const quoted = [process.execPath, ...args].map((a) => `'${a}'`).join(' ');
    const run = spawnSync('sh', ['-c', `${quoted} > /dev/null && times >&2`], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`${args.join(' ')}: exit ${run.status}: ${run.stderr}`);
    const [user, system] = run.stderr.trim().split('\n').pop()!.trim().split(/\s+/);
    return shTime(user!) + shTime(system!);
  };
  return {
    node: timed(RUNS, () => cpuOf(['-e', '0'])),
    cli: timed(RUNS, () => cpuOf([join(ROOT, 'bin', 'kstbench.js'), 'space', '--domain', domainFile, '--count'])),
  };
}

export async function benchKmunionclosure(print: (line: string) => void, randomBasis: DomainFile): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-bench-km-'));
  try {
    const random = buildDomain(randomBasis);
    // The random basis as a plain 0/1 matrix file, as kmunionclosure takes it.
    const text = random.basis!.map((b) => random.ids.map((id) => (b.includes(id) ? '1' : '0')).join('')).join('\n');
    writeFileSync(join(dir, 'random77.mat'), `${text}\n`);
    const peers = peersDir();
    const only = process.env.KSTBENCH_BASES?.split(',');
    const bases = [...REAL_BASES, 'random77'].filter((b) => !only || only.includes(b));
    const r = peers && hasR() ? runR(peers, dir, bases) : undefined;
    if (!r) {
      print(`kstMatrix's kmunionclosure: not run (${peers ? 'Rscript is not on PATH' : 'no ../shared/peers/kstMatrix; set KSTBENCH_PEERS'}); kstbench's times only, on the random basis`);
    }
    print(`union closure, median of ${RUNS} runs, wall clock / CPU (user + system); ratio = R ÷ kstbench (goal ≥ 20×); load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    const runs = (r ? bases : ['random77']).map((name) => ({ name, k: runKstbench(dir, name), km: r?.get(name) }));
    const cell = (t: Times, against: Times | undefined): string =>
      against ? `${fmt(t.wall)} / ${fmt(t.cpu)} (${(against.wall / t.wall).toFixed(1)}× / ${(against.cpu / t.cpu).toFixed(1)}×)` : `${fmt(t.wall)} / ${fmt(t.cpu)}`;
    print('1. kmunionclosure inside one R session (R start-up, package load and reading not counted) against kstbench:');
    print('| base | states | kmunionclosure in R | library walk | CLI --count (whole process) | CLI --format srbt --out (whole process) |');
    print('|---|---|---|---|---|---|');
    for (const { name, k, km } of runs) {
      if (km && km.states !== k.states) throw new Error(`${name}: kmunionclosure has ${km.states} states, kstbench ${k.states}`);
      print(`| ${name} | ${k.states.toLocaleString('en-US')} | ${km ? `${fmt(km.wall)} / ${fmt(km.cpu)}` : '—'} | ${cell(k.walk, km)} | ${cell(k.count, km)} | ${cell(k.srbt, km)} |`);
    }
    const floor = startupFloor(dir);
    print(
      `CLI floor (every CLI cell includes it): node -e 0 ${fmt(floor.node.wall)} / ${fmt(floor.node.cpu)}; kstbench space --count on a one-item domain ${fmt(floor.cli.wall)} / ${fmt(floor.cli.cpu)}`,
    );
    if (!r) return;
    print('2. whole processes: Rscript (start R, load kstMatrix, read the basis, kmunionclosure) against the kstbench process:');
    print('| base | Rscript process | kstbench space --count | kstbench space --format srbt --out |');
    print('|---|---|---|---|');
    for (const { name, k, km } of runs) print(`| ${name} | ${fmt(km!.process.wall)} / ${fmt(km!.process.cpu)} | ${cell(k.count, km!.process)} | ${cell(k.srbt, km!.process)} |`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
