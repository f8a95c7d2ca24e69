import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

/** CPU seconds (user + system) of the waited-for children of this process, from /proc (Linux); null elsewhere. */
function childrenCpuSeconds(): number | null {
  try {
    // /proc/self/stat: fields 16 and 17 (cutime, cstime) in clock ticks; the name field may hold spaces, so split after ')'.
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

/**
 * `kstbench study run` and `study plan` on the issue-16 design: a 20-item domain (four chains of five
 * tasks: 6^4 = 1,296 knowledge states), 200 sampled states (225 seeded draws with seed 1 are 200
 * distinct states; the sampler draws with replacement and the collector asks each distinct state once),
 * 4 conditions, 3 simulated models, 2 orders (4,800 cells); then the planner with 1,000 simulated studies per
 * candidate design. Wall and CPU times of the real CLI, start-up included, with each step of `study run`
 * from its progress lines. Goals: run < 60 s, plan < 30 s.
 */
export async function benchStudy(print: (line: string) => void): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-bench-study-'));
  try {
    const components = Array.from({ length: 20 }, (_, i) => ({ id: `T${i + 1}`, description: `Task ${i + 1} of the benchmark curriculum.` }));
    // Not many more states: P3 prompts list every state (a 3^10-state domain makes each prompt ~1 MB).
    const prerequisites = Array.from({ length: 4 }, (_, c) => Array.from({ length: 4 }, (_, k) => [`T${c * 5 + k + 1}`, `T${c * 5 + k + 2}`])).flat();
    writeFileSync(join(dir, 'bench.json'), JSON.stringify({ id: 'bench', title: 'Bench', source: 'synthetic', components, prerequisites }));
    writeFileSync(
      join(dir, 'study.json'),
      JSON.stringify({
        manifest_version: 1,
        title: 'Bench study',
        domains: ['bench.json'],
        models: ['simulated:sim-a', 'simulated:sim-b', 'simulated:sim-c'],
        design: { states: { sample: 225, seed: 1 }, orders: 2 },
      }),
    );
    const time = (args: string[]) => {
      const t = Date.now();
      const cpu0 = childrenCpuSeconds();
      const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'kstbench.js'), ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 });
      if (r.status !== 0) throw new Error(`kstbench ${args.join(' ')} failed: ${r.stderr}`);
      const cpu1 = childrenCpuSeconds();
      const cpu = cpu0 === null || cpu1 === null ? 'CPU unknown' : `${(cpu1 - cpu0).toFixed(1)} s CPU`;
      return { seconds: (Date.now() - t) / 1000, cpu, stdout: r.stdout, stderr: r.stderr };
    };
    const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
    print(`load average before: ${load()}`);
    const run = time(['study', 'run', dir]);
    const cells = /complete: (\d+) cells/.exec(run.stderr)?.[1] ?? '?';
    // The step lines say when each step started: "step 2/4 analyze (12.3 s)", "done in 40.1 s".
    const marks = [...run.stderr.matchAll(/step \d\/4 (\w+) \(([\d.]+) s\)/g)].map((m) => [m[1]!, Number(m[2])] as const);
    const done = Number(/done in ([\d.]+) s/.exec(run.stderr)?.[1] ?? Number.NaN);
    const steps = marks.map(([name, at], i) => `${name} ${((marks[i + 1]?.[1] ?? done) - at).toFixed(1)} s`).join(', ');
    print(`study run: ${cells} cells (20 items, 200 sampled states, 4 conditions, 3 simulated models, 2 orders): ${run.seconds.toFixed(1)} s wall, ${run.cpu} (goal < 60 s); steps: ${steps}`);
    print(`load average after run: ${load()}`);
    const plan = time(['study', 'plan', dir, '--studies', '1000', '--states', '50,100,200', '--repeats', '1,2']);
    const designs = plan.stdout.split('\n').filter((l) => /^\s+\d+\s+\d+\s+\d+/.test(l)).length;
    print(`study plan: 1,000 simulated studies per design, ${designs} designs: ${plan.seconds.toFixed(1)} s wall, ${plan.cpu} (goal < 30 s)`);
    print(`load average after plan: ${load()}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
