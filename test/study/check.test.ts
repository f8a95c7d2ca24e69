// Bad input stops `study check` and `study run` before anything is spent: one line naming the file and
// the field, exit 1, nothing written or overwritten. Each case is checked through the real CLI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { kstbench, tempDir } from '../support/cli';
import { loadStudy } from '../../lib/study/manifest';
import { checkStudy, formatCheck } from '../../lib/study/check';
import { collectStudy } from '../../lib/study/collect';
import { readCompleted } from '../../lib/collect/store';
import { answerPosition1, okResult, providerError, stubProvider, writeFreeDomain } from '../collect/helpers';
import { writeCurriculum } from './helpers';

/** Every file under dir with its size and mtime, to prove nothing was written. */
function snapshot(dir: string): string[] {
  const walk = (d: string): string[] =>
    readdirSync(d).flatMap((n) => {
      const p = join(d, n);
      const s = statSync(p);
      return s.isDirectory() ? walk(p) : [`${relative(dir, p)} ${s.size} ${s.mtimeMs}`];
    });
  return walk(dir).sort();
}

function studyWith(manifest: Record<string, unknown>, extra: (dir: string) => void = () => {}): string {
  const dir = tempDir('kstbench-study-check-');
  writeCurriculum(join(dir, 'fractions.json'));
  extra(dir);
  writeFileSync(join(dir, 'study.json'), JSON.stringify({ manifest_version: 1, title: 'T', domains: ['fractions.json'], models: ['simulated:sim-a'], ...manifest }));
  return dir;
}

function refuses(dir: string, pattern: RegExp, env: NodeJS.ProcessEnv = {}): void {
  for (const sub of ['check', 'run']) {
    const before = snapshot(dir);
    const r = kstbench(['study', sub, dir], { env });
    assert.equal(r.code, 1, `${sub}: exit ${r.code}\n${r.stderr}`);
    const lines = r.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, `${sub}: one line, got:\n${r.stderr}`);
    assert.match(lines[0]!, pattern);
    assert.doesNotMatch(r.stderr, /internal error|at \w+ \(/);
    assert.deepEqual(snapshot(dir), before, `${sub}: nothing written`);
  }
}

test('the good study passes the check, which counts cells and prices them', () => {
  const dir = studyWith({ models: ['simulated:sim-a', 'openai:gpt-5-mini'] });
  const study = loadStudy(dir);
  const c = checkStudy(study, { OPENAI_API_KEY: 'sk-test-not-a-key' });
  assert.equal(c.cellsPerModel, 9 * 4 * 2);
  assert.equal(c.cells, 144);
  const line = c.cost!.models.find((m) => m.model === 'openai:gpt-5-mini')!;
  assert.equal(line.calls, 72);
  assert.ok(line.costUsd !== null && line.costUsd > 0, 'the catalogue prices the model');
  assert.match(formatCheck(study, c), /openai:gpt-5-mini\s+catalogue openai:gpt-5-mini\s+72 calls/);
  // Calls and tokens are known before anything is spent: the tokens the estimate is made of are printed.
  assert.ok(line.inputTokens > 0 && line.outputTokensAssumed > 0);
  const text = formatCheck(study, c);
  assert.match(text, new RegExp(`72 calls +${line.inputTokens} in +${line.outputTokensAssumed} out +\\$`));
  assert.ok(text.includes(`  tokens: ${c.cost!.inputTokens} input (prompt characters / 4), ${c.cost!.outputTokensAssumed} output`), text);
});

test('an unknown model', () => {
  refuses(studyWith({ models: ['simulated:sim-a', 'openai:gpt-nonexistent-9'] }), /study\.json: models\[1\]: openai:gpt-nonexistent-9 is not in the model catalogue \(config\/models\.json\)/);
  refuses(studyWith({ models: ['simulated:sim-zz'] }), /study\.json: models\[0\]: simulated:sim-zz: no such simulated profile/);
});

test('a domain with a cycle', () => {
  const dir = studyWith({ domains: ['fractions.json', 'loop.json'] }, (d) =>
    writeFileSync(join(d, 'loop.json'), JSON.stringify({ id: 'loop', title: 'Loop', source: 't', components: [{ id: 'A', description: 'a' }, { id: 'B', description: 'b' }], prerequisites: [['A', 'B'], ['B', 'A']] })),
  );
  refuses(dir, /loop\.json: .*cycle.*A -> B -> A|loop\.json: .*cycle/);
});

test('a missing key', () => {
  const env = { OPENAI_API_KEY: '' };
  refuses(studyWith({ models: ['openai:gpt-5-mini'] }), /study\.json: models\[0\]: openai:gpt-5-mini needs an API key: set the environment variable OPENAI_API_KEY/, env);
});

test('a design with zero cells', () => {
  refuses(studyWith({ design: { conditions: [] } }), /study\.json: design\.conditions: empty, so the design has no cell/);
});

