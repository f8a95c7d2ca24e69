import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

/**
 * `kstbench study run` and `study plan` on the issue-16 design: a 20-item domain (four chains of five
 * tasks), 200 seeded state draws (the distinct states among them are collected), 4 conditions, 3 simulated models, 2 orders
 * (4,800 cells); then the planner with 1,000 simulated studies per candidate design. Wall times of the
 * real CLI, start-up included. Goals: run < 60 s, plan < 30 s.
 */
export async function benchStudy(print: (line: string) => void): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-bench-study-'));
  try {
    const components = Array.from({ length: 20 }, (_, i) => ({ id: `T${i + 1}`, description: `Task ${i + 1} of the benchmark curriculum.` }));
    // Four chains of five tasks: 6^4 = 1,296 knowledge states, so 200 draws are mostly distinct states.
    const prerequisites = Array.from({ length: 4 }, (_, c) => Array.from({ length: 4 }, (_, k) => [`T${c * 5 + k + 1}`, `T${c * 5 + k + 2}`])).flat();
    writeFileSync(join(dir, 'bench.json'), JSON.stringify({ id: 'bench', title: 'Bench', source: 'synthetic', components, prerequisites }));
    writeFileSync(
      join(dir, 'study.json'),
      JSON.stringify({
        manifest_version: 1,
        title: 'Bench study',
        domains: ['bench.json'],
        models: ['simulated:sim-a', 'simulated:sim-b', 'simulated:sim-c'],
        design: { states: { sample: 200, seed: 1 }, orders: 2 },
      }),
    );
    const time = (args: string[]) => {
      const t = Date.now();
      const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'kstbench.js'), ...args], { cwd: ROOT, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`kstbench ${args.join(' ')} failed: ${r.stderr}`);
      return { seconds: (Date.now() - t) / 1000, stdout: r.stdout, stderr: r.stderr };
    };
    const run = time(['study', 'run', dir]);
    const cells = /complete: (\d+) cells/.exec(run.stderr)?.[1] ?? '?';
    print(`study run: ${cells} cells (20 items, sampled states, 4 conditions, 3 simulated models, 2 orders): ${run.seconds.toFixed(1)} s (goal < 60 s)`);
    const plan = time(['study', 'plan', dir, '--studies', '1000', '--states', '50,100,200', '--repeats', '1,2']);
    print(`study plan: 1,000 simulated studies per design, ${plan.stdout.split('\n').filter((l) => /^\s+\d+\s+\d+\s+\d+/.test(l)).length} designs: ${plan.seconds.toFixed(1)} s (goal < 30 s)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
