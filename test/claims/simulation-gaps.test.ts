/** lib/claims/simulation-gaps.ts: the documented gap of a claim, by the longest id prefix that matches at a dot. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadPublishedKst } from '../../lib/records/published-kst';
import { loadPublishedPsi } from '../../lib/records/published-psi';
import { simulationGap, simulationGapPrefixes } from '../../lib/claims/simulation-gaps';

const root = join(__dirname, '..', '..');
const all = [...loadPublishedKst(join(root, 'data/published/kst-benchmark-2026.json')).claims, ...loadPublishedPsi(join(root, 'data/published/psi-2026.json')).claims];

test('every documented simulation gap names claims that exist', () => {
  for (const prefix of simulationGapPrefixes()) assert.ok(all.some((c) => c.id === prefix || c.id.startsWith(`${prefix}.`)), `gap ${prefix} names no claim`);
});

test('the longest prefix wins: psi.table1.ranking has its own gap, other psi.table1 claims the general one', () => {
  const general = simulationGap('psi.table1')!;
  const ranking = simulationGap('psi.table1.ranking')!;
  assert.equal(simulationGap('psi.table1.psi.chatgpt'), general);
  assert.ok(ranking.startsWith(general), 'the ranking gap extends the general one');
  assert.match(ranking, /Gemma 4 and Gemini means are only 0\.008 apart/);
  assert.notEqual(ranking, general);
  // A claim under a prefix with no longer entry inherits it: kst.table4.<model>.P0.exact → kst.table4.
  assert.equal(simulationGap('kst.table4.claude-fable-5.P0.exact'), simulationGap('kst.table4'));
});

test('a prefix matches whole id segments only; an id with no documented gap has none', () => {
  assert.equal(simulationGap('kst.table3x.P0.exact'), undefined, '"kst.table3" is not a prefix of the segment "table3x"');
  assert.equal(simulationGap('kst.table1.total.states'), undefined, 'the domain counts are not simulated');
  assert.equal(simulationGap('psi.design.scenarios'), undefined);
  assert.equal(simulationGap('kst'), undefined);
  assert.match(simulationGap('kst.collection.truncated')!, /truncates a few outputs/);
});
