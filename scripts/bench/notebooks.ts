/**
 * Overhead of the headless notebook runner: wall time of executing a notebook with
 * `dist/scripts/reproduce.js` (tslab's converter type-checks and compiles every cell) against the same
 * code cells concatenated into one plain TypeScript module run with `node --import tsx` — each in a
 * fresh process, best of 3. Goal: ≤ 1.5×. Uses the real notebooks in notebooks/ when there are any,
 * else the test fixture. Part of `npm run bench`; needs `npm run build` (npm run bench does it).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { cellSource, readNotebook } from '../../lib/notebook/ipynb';
import { projectRoot } from '../../lib/notebook/project';

function wallSeconds(args: string[], cwd: string): { seconds: number; ok: boolean; stderr: string } {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', timeout: 600_000 });
  return { seconds: Number(process.hrtime.bigint() - t0) / 1e9, ok: r.status === 0, stderr: r.stderr };
}

function best(runs: number, f: () => { seconds: number; ok: boolean; stderr: string }) {
  let bestRun: { seconds: number; ok: boolean; stderr: string } | undefined;
  for (let i = 0; i < runs; i++) {
    const r = f();
    if (!r.ok) return r;
    if (!bestRun || r.seconds < bestRun.seconds) bestRun = r;
  }
  return bestRun!;
}

/**
 * The notebook's code cells as one ES module (top-level await allowed), written next to the notebook
 * so its relative imports resolve the same way. Cells that re-declare a name (tslab allows it) make
 * this fail; such a notebook is reported, not measured.
 */
function plainScript(file: string): string {
  const nb = readNotebook(file);
  const body = nb.cells
    .filter((c) => c.cell_type === 'code')
    .map((c) => cellSource(c))
    .join('\n;\n');
  const script = join(dirname(file), `.tmp-bench-${basename(file, '.ipynb')}.mts`);
  writeFileSync(script, `${body}\n`);
  return script;
}

export async function benchNotebooks(print: (line: string) => void): Promise<void> {
  const root = projectRoot();
  const reproduce = join(root, 'dist', 'scripts', 'reproduce.js');
  if (!existsSync(reproduce)) {
    print('dist/scripts/reproduce.js missing: run npm run build');
    return;
  }
  const real = join(root, 'notebooks');
  const realFiles = existsSync(real) ? readdirSync(real).filter((n) => n.endsWith('.ipynb')).sort() : [];
  const dir = realFiles.length > 0 ? real : join(root, 'test', 'fixtures', 'notebooks');
  const files = realFiles.length > 0 ? realFiles : ['01-fixture.ipynb'];
  print(`notebooks from ${dir === real ? 'notebooks/' : 'the test fixture'}; each number is the best of 3 fresh processes`);
  const out = mkdtempSync(join(tmpdir(), 'kstbench-bench-nb-'));
  try {
    for (const name of files) {
      const file = join(dir, name);
      const notebook = best(3, () =>
        wallSeconds([reproduce, '--notebooks-dir', dir, '--output-dir', out, '--no-environment', name], root),
      );
      if (!notebook.ok) {
        print(`${name}: runner failed: ${notebook.stderr.split('\n')[0]}`);
        continue;
      }
      const script = plainScript(file);
      try {
        const plain = best(3, () => wallSeconds(['--import', 'tsx', basename(script)], dir));
        if (!plain.ok) {
          print(`${name}: runner ${notebook.seconds.toFixed(2)} s; as a plain script it does not run (${plain.stderr.split('\n').find((l) => /Error/.test(l)) ?? 'error'})`);
          continue;
        }
        const ratio = notebook.seconds / plain.seconds;
        print(
          `${name}: runner ${notebook.seconds.toFixed(2)} s, plain script ${plain.seconds.toFixed(2)} s → ${ratio.toFixed(2)}× (goal ≤ 1.5×${ratio <= 1.5 ? ', met' : ', NOT met'})`,
        );
      } finally {
        rmSync(script, { force: true });
      }
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
