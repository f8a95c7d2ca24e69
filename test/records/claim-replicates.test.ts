/** lib/records/claim-replicates.ts: one schema for the writer (scripts/replicates.ts) and the reader, errors naming the file. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClaimReplicatesSchema, loadClaimReplicates } from '../../lib/records/claim-replicates';

const good = {
  paper: 'kst',
  simulated: true,
  generator: 'g',
  fingerprint: 'f',
  replicates: 2,
  seeds: ['~r1', '~r2'],
  claims: { 'kst.x': { kind: 'number', n: 2, mean: 1, sd: 0, low: 1, high: 1 }, 'kst.y': { kind: 'category', n: 2, counts: { yes: 2 } } },
};

test('a replicate file round-trips; a wrong field, a negative sd or a missing seed list is rejected with the file named', () => {
  const dir = mkdtempSync(join(tmpdir(), 'claim-replicates-'));
  try {
    const file = join(dir, 'kst.json');
    writeFileSync(file, JSON.stringify(good));
    assert.deepEqual(loadClaimReplicates(file), good);
    writeFileSync(file, JSON.stringify({ ...good, simulated: false }));
    assert.throws(() => loadClaimReplicates(file), (e: Error) => e.message.includes(file) && /simulated/.test(e.message));
    writeFileSync(file, JSON.stringify({ ...good, claims: { 'kst.x': { ...good.claims['kst.x'], sd: -1 } } }));
    assert.throws(() => loadClaimReplicates(file), /sd/);
    assert.throws(() => loadClaimReplicates(join(dir, 'none.json')), /none\.json: cannot read the replicate statistics \(ENOENT\); run scripts\/replicates\.ts/);
    assert.equal(ClaimReplicatesSchema.safeParse({ ...good, seeds: undefined }).success, false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
