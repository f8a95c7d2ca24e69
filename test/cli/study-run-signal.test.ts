/**
 * `kstbench study run`: a SIGINT that reaches the collector's graceful stop in its last moments (every
 * cell already collected, the summary being printed) still ends the run after the collect step, exit
 * 130. It used to be spent on the finished collection: the analysis, figures and report went on and
 * the run said "done", exit 0 (seen once in nine SIGINTs of a real `study run`, 3–5 s in).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { collect, run } from '../../cli/commands/study-steps';
import { fractionsStudy } from '../study/helpers';

/** Runs `f` with stderr captured; a SIGINT is emitted when the collector prints its summary line. */
async function withLateSigint(f: () => Promise<number>): Promise<{ code: number; stderr: string }> {
  const write = process.stderr.write;
  let stderr = '';
  process.stderr.write = ((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    if (/study collect: complete:/.test(String(chunk))) process.emit('SIGINT', 'SIGINT');
    return true;
  }) as typeof process.stderr.write;
  try {
    return { code: await f(), stderr };
  } finally {
    process.stderr.write = write;
  }
}

const design = { models: ['simulated:sim-a'], design: { conditions: ['P0'], orders: 1 } };

test('study run: a SIGINT as the collection completes stops before the analysis, exit 130, saying how to resume', async () => {
  const study = fractionsStudy('kstbench-run-signal-', design);
  const r = await withLateSigint(() => run.run([study.dir]));
  assert.equal(r.code, 130, r.stderr);
  assert.match(r.stderr, /study collect: SIGINT received/);
  assert.ok(r.stderr.endsWith(`kstbench study: interrupted after the collection completed: stopped before the analysis, figures and report; resume with: kstbench study run ${study.dir}\n`), r.stderr);
  assert.equal(existsSync(join(study.dir, 'output', 'analysis')), false, 'no analysis was started');
  assert.ok(existsSync(join(study.dir, 'collection', 'extracted.jsonl')), 'the collection is complete and kept');
});

test('the control: study collect alone under the same late SIGINT has done its whole job and exits 0', async () => {
  const study = fractionsStudy('kstbench-run-signal-', design);
  const r = await withLateSigint(() => collect.run([study.dir]));
  assert.match(r.stderr, /study collect: SIGINT received/, 'the signal did arrive');
  assert.equal(r.code, 0, r.stderr);
});
