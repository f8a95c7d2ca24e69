import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import seedrandom from 'seedrandom';
import { CONDITIONS } from '../../lib/conditions';
import { enumerateStates, loadDomainDir, outerFringe } from '../../lib/kst';

const ROOT = join(__dirname, '..', '..', '..');

/**
 * Writes a synthetic responses file over the shipped study domains: every state × condition × model ×
 * 2 orders, each response the reference fringe with one component dropped or added at a seeded rate.
 * Only its size matters to the benchmark; it is not a data set.
 */
function syntheticResponses(file: string, models: number, seed: string): number {
  const domains = loadDomainDir(join(ROOT, 'data', 'raw', 'domains'));
  const rng = seedrandom(seed);
  const lines: string[] = [];
  for (let m = 0; m < models; m++) {
    for (const d of domains) {
      for (const state of enumerateStates(d)) {
        const fringe = outerFringe(d, state);
        for (const condition of CONDITIONS) {
          for (const order of [1, 2]) {
            let recommended = fringe;
            const u = rng();
            if (u < 0.2 && fringe.length > 0) recommended = fringe.slice(1);
            const status = u > 0.99 ? 'invalid' : 'valid';
            lines.push(JSON.stringify({ run_id: `b${lines.length}`, model: `m${m}`, domain: d.id, condition, order, state, recommended, status }));
          }
        }
      }
    }
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
  return lines.length;
}

function timeAnalyze(responses: string, out: string): number {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'kstbench.js'), 'analyze', '--domains', join(ROOT, 'data', 'raw', 'domains'), '--responses', responses, '--out', out], { encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`analyze failed: ${r.stderr}`);
  return ms;
}

export async function benchAnalyze(print: (line: string) => void): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-bench-'));
  try {
    for (const models of [6, 600]) {
      const file = join(dir, `responses-${models}.jsonl`);
      const n = syntheticResponses(file, models, 'bench');
      const runs = [0, 1, 2].map(() => timeAnalyze(file, join(dir, `out-${models}`)));
      runs.sort((a, b) => a - b);
      print(`analyze (CLI process, 10,000 resamples, 100,000 flips) on ${n.toLocaleString('en-US')} responses: median ${runs[1]!.toFixed(0)} ms (min ${runs[0]!.toFixed(0)}, max ${runs[2]!.toFixed(0)})`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
