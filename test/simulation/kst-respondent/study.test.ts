/** lib/simulation/kst-respondent/study.ts: the in-memory study is the shipped corpus for the shipped seeds, and another seed stream for a suffix. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadDomainDir } from '../../../lib/kst';
import { readJsonl } from '../../../lib/io';
import { simulateKstStudy } from '../../../lib/simulation/kst-respondent/study';

const root = join(__dirname, '..', '..', '..');
const domains = loadDomainDir(join(root, 'data/raw/domains'));
type Line = { model: string; domain: string; condition: string; order: number; state: string[]; recommended?: string[] | null; status: string };
const key = (l: Line) => [l.model, l.domain, l.condition, l.order, [...l.state].sort().join(',')].join('|');
const answer = (l: Line) => `${l.status}:${[...(l.recommended ?? [])].sort().join(',')}`;

test('without a suffix, every cell decides what the shipped corpus (data/raw/kst/extracted.jsonl) recorded', () => {
  const shipped = new Map(readJsonl(join(root, 'data/raw/kst/extracted.jsonl')).lines.map((l) => [key(l.value as Line), answer(l.value as Line)]));
  const study = simulateKstStudy(domains);
  assert.equal(study.lines.length, shipped.size);
  const differing = study.lines.filter((l) => shipped.get(key(l)) !== answer(l)).map(key);
  assert.deepEqual(differing, []);
  const reasons = readJsonl(join(root, 'data/raw/kst/responses.jsonl')).lines.map((l) => (l.value as { reason?: string | null }).reason ?? null).filter((r) => r !== null).sort();
  assert.deepEqual(study.finals.map((f) => f.reason).filter((r) => r !== null).sort(), reasons);
});

test('a seed suffix is another draw of the same parameters: same design, other answers, records keep the model name', () => {
  const a = simulateKstStudy(domains);
  const b = simulateKstStudy(domains, { seedSuffix: '~r1' });
  assert.deepEqual(b.lines.map(key), a.lines.map(key));
  assert.ok(b.lines.some((l, i) => answer(l) !== answer(a.lines[i]!)), 'a different seed stream changes some answers');
  assert.ok(b.lines.every((l) => /^simulated:sim-[a-f]$/.test(l.model) && l.simulated));
  assert.deepEqual(simulateKstStudy(domains, { seedSuffix: '~r1' }).lines, b.lines, 'seeded: the same suffix gives the same corpus');
});
