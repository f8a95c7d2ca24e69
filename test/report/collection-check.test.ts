/** lib/report/collection-check.ts: the seed of the shipped corpus and notebook 02's one line on the re-run comparison. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectionCheckMessage, collectionSeed } from '../../lib/report/collection-check';
import type { FileComparison } from '../../lib/report/kst-collection';

const cmp = (file: string, identical: boolean): FileComparison => ({ file, bytes: 1, 'bytes (reference)': 1, sha256: 'a', 'sha256 (reference)': identical ? 'a' : 'b', identical });

test('collectionSeed: the run.json params.seed string; undefined when the file, the seed or valid JSON is missing', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-seed-'));
  assert.equal(collectionSeed(dir), undefined);
  writeFileSync(join(dir, 'run.json'), JSON.stringify({ params: { seed: '20260908' } }));
  assert.equal(collectionSeed(dir), '20260908');
  writeFileSync(join(dir, 'run.json'), JSON.stringify({ params: { seed: 7 } })); // a number is not a recorded seed string
  assert.equal(collectionSeed(dir), undefined);
  writeFileSync(join(dir, 'run.json'), JSON.stringify({ params: {} }));
  assert.equal(collectionSeed(dir), undefined);
  writeFileSync(join(dir, 'run.json'), '{ not json');
  assert.equal(collectionSeed(dir), undefined);
  // The shipped corpus records the seed of `npm run corpus` (package.json: --seed 20260908).
  assert.equal(collectionSeed(join(__dirname, '..', '..', 'data', 'raw', 'kst')), '20260908');
});

test('collectionCheckMessage: identical files, with the corpus seed or another', () => {
  const same = [cmp('attempts.jsonl', true), cmp('responses.jsonl', true)];
  assert.equal(collectionCheckMessage(same, '20260908', '20260908'), 'The re-run is byte-identical to the shipped simulated corpus.');
  assert.equal(collectionCheckMessage(same, '20260908', undefined), 'The re-run is byte-identical to the shipped simulated corpus.');
  assert.equal(
    collectionCheckMessage(same, '7', '20260908'),
    'The re-run is byte-identical to the shipped simulated corpus, although seed 7 is not its seed 20260908.',
  );
});

test('collectionCheckMessage: a different seed explains the difference; the same seed reports DIFFERENT', () => {
  const differ = [cmp('attempts.jsonl', true), cmp('responses.jsonl', false), cmp('extracted.jsonl', false)];
  const other = collectionCheckMessage(differ, '7', '20260908');
  assert.match(other, /^Seed 7 is not the shipped corpus's seed 20260908: /);
  assert.match(other, /expected to differ \(2 of 3 do: responses\.jsonl, extracted\.jsonl\)\. This is not a reproducibility failure; run with seed 20260908/);
  assert.doesNotMatch(other, /DIFFERENT/);
  assert.equal(
    collectionCheckMessage(differ, '20260908', '20260908'),
    'DIFFERENT: responses.jsonl, extracted.jsonl (same seed 20260908 as the shipped corpus): the simulated collection did not reproduce.',
  );
  // No recorded seed: a difference is never excused by the seed.
  assert.equal(
    collectionCheckMessage([cmp('run.json', false)], '1', undefined),
    'DIFFERENT: run.json (same seed 1 as the shipped corpus — not recorded in its run.json): the simulated collection did not reproduce.',
  );
});