test('a design too big to build: every state of a 1.7-million-state domain (it ran out of memory after 89 s), or P3 on a sampled 65,536-state one', () => {
  const wide = (n: number) => (d: string) => writeFreeDomain(d, 'wide', n);
  refuses(studyWith({ domains: ['wide.json'], design: { conditions: ['P0', 'P1'] } }, wide(21)), /study\.json: design\.states: 2097152 states × 2 condition\(s\) × 2 order\(s\) × 1 model\(s\) = 8388608 cells, over the 2000000 a collection holds in memory; sample the states: "states": \{"sample": N, "seed": S\} in design \(study init --sample N\)$/);
  refuses(studyWith({ domains: ['wide.json'], design: { states: { sample: 20, seed: 1 } } }, wide(16)), /study\.json: design\.conditions: P3 lists every knowledge state in its prompt, and domain "wide" has 65536 /);
});

test('a prompt longer than a model\'s context window is refused before anything is priced as spendable, naming the model, the cell and what to change', () => {
  // fractions' longest prompt is about 660 tokens; a context window of 500 (models_file) is too small,
  // the catalogue's window of gpt-5-mini is not (the good study above passes), nor one of 2,000.
  const env = { OPENAI_API_KEY: 'sk-test-not-a-key' };
  const dir = studyWith({ models: ['openai:gpt-5-mini'], models_file: 'models.json' }, (d) =>
    writeFileSync(join(d, 'models.json'), JSON.stringify({ models: [{ spec: 'openai:gpt-5-mini', context_window: 500 }] })),
  );
  refuses(dir, /study\.json: models\[0\]: openai:gpt-5-mini: the longest prompt of the design, cell fractions\.P[0-3]\.o[12]\.[0-9a-f]{12}, is about \d+ tokens \(prompt characters \/ 4\), over the model's context window of 500 \(models_file, else config\/models\.json\); leave out the condition or domain it comes from \(design\.conditions, domains\), or use a model with a larger window$/, env);
  // A window of 2,000 takes every prompt.
  writeFileSync(join(dir, 'models.json'), JSON.stringify({ models: [{ spec: 'openai:gpt-5-mini', context_window: 2000 }] }));
  assert.equal(checkStudy(loadStudy(dir), env).cellsPerModel, 9 * 4 * 2);
});

test('a manifest field of the wrong type', () => {
  refuses(studyWith({ design: { orders: 'two' } }), /study\.json: design\.orders: /);
  refuses(studyWith({ domains: 'fractions.json' }), /study\.json: domains: /);
});

test('an import row naming a state that is not a state', () => {
  const dir = studyWith({ models: [], responses: { file: 'responses.csv' } }, (d) =>
    writeFileSync(join(d, 'responses.csv'), 'model,domain,state,condition,order,recommended\nm1,fractions,F1,P0,1,F2\nm1,fractions,F1 F4,P0,1,F2\n'),
  );
  refuses(dir, /responses\.csv:3: state \["F1","F4"\] /);
  assert.equal(readFileSync(join(dir, 'responses.csv'), 'utf8').split('\n').length, 4, 'the table itself is untouched');
});

test('cells recorded missing: the estimate counts them collected, and the check says what --retry-missing would request and cost', async () => {
  const dir = studyWith({ models: ['openai:gpt-5-mini'], design: { conditions: ['P0'], orders: 1, max_retries: 0 } });
  const study = loadStudy(dir);
  const env = { OPENAI_API_KEY: 'sk-test-not-a-key' };
  const failing = stubProvider('openai:gpt-5-mini', (req) => {
    if (req.runId.charCodeAt(req.runId.length - 1) % 2 === 0) throw providerError('server_error', 'openai HTTP 500', { httpStatus: 500 });
    return okResult(answerPosition1(req));
  });
  await collectStudy(study, { createProvider: () => failing, env, sleep: async () => {} });
  const records = [...readCompleted(join(dir, 'collection', 'responses.jsonl')).values()];
  const missing = records.filter((r) => r.status === 'missing').length;
  assert.ok(missing > 0 && missing < records.length, `${missing} of ${records.length} missing`);
  const c = checkStudy(study, env);
  assert.equal(c.cost!.calls, 0);
  assert.equal(c.retryMissing!.calls, missing);
  assert.ok(c.retryMissing!.costUsd! > 0);
  assert.ok(formatCheck(study, c).includes(`  missing: ${missing} collected cell(s) ended without an answer; 'kstbench study collect ${dir} --retry-missing' requests them again: ${missing} calls in all`));
  // Nothing missing, nothing said.
  const clean = loadStudy(studyWith({ models: ['openai:gpt-5-mini'] }));
  const none = checkStudy(clean, env);
  assert.equal(none.retryMissing, null);
  assert.doesNotMatch(formatCheck(clean, none), /missing:/);
});
