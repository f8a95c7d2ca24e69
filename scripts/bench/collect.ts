import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectKst, type CollectParams } from '../../lib/collect/collect';

const ROOT = join(__dirname, '..', '..', '..');

/**
 * Collector throughput against the fake LLM server (test/support/fake-llm-server-main.ts, run as its own
 * process through tsx): every call answers after a fixed latency L, so with concurrency C the ideal
 * rate is C / L calls per second. The engine's overhead (two fsync'ed appends per cell, prompt
 * building, validation) shows as the shortfall from that ideal; the goal is ≥ 90 %. A second run into
 * the same directory must make zero requests (resume).
 */
async function startServer(latencyMs: number, recordFile: string): Promise<{ url: string; proc: ChildProcess }> {
  const answer = JSON.stringify({ recommendations: [{ position: 1, justification: 'bench' }], no_recommendation_reason: null });
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'test', 'support', 'fake-llm-server-main.ts'), '--plan', JSON.stringify({ kind: 'slow', delayMs: latencyMs, content: answer }), '--record', recordFile],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let buf = '';
    proc.stdout.on('data', (d) => {
      buf += String(d);
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve(buf.slice(0, nl).trim());
    });
    proc.on('exit', (code) => reject(new Error(`fake server exited with ${code}`)));
  });
  return { url, proc };
}

function requestCount(recordFile: string): number {
  if (!existsSync(recordFile)) return 0;
  return readFileSync(recordFile, 'utf8').split('\n').filter((l) => l.includes('/chat/completions')).length;
}

export async function benchCollect(print: (line: string) => void): Promise<void> {
  const domainsDir = join(ROOT, 'data', 'raw', 'domains');
  const settings: Array<{ latencyMs: number; concurrency: number }> = [
    { latencyMs: 50, concurrency: 4 },
    { latencyMs: 250, concurrency: 8 },
    { latencyMs: 50, concurrency: 16 }, // deliberately past saturation: shows the CPU-bound ceiling
  ];
  for (const { latencyMs, concurrency } of settings) {
    const work = mkdtempSync(join(tmpdir(), 'kstbench-bench-collect-'));
    const record = join(work, 'requests.jsonl');
    const { url, proc } = await startServer(latencyMs, record);
    try {
      const params: CollectParams = {
        domainsDir,
        models: ['openai-compatible:bench-model'],
        outDir: join(work, 'out'),
        conditions: ['P0', 'P2', 'P3'],
        orders: 2,
        concurrency,
        baseUrl: `${url}/v1`,
        maxOutputTokens: 16000,
        timeoutMs: 30_000,
        maxRetries: 0,
        seed: '1',
      };
      const env = { OPENAI_COMPATIBLE_API_KEY: 'bench-key' };
      const t0 = performance.now();
      const first = await collectKst(params, { env });
      const seconds = (performance.now() - t0) / 1000;
      const calls = requestCount(record);
      const rate = first.total / seconds;
      const ideal = (concurrency * 1000) / latencyMs;
      print(
        `L=${latencyMs} ms C=${concurrency}: ${first.total} cells in ${seconds.toFixed(2)} s = ${rate.toFixed(1)} calls/s; ideal C/L = ${ideal.toFixed(0)}/s → ${((100 * rate) / ideal).toFixed(1)} % (${calls} requests, status ${first.status})`,
      );
      const second = await collectKst(params, { env });
      print(`  resume of the completed run: ${requestCount(record) - calls} requests, ${second.resumed} cells skipped, status ${second.status}`);
    } finally {
      proc.kill('SIGTERM');
      rmSync(work, { recursive: true, force: true });
    }
  }
}
