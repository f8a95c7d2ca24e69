import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCompleted } from '../../lib/collect/store';
import { collectStudy, prepareCollectorInputs, studyCutOffFix, studyOtherDesignFix } from '../../lib/study/collect';
import { loadStudy } from '../../lib/study/manifest';
import { answerSchemaOf, startFakeLlmServer } from '../support/fake-llm-server';
import { ROOT, tempDir } from '../support/files';
import { answerPosition1, okResult, stubProvider } from '../collect/helpers';
import { writeCurriculum } from './helpers';

test('the collector gets a built domain folder and the seeded state sample; a re-run resumes', async () => {
  const dir = tempDir('kstbench-study-collect-');
  writeCurriculum(join(dir, 'fractions.json'));
  writeFileSync(join(dir, 'study.json'), JSON.stringify({ manifest_version: 1, title: 'T', domains: ['fractions.json'], models: ['simulated:sim-a'], design: { states: { sample: 4, seed: 1 }, conditions: ['P0'], orders: 1 } }));
  const s = loadStudy(dir);
  const { domainsDir, statesFile } = prepareCollectorInputs(s);
  assert.ok(existsSync(join(domainsDir, 'fractions.json')));
  const sample = JSON.parse(readFileSync(statesFile!, 'utf8'));
  assert.equal(sample[0].domain, 'fractions');
  const first = await collectStudy(s);
  assert.equal(first.kind, 'collected');
  const n = sample[0].states.length;
  if (first.kind === 'collected') assert.equal(first.outcome.total, n);
  const again = await collectStudy(s);
  if (again.kind === 'collected') assert.equal(again.outcome.resumed, n);
});

test('a collection folder holding another design is refused with the study\'s fix (a study has no --out)', async () => {
  const dir = tempDir('kstbench-study-collect-');
  writeCurriculum(join(dir, 'fractions.json'));
  const manifest = { manifest_version: 1, title: 'T', domains: ['fractions.json'], models: ['simulated:sim-a'], design: { states: { sample: 4, seed: 1 }, conditions: ['P0'], orders: 1 } };
  writeFileSync(join(dir, 'study.json'), JSON.stringify(manifest));
  await collectStudy(loadStudy(dir));
  writeFileSync(join(dir, 'study.json'), JSON.stringify({ ...manifest, design: { ...manifest.design, orders: 2 } }));
  const changed = loadStudy(dir);
  await assert.rejects(collectStudy(changed), (err: Error) => {
    assert.match(err.message, /another design \(orders: 1 → 2\); resume with the same parameters or undo the change to .*study\.json's design, or move .*collection aside/);
    assert.doesNotMatch(err.message, /--out/);
    return true;
  });
  assert.equal(studyOtherDesignFix(changed), `undo the change to ${changed.file}'s design, or move ${changed.paths.collection} aside to collect the changed design afresh`);
});

/** Runs the built CLI without blocking this process (the fake server answers from it). */
function runCli(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'kstbench.js'), ...args], {
    cwd: ROOT,
    env: { ...process.env, OPENAI_API_KEY: '', OPENAI_COMPATIBLE_API_KEY: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += String(d)));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

test('study collect/run --retry-missing: a collection whose every call failed stays failed on re-run, and the printed command asks for the missing cells again', async () => {
  let failing = true;
  const server = await startFakeLlmServer({
    handler: (call) => (failing ? { kind: 'server_error' } : { kind: 'json', content: answerPosition1({ schemaName: answerSchemaOf(call).name ?? '' }) }),
  });
  try {
    const dir = tempDir('kstbench-study-retry-');
    writeCurriculum(join(dir, 'fractions.json'));
    const manifest = { manifest_version: 1, title: 'T', domains: ['fractions.json'], models: [`openai-compatible:fake-model@${server.openaiBaseUrl}`], design: { states: 'all', conditions: ['P0'], orders: 1, max_retries: 0, concurrency: 1 } }; // 9 cells
    writeFileSync(join(dir, 'study.json'), JSON.stringify(manifest));
    const retry = `kstbench study collect ${dir} --retry-missing`;
    const first = await runCli(['study', 'collect', dir]);
    assert.equal(first.code, 4, first.stderr);
    assert.match(first.stderr, /FAILED: every one of the 9 cells finished by this run is missing/);
    assert.ok(first.stderr.includes(`request the missing cells again with:\n  ${retry}\n`), first.stderr);
    // A plain re-run requests nothing and still says failed (not incomplete), with the same command.
    const calls = server.calls;
    const again = await runCli(['study', 'run', dir]);
    assert.equal(server.calls, calls);
    assert.equal(again.code, 4, again.stderr);
    assert.match(again.stderr, /FAILED: every one of the 9 cells is missing \(no call has succeeded yet\)/);
    assert.ok(again.stderr.includes(retry), again.stderr);
    assert.equal(JSON.parse(readFileSync(join(dir, 'collection', 'run.json'), 'utf8')).status, 'failed');
    // The printed command is accepted and requests exactly the missing cells.
    failing = false;
    const healed = await runCli(['study', 'collect', dir, '--retry-missing']);
    assert.equal(healed.code, 0, healed.stderr);
    assert.equal(server.calls, calls + 9);
    const winners = [...readCompleted(join(dir, 'collection', 'responses.jsonl')).values()];
    assert.equal(winners.length, 9);
    assert.ok(winners.every((w) => w.status === 'valid' && w.supersedes_missing === true));
  } finally {
    await server.close();
  }
});

test('a pre-flight answer still cut off stops the study naming study.json\'s field and the study\'s fix (a study has no --max-output-tokens, --out or --no-preflight)', async () => {
  const dir = tempDir('kstbench-study-cut-off-');
  writeCurriculum(join(dir, 'fractions.json'));
  const manifest = { manifest_version: 1, title: 'T', domains: ['fractions.json'], models: ['openai:gpt-4o'], design: { states: { sample: 2, seed: 1 }, conditions: ['P0'], orders: 1, max_output_tokens: 4000 } };
  writeFileSync(join(dir, 'study.json'), JSON.stringify(manifest));
  const cutOff = stubProvider('openai:gpt-4o', () => ({ ...okResult('{"recommendations": ['), finishReason: 'length' }));
  const s = loadStudy(dir);
  const result = await collectStudy(s, { createProvider: () => cutOff, env: { OPENAI_API_KEY: 'sk-test' } });
  assert.equal(result.kind, 'collected');
  const outcome = result.kind === 'collected' ? result.outcome : undefined;
  assert.equal(outcome?.status, 'failed');
  assert.match(outcome?.reason ?? '', /pre-flight: the answer was cut off by the output limit/);
  assert.equal(outcome?.remedy, `raise design.max_output_tokens in ${s.file} (or lower the model's reasoning effort in a models_file), then move ${s.paths.collection} aside to collect afresh, since the allowance is part of the design`);
  assert.doesNotMatch(outcome?.remedy ?? '', /--/);
  writeFileSync(join(dir, 'models.json'), JSON.stringify({ models: [{ spec: 'openai:gpt-4o' }] }));
  writeFileSync(join(dir, 'study.json'), JSON.stringify({ ...manifest, models: [], models_file: 'models.json' }));
  const withFile = loadStudy(dir);
  assert.equal(studyCutOffFix(withFile), `raise design.max_output_tokens in ${withFile.file} (or max_output_tokens for this model in ${join(dir, 'models.json')}), or lower its reasoning effort there, then move ${withFile.paths.collection} aside to collect afresh, since the allowance is part of the design`);
});
