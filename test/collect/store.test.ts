import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { acquireLock, Appender, appendLine, readCompleted, repairTail } from '../../lib/collect/store';
import { osErrorMessage } from '../../lib/io/os-error';
import { tempDir } from './helpers';

test('appender writes one JSON line per record, in call order, durable when the promise resolves', async () => {
  const dir = tempDir();
  const file = join(dir, 'a.jsonl');
  const a = new Appender(file);
  const first = a.append({ run_id: 'x', n: 1 });
  const second = a.append({ run_id: 'y', text: 'line\nbreak' });
  const many = Array.from({ length: 50 }, (_, i) => a.append({ run_id: `m${i}` }));
  await first;
  assert.ok(readFileSync(file, 'utf8').startsWith('{"run_id":"x","n":1}\n'));
  await Promise.all([second, ...many]);
  await a.close();
  const lines = readFileSync(file, 'utf8').split('\n');
  assert.equal(lines[1], '{"run_id":"y","text":"line\\nbreak"}');
  assert.deepEqual(lines.slice(2, 52).map((l) => JSON.parse(l).run_id), Array.from({ length: 50 }, (_, i) => `m${i}`));
  assert.equal(lines.length, 53);
  await assert.rejects(a.append({}), /closed/);
});

test('a torn last line is moved to torn.jsonl and truncated; complete records survive', () => {
  const dir = tempDir();
  const file = join(dir, 'responses.jsonl');
  const torn = join(dir, 'torn.jsonl');
  writeFileSync(file, '{"run_id":"a"}\n{"run_id":"b"}\n{"run_id":"c","te');
  const repair = repairTail(file, torn);
  assert.deepEqual(repair, { kind: 'torn_moved', line: 3, bytes: 17, tornFile: torn });
  assert.equal(readFileSync(file, 'utf8'), '{"run_id":"a"}\n{"run_id":"b"}\n');
  assert.deepEqual(JSON.parse(readFileSync(torn, 'utf8')), { file, line: 3, text: '{"run_id":"c","te' });
  assert.deepEqual([...readCompleted(file).keys()], ['a', 'b']);
  assert.deepEqual(repairTail(file, torn), { kind: 'clean' });
});

test('a complete last record without its newline is kept (newline added)', () => {
  const dir = tempDir();
  const file = join(dir, 'r.jsonl');
  writeFileSync(file, '{"run_id":"a"}\n{"run_id":"b"}');
  assert.deepEqual(repairTail(file, join(dir, 'torn.jsonl')), { kind: 'newline_added', line: 2 });
  assert.equal(readFileSync(file, 'utf8'), '{"run_id":"a"}\n{"run_id":"b"}\n');
  assert.equal(existsSync(join(dir, 'torn.jsonl')), false);
});

test('corruption before the last line is an input error naming the line', () => {
  const dir = tempDir();
  const file = join(dir, 'r.jsonl');
  writeFileSync(file, '{"run_id":"a"}\n{oops\n{"run_id":"b"}\n');
  const corrupt = `${file}:2: not valid JSON (corrupted audit file; fix or move it before resuming)`;
  assert.throws(() => repairTail(file, join(dir, 'torn.jsonl')), (err: Error) => err.name === 'InputError' && err.message === corrupt);
  // An unparsable last line that has its newline was written whole: corruption too, not a torn write.
  writeFileSync(file, '{"run_id":"a"}\n{oops\n');
  assert.throws(() => repairTail(file, join(dir, 'torn.jsonl')), (err: Error) => err.message === corrupt);
  assert.throws(() => readCompleted(file, { tolerateTornTail: true }), (err: Error) => err.name === 'InputError' && err.message.startsWith(`${file}:2: not valid JSON`));
  assert.equal(existsSync(join(dir, 'torn.jsonl')), false);
});

test('a blank fragment after the last newline is moved aside like a torn write', () => {
  const dir = tempDir();
  const file = join(dir, 'r.jsonl');
  const torn = join(dir, 'torn.jsonl');
  writeFileSync(file, '{"run_id":"a"}\n  ');
  assert.deepEqual(repairTail(file, torn), { kind: 'torn_moved', line: 2, bytes: 2, tornFile: torn });
  assert.equal(readFileSync(file, 'utf8'), '{"run_id":"a"}\n');
});

test('readCompleted skips a torn tail only when asked (a read-only dry run); otherwise it is an error naming the line', () => {
  const dir = tempDir();
  const file = join(dir, 'r.jsonl');
  writeFileSync(file, '{"run_id":"a","status":"valid"}\n{"run_id":"b","sta');
  assert.deepEqual([...readCompleted(file, { tolerateTornTail: true }).keys()], ['a']);
  assert.throws(() => readCompleted(file), (err: Error) => err.name === 'InputError' && err.message.startsWith(`${file}:2: not valid JSON`));
});

test('a duplicated final record is an input error', () => {
  const dir = tempDir();
  const file = join(dir, 'r.jsonl');
  writeFileSync(file, '{"run_id":"a"}\n{"run_id":"a"}\n');
  assert.throws(() => readCompleted(file), /r\.jsonl:2: run_id a already has a final record/);
});

test('directory lock: a live holder blocks, a dead holder is taken over', () => {
  const dir = tempDir();
  const lock = join(dir, '.collect.lock');
  // a pid that surely exited: a finished child process
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  writeFileSync(lock, dead.stdout);
  const release = acquireLock(lock);
  assert.match(readFileSync(lock, 'utf8'), new RegExp(`^${process.pid} [0-9a-f]{16}$`));
  assert.deepEqual(readdirSync(dir), ['.collect.lock'], 'no private or takeover file is left behind');
  assert.throws(() => acquireLock(lock, process.ppid), /another collector \(pid \d+\)/);
  release();
  assert.equal(existsSync(lock), false);
});

