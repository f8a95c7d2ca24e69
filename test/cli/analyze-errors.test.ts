import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { kstbench, tempDir, ROOT } from '../support/cli';

const domains = join(ROOT, 'test', 'fixtures', 'analyze', 'domains');
const good = { run_id: 'r1', model: 'm', domain: 'tiny', condition: 'P0', order: 1, state: ['A'], recommended: ['B', 'C'], status: 'valid' };

/** A responses file of `lines` in a new folder. */
function writeResponses(lines: string[]): string {
  const responses = join(tempDir(), 'responses.jsonl');
  writeFileSync(responses, lines.join('\n') + '\n');
  return responses;
}

function runWith(lines: string[]) {
  const responses = writeResponses(lines);
  const out = join(dirname(responses), 'out');
  const r = kstbench(['analyze', '--domains', domains, '--responses', responses, '--out', out, '--boot', '10', '--perm', '10']);
  return { ...r, out, responses };
}

const cases: Array<[string, string, RegExp]> = [
  ['not JSON', '{"run_id": "r2", ', /responses\.jsonl:2: not valid JSON/],
  ['missing field', JSON.stringify({ ...good, run_id: 'r2', model: undefined }), /responses\.jsonl:2: model/],
  ['unknown domain', JSON.stringify({ ...good, run_id: 'r2', domain: 'algebra' }), /responses\.jsonl:2: unknown domain "algebra"/],
  ['unknown component in state', JSON.stringify({ ...good, run_id: 'r2', state: ['Z'] }), /responses\.jsonl:2: state: unknown component "Z"/],
  ['unknown component recommended', JSON.stringify({ ...good, run_id: 'r2', recommended: ['Q'] }), /responses\.jsonl:2: recommended: unknown component "Q"/],
  ['unknown condition', JSON.stringify({ ...good, run_id: 'r2', condition: 'P9' }), /responses\.jsonl:2: condition/],
  ['state not closed', JSON.stringify({ ...good, run_id: 'r2', state: ['B'] }), /responses\.jsonl:2: state \["B"\].*A/],
  ['valid without recommended', JSON.stringify({ ...good, run_id: 'r2', recommended: undefined }), /responses\.jsonl:2: recommended: required/],
  ['duplicate run id', JSON.stringify({ ...good, order: 2 }), /responses\.jsonl:2: run_id "r1" already used on line 1/],
  ['bad status', JSON.stringify({ ...good, run_id: 'r2', status: 'ok' }), /responses\.jsonl:2: status/],
];

for (const [name, line, message] of cases) {
  test(`analyze rejects a bad line: ${name}`, () => {
    const r = runWith([JSON.stringify(good), line]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, message);
    assert.equal(existsSync(r.out), false, 'no output directory may be left behind');
  });
}

test('analyze refuses a responses file with invalid UTF-8, naming its line and byte offset, and writes nothing', () => {
  const lines = [good, { ...good, run_id: 'r2', order: 2 }, { ...good, run_id: 'r3', order: 3, model: 'mX' }].map((l) => JSON.stringify(l));
  const bytes = Buffer.from(lines.join('\n') + '\n');
  const at = bytes.lastIndexOf('mX'); // the X becomes 0xff: a byte UTF-8 never uses, on line 3
  bytes[at + 1] = 0xff;
  const responses = writeResponses([]);
  writeFileSync(responses, bytes);
  const out = join(dirname(responses), 'out');
  const r = kstbench(['analyze', '--domains', domains, '--responses', responses, '--out', out, '--boot', '10', '--perm', '10']);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, new RegExp(`responses\\.jsonl:3: invalid UTF-8 at byte offset ${at + 1} \\(0xff`));
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.equal(existsSync(out), false, 'no output directory may be left behind');
});

test('analyze: usage errors exit 2', () => {
  const r = kstbench(['analyze', '--domains', domains]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--responses/);
  assert.equal(kstbench(['analyze', '--bogus']).code, 2);
  assert.equal(kstbench(['analyze', '--domains', domains, '--responses', 'x', '--out', 'y', '--boot', 'ten']).code, 2);
});

test('analyze --help prints usage and exits 0', () => {
  const r = kstbench(['analyze', '--help']);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /table3\.csv/);
});

test('analyze: an unreadable responses file is exit 1 naming the file', () => {
  const dir = tempDir();
  const r = kstbench(['analyze', '--domains', domains, '--responses', join(dir, 'nope.jsonl'), '--out', join(dir, 'o')]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /nope\.jsonl: cannot read file/);
  assert.deepEqual(readdirSync(dir), []);
});

test('analyze: an empty responses file is exit 1, not a set of empty tables', () => {
  const r = runWith([]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /responses\.jsonl: no responses/);
  assert.equal(existsSync(r.out), false);
});

test('analyze: --out under a regular file is one line naming the path and the OS code, exit 1, no stack', () => {
  const dir = tempDir();
  const blocker = join(dir, 'a-file');
  writeFileSync(blocker, 'x');
  const responses = writeResponses([JSON.stringify(good)]);
  const again = kstbench(['analyze', '--domains', domains, '--responses', responses, '--out', join(blocker, 'out'), '--boot', '10', '--perm', '10']);
  assert.equal(again.code, 1, again.stderr);
  assert.equal(again.stderr, `kstbench analyze: cannot write ${join(blocker, 'out')}: ENOTDIR (a path component is a file, not a directory)\n`);
  assert.deepEqual(readdirSync(dir), ['a-file']);
});

test('analyze: --out inside /proc fails at once with ENOENT instead of hanging in mkdir', () => {
  // Node's recursive mkdir loops forever on /proc; the CLI must end, quickly and with the path named.
  const responses = writeResponses([JSON.stringify(good)]);
  const stuck = kstbench(['analyze', '--domains', domains, '--responses', responses, '--out', '/proc/kstbench-out', '--boot', '10', '--perm', '10'], { timeoutMs: 20_000 });
  assert.equal(stuck.code, 1, `exit ${stuck.code} (null means it was killed after 20 s): ${stuck.stderr}`);
  assert.equal(stuck.stderr, 'kstbench analyze: cannot write /proc/kstbench-out: ENOENT (no such file or directory)\n');
});
