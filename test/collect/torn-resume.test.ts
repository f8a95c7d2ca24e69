/**
 * A resume after a kill that tore the last line of the audit files says what it repaired, on stderr,
 * beside the summary: the fragment moved to torn.jsonl (and the cell requested again), or the
 * newline added to a whole last record. It used to go only into attempts.jsonl as an event.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kstbench, tempDir, ROOT } from '../support/cli';

const domains = join(ROOT, 'test', 'fixtures', 'analyze', 'domains');

test('collect resumed after a torn write: one line per repaired file, then the summary; the data ends whole', () => {
  const out = join(tempDir(), 'run');
  const args = ['collect', '--domains', domains, '--models', 'simulated:sim-a', '--out', out];
  const first = kstbench(args, { timeoutMs: 60_000 });
  assert.equal(first.code, 0, first.stderr);
  const responses = join(out, 'responses.jsonl');
  const attempts = join(out, 'attempts.jsonl');
  const whole = readFileSync(responses, 'utf8');
  // As a kill in the middle of the last write leaves them: responses.jsonl ends in half a record,
  // attempts.jsonl in a whole record without its newline.
  const lines = whole.trimEnd().split('\n');
  const cut = lines.at(-1)!.slice(0, 40);
  writeFileSync(responses, `${lines.slice(0, -1).join('\n')}\n${cut}`);
  writeFileSync(attempts, readFileSync(attempts, 'utf8').trimEnd());
  const again = kstbench(args, { timeoutMs: 60_000 });
  assert.equal(again.code, 0, again.stderr);
  const said = again.stderr.split('\n').filter((l) => l.startsWith('kstbench collect: '));
  const attemptLines = readFileSync(attempts, 'utf8').split('\n').length;
  assert.ok(said[0]!.startsWith('kstbench collect: repaired attempts.jsonl: its last record (line '), said.join('\n'));
  assert.match(said[0]!, /had no newline \(a run was killed as it wrote it\); newline added, the record kept$/);
  assert.equal(said[1], `kstbench collect: repaired responses.jsonl: line ${lines.length} was cut off by a killed run (40 bytes, not a whole record); moved to ${join(out, 'torn.jsonl')}, and its cell is requested again`);
  assert.match(said[2]!, /^kstbench collect: complete: \d+ cells, \d+ already complete, this run wrote 1 valid;/);
  assert.equal(readFileSync(responses, 'utf8'), whole, 'the cut cell was collected again, byte for byte');
  assert.ok(attemptLines > 1);
  // The control: a resume with nothing torn says nothing of repairs.
  const clean = kstbench(args, { timeoutMs: 60_000 });
  assert.equal(clean.code, 0, clean.stderr);
  assert.doesNotMatch(clean.stderr, /repaired/);
});
