/** lib/records/fit-evidence.ts: one schema for the writer (scripts/fit-evidence.ts) and the reader, errors naming the file. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FitEvidenceSchema, fitEvidenceText, loadFitEvidence } from '../../lib/records/fit-evidence';

const version = (label: string, objective: number) => ({ label, fingerprint: '0123456789abcdef', objective, rows: [{ target: 't', expected: 1, sd: 0, z: 0 }], values: [[1], [1]] });
const good = {
  paper: 'psi',
  simulated: true,
  objective: 'J = Σ z²',
  seeds: ['fresh1', 'fresh2'],
  targets: [{ target: 't', published: 1, decimals: 0 }],
  baseline: version('v2', 2),
  current: version('v3', 1),
};

test('a fit-evidence file round-trips through the writer\'s text; a wrong field, a bad fingerprint or one seed is rejected with the file named', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fit-evidence-'));
  try {
    const file = join(dir, 'psi-fit.json');
    writeFileSync(file, fitEvidenceText(good));
    assert.deepEqual(loadFitEvidence(file), good);
    writeFileSync(file, JSON.stringify({ ...good, simulated: false }));
    assert.throws(() => loadFitEvidence(file), (e: Error) => e.message.includes(file) && /simulated/.test(e.message));
    writeFileSync(file, JSON.stringify({ ...good, current: { ...good.current, fingerprint: 'abc' } }));
    assert.throws(() => loadFitEvidence(file), (e: Error) => e.message.includes(file) && /fingerprint/.test(e.message));
    writeFileSync(file, JSON.stringify({ ...good, status: 'fitted' }));
    assert.throws(() => loadFitEvidence(file), /status/);
    assert.throws(() => loadFitEvidence(join(dir, 'none.json')), /cannot read .*none\.json: ENOENT/);
    assert.equal(FitEvidenceSchema.safeParse({ ...good, seeds: ['fresh1'] }).success, false);
    assert.throws(() => fitEvidenceText({ ...good, baseline: { ...good.baseline, objective: -1 } }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
