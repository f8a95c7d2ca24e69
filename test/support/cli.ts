import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './files';

export { ROOT, readCsv, tempDir } from './files';

/** Runs the built CLI (`bin/kstbench.js`, requires `npm run build`) and captures its output. */
export function kstbench(args: string[], options: { env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {}) {
  const result = spawnSync(process.execPath, [join(ROOT, 'bin', 'kstbench.js'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...options.env },
    input: options.input,
    timeout: options.timeoutMs,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** User + system CPU time of a process in clock ticks (1/100 s), from /proc (0 once it is gone). */
export function cpuTicks(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}