test('a missing record may be superseded: the last record of a run_id wins, in the file order of the winners', () => {
  const dir = tempDir();
  const file = join(dir, 'r.jsonl');
  writeFileSync(
    file,
    [
      { run_id: 'a', status: 'missing' },
      { run_id: 'b', status: 'valid' },
      { run_id: 'c', status: 'missing' },
      { run_id: 'a', status: 'missing', n: 2 },
      { run_id: 'a', status: 'invalid', n: 3 },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n') + '\n',
  );
  const done = readCompleted(file);
  assert.deepEqual([...done.keys()], ['b', 'c', 'a']);
  assert.deepEqual(done.get('a'), { run_id: 'a', status: 'invalid', n: 3 });
  // nothing may follow a valid or invalid record
  writeFileSync(file, `${readFileSync(file, 'utf8')}${JSON.stringify({ run_id: 'a', status: 'valid' })}\n`);
  assert.throws(() => readCompleted(file), /r\.jsonl:6: run_id a already has a final record \(status "invalid"\); only a missing record may be superseded/);
});

test('a torn last line with multibyte characters is cut at its first byte, not at its length in UTF-16 units', () => {
  const dir = tempDir();
  const file = join(dir, 'responses.jsonl');
  const torn = join(dir, 'torn.jsonl');
  const whole = '{"run_id":"a","text":"Größe ≥ 2"}\n';
  // 'ö', 'ß' take 2 bytes, '≥' and '—' 3, '𝑥' 4 (2 UTF-16 units): 20 characters, 28 bytes.
  const tail = '{"run_id":"b","te—𝑥ö';
  writeFileSync(file, whole + tail);
  const repair = repairTail(file, torn);
  assert.deepEqual(repair, { kind: 'torn_moved', line: 2, bytes: Buffer.byteLength(tail), tornFile: torn });
  assert.equal(readFileSync(file, 'utf8'), whole, 'exactly the torn bytes are gone, the whole record is untouched');
  assert.deepEqual(JSON.parse(readFileSync(torn, 'utf8')).text, tail);
  assert.deepEqual(repairTail(file, torn), { kind: 'clean' });
});

test('a torn write that stopped inside a multibyte character is cut at the last newline, byte for byte', () => {
  const dir = tempDir();
  const file = join(dir, 'responses.jsonl');
  const whole = Buffer.from('{"run_id":"a"}\n');
  const cut = Buffer.from('{"run_id":"b","text":"≥').subarray(0, -1); // the last character's 3 bytes, cut after 2
  writeFileSync(file, Buffer.concat([whole, cut]));
  const repair = repairTail(file, join(dir, 'torn.jsonl'));
  assert.equal(repair.kind, 'torn_moved');
  assert.deepEqual(readFileSync(file), whole);
});

test('a complete last record with an invalid byte is torn, never data: moved aside by the repair, skipped or refused by the reader', () => {
  const dir = tempDir();
  const file = join(dir, 'responses.jsonl');
  const torn = join(dir, 'torn.jsonl');
  const whole = Buffer.from('{"run_id":"a","status":"valid"}\n');
  // Parses as JSON once decoded leniently ("x\uFFFD"): it used to be read as run b with that text.
  const last = Buffer.concat([Buffer.from('{"run_id":"b","status":"valid","raw":"x'), Buffer.from([0xff]), Buffer.from('"}')]);
  writeFileSync(file, Buffer.concat([whole, last]));
  assert.deepEqual([...readCompleted(file, { tolerateTornTail: true }).keys()], ['a']);
  assert.throws(() => readCompleted(file), (err: Error) => err.name === 'InputError' && err.message.startsWith(`${file}:2: invalid UTF-8 at byte offset ${whole.length + 39} (0xff`));
  assert.deepEqual(repairTail(file, torn), { kind: 'torn_moved', line: 2, bytes: last.length, tornFile: torn });
  assert.deepEqual(readFileSync(file), whole);
  assert.equal(JSON.parse(readFileSync(torn, 'utf8')).text, '{"run_id":"b","status":"valid","raw":"x\ufffd"}');
  assert.deepEqual([...readCompleted(file).keys()], ['a']);
});

test('a full disk (/dev/full) under the appender and appendLine: ENOSPC naming the file, for the one-line message', async () => {
  // write(2) and fsync(2) carry no path; the collector printed "cannot write (unknown path): ENOSPC".
  const a = new Appender('/dev/full');
  await assert.rejects(a.append({ run_id: 'x' }), (e: NodeJS.ErrnoException) => e.code === 'ENOSPC' && e.path === '/dev/full');
  await assert.rejects(a.append({ run_id: 'y' }), (e: NodeJS.ErrnoException) => e.code === 'ENOSPC' && e.path === '/dev/full', 'a failed appender stays failed');
  await a.close();
  assert.equal(osErrorMessage(errorOf(() => appendLine('/dev/full', '{}'))), 'cannot write /dev/full: ENOSPC (no space left on the device)');
});

function errorOf(f: () => void): NodeJS.ErrnoException {
  try {
    f();
  } catch (err) {
    return err as NodeJS.ErrnoException;
  }
  return assert.fail('expected an error');
}

test('an audit file that is a directory: EISDIR naming it, from the repair and from the reader', () => {
  const dir = tempDir();
  const file = join(dir, 'responses.jsonl');
  mkdirSync(file);
  assert.equal(osErrorMessage(errorOf(() => repairTail(file, join(dir, 'torn.jsonl')))), `cannot read ${file}: EISDIR (a directory is where a file is expected)`);
  assert.equal(osErrorMessage(errorOf(() => readCompleted(file))), `cannot read ${file}: EISDIR (a directory is where a file is expected)`);
});
