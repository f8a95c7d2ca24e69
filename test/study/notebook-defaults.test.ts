/**
 * lib/study/notebook-defaults.ts: what the notebooks derive from their one parameter, `study` — the
 * rules for the domain, states and Figure 3 cell they show, and the paper comparison only in a replication.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../../lib/errors';
import { buildDomain } from '../../lib/kst';
import {
  domainById,
  figure3Cell,
  highlightedState,
  notebookStudy,
  orDerived,
  paperComparison,
  previewState,
  shownDomain,
  studySummary,
  type ScoredCell,
} from '../../lib/study/notebook-defaults';

const chain = (id: string, n: number) =>
  buildDomain({
    id,
    title: id,
    source: 'test',
    components: Array.from({ length: n }, (_, i) => ({ id: `${id}${i + 1}`, description: `task ${i + 1}` })),
    prerequisites: Array.from({ length: n - 1 }, (_, i) => [`${id}${i + 1}`, `${id}${i + 2}`] as [string, string]),
  });
const free = (id: string, n: number) =>
  buildDomain({ id, title: id, source: 'test', components: Array.from({ length: n }, (_, i) => ({ id: `${id}${i + 1}`, description: `task ${i + 1}` })), prerequisites: [] });

test('the shipped replication derives the defaults the notebooks had: Slope, {SL1}, {SL1, SL2}, its inputs and the paper', () => {
  const s = notebookStudy('data/raw/study.json');
  assert.equal(s.shipped, true);
  assert.equal(s.domainsDir, 'data/raw/domains');
  assert.equal(s.responsesFile, 'data/raw/kst/extracted.jsonl');
  assert.equal(s.rawResponsesFile, 'data/raw/kst/responses.jsonl');
  assert.equal(s.publishedKstFile, 'data/published/kst-benchmark-2026.json');
  const d = shownDomain(s.domains);
  assert.equal(d.id, 'slope');
  assert.deepEqual(highlightedState(d), ['SL1']);
  assert.deepEqual(previewState(d), ['SL1', 'SL2']);
  assert.equal(paperComparison(s, 'KST-2026').shown, true);
});

test('the domain shown: most components, then fewest states, then id', () => {
  // b and c have 3 components; the chain c has 4 states, the free b 8: c is shown. a has fewer components.
  assert.equal(shownDomain([free('a', 2), free('b', 3), chain('c', 3)]).id, 'c');
  assert.equal(shownDomain([chain('z', 3), chain('y', 3)]).id, 'y', 'a full tie goes to the first id');
  assert.throws(() => shownDomain([]), InputError);
  assert.throws(() => domainById([free('a', 2)], 'slope', 'domainId'), /domainId "slope" is not a domain of the study \(its domains: a\)/);
});

test('highlighted and preview states: first non-empty state; first state of two components, else the highlighted one', () => {
  assert.deepEqual(highlightedState(chain('c', 3)), ['c1']);
  assert.deepEqual(previewState(chain('c', 3)), ['c1', 'c2']);
  assert.deepEqual(previewState(chain('s', 1)), ['s1'], 'no state of two components in a one-task domain');
  assert.deepEqual(orDerived([] as string[], () => ['x']), ['x']);
  assert.deepEqual(orDerived(['y'], () => ['x']), ['y']);
  assert.equal(orDerived('', () => 'x'), 'x');
});

const r = (model: string, domain: string, condition: ScoredCell['condition'], exact: number): ScoredCell => ({ model, domain, condition, scores: { exact } });

test('Figure 3: the paper cell in a replication, else the widest spread, never a cell without responses', () => {
  const scored = [r('a', 'd', 'P0', 1), r('b', 'd', 'P0', 1), r('a', 'd', 'P1', 1), r('b', 'd', 'P1', 0), r('a', 'e', 'P2', 0), r('b', 'e', 'P2', 0)];
  assert.deepEqual(figure3Cell(scored), { domain: 'd', condition: 'P1', rule: 'the widest spread between models (100.0 points)' });
  assert.equal(figure3Cell(scored, { paper: { domain: 'e', condition: 'P2' } }).rule, "the paper's own Figure 3 cell");
  // The paper's cell is not in this study's data: the rule, not an empty figure.
  assert.deepEqual(figure3Cell(scored, { paper: { domain: 'graph-to-equation', condition: 'P1' } }).domain, 'd');
  assert.equal(figure3Cell(scored, { domain: 'e', condition: 'P2' }).rule, 'given as parameters');
  assert.equal(figure3Cell(scored, { domain: 'd' }).condition, 'P1', 'a given domain: the widest spread within it');
  assert.equal(figure3Cell([r('a', 'd', 'P0', 1), r('a', 'd', 'P3', 0)]).condition, 'P0', 'one model: no spread anywhere, the first condition');
  assert.throws(() => figure3Cell(scored, { domain: 'graph-to-equation', condition: 'P1' }), /no scored response there, so Figure 3 would be empty \(cells with responses: d × P0, d × P1, e × P2\)/);
  assert.throws(() => figure3Cell([]), InputError);
});

test('the paper comparison: paper columns, titles, mirrors and claims only in a replication', () => {
  const rows = [{ n: 3, 'n (paper)': 600, 'average (paper, %)': 80, 'paper row': 'X', paper: 1, computed: 2, model: 'm' }];
  const own = paperComparison({ study: { manifest: { replicates: [] } } as never }, 'KST-2026');
  assert.equal(own.shown, false);
  assert.deepEqual(own.table(rows), [{ n: 3, computed: 2, model: 'm' }]);
  assert.equal(own.title('T (computed beside paper)', 'T'), 'T');
  assert.deepEqual(own.mirrors(() => ({ 'simulated:sim-a': 'Claude Fable 5' })), {});
  assert.match(own.noClaims, /^No claims ledger: the study does not declare that it replicates \[KST-2026\]/);
  const rep = paperComparison({ study: { manifest: { replicates: ['KST-2026'] } } as never }, 'KST-2026');
  assert.deepEqual(rep.table(rows), rows);
  assert.equal(rep.title('T (computed beside paper)', 'T'), 'T (computed beside paper)');
  assert.deepEqual(rep.mirrors(() => ({ a: 'b' })), { a: 'b' });
  assert.equal(paperComparison({ study: { manifest: { replicates: ['PSI-2026'] } } as never }, 'KST-2026').shown, false, 'replicating the other paper is not this one');
  assert.match(studySummary({ title: 'F', study: { file: '/x/study.json' } }, own), /^Study: F \(\/x\/study\.json\)\. It does not declare/);
});

test('a study of its own: its folders, no paper, not the shipped one; a domain file list is gathered into one folder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-nbstudy-'));
  mkdirSync(join(dir, 'd'));
  writeFileSync(join(dir, 'd', 'f.json'), JSON.stringify({ id: 'f', title: 'F', source: 't', components: [{ id: 'F1', description: 'x' }, { id: 'F2', description: 'y' }], prerequisites: [['F1', 'F2']] }));
  writeFileSync(join(dir, 'study.json'), JSON.stringify({ manifest_version: 1, title: 'Own', domains: ['d/f.json'], models: ['simulated:sim-a'] }));
  const s = notebookStudy(dir);
  assert.equal(s.shipped, false);
  assert.equal(s.publishedKstFile, null);
  assert.equal(s.collectionDir, join(dir, 'collection'));
  assert.match(s.domainsDir, /^tmp\/notebook-study\/[0-9a-f]{12}\/domains$/);
  assert.deepEqual(s.domains.map((d) => d.id), ['f']);
  assert.throws(() => notebookStudy(join(dir, 'nowhere')), /no study manifest here/);
});
