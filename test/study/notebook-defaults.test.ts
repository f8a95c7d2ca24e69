/**
 * lib/study/notebook-defaults.ts: what the notebooks derive from their one parameter, `study` — the
 * rules for the domain, states and Figure 3 cell they show, and the paper comparison only in a replication.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../../lib/errors';
import { buildDomain, enumerateStates } from '../../lib/kst';
import {
  domainById,
  exampleResponse,
  figure3Cell,
  highlightedState,
  notebookCollection,
  notebookInference,
  notebookPsi,
  notebookStudy,
  orDerived,
  paperComparison,
  previewState,
  ratingsFileOf,
  ratingsPathFor,
  regenerationExample,
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

test('the domain shown is one whose space notebook 01 can draw; the states are counted, not enumerated (2^64 of them)', () => {
  // free 64 has the most components but 2^64 states; free 9 has 512 (over MAX_LATTICE_STATES): chain c is shown.
  assert.equal(shownDomain([free('huge', 64), free('nine', 9), chain('c', 3), free('two', 2)]).id, 'c');
  // None can be drawn: the fewest states (its lattice cell then refuses with one line naming domainId).
  assert.equal(shownDomain([free('huge', 64), free('nine', 9)]).id, 'nine');
});

test('highlighted and preview states: first non-empty state; first state of two components, else the highlighted one', () => {
  assert.deepEqual(highlightedState(chain('c', 3)), ['c1']);
  assert.deepEqual(previewState(chain('c', 3)), ['c1', 'c2']);
  assert.deepEqual(previewState(chain('s', 1)), ['s1'], 'no state of two components in a one-task domain');
  // Found without enumerating the space: 2^64 states (enumerating them refused notebook 02).
  assert.deepEqual(highlightedState(free('f', 64)), ['f1']);
  assert.deepEqual(previewState(free('f', 64)), ['f1', 'f2']);
  // In the space's order: in chain x1 → x2 plus a free x3, {x3} is not first (x1 has the lower index), {x1, x2} before {x1, x3}.
  const mixed = buildDomain({ id: 'm', title: 'm', source: 't', components: ['x1', 'x2', 'x3'].map((id) => ({ id, description: id })), prerequisites: [['x1', 'x2']] });
  assert.deepEqual(highlightedState(mixed), ['x1']);
  assert.deepEqual(previewState(mixed), ['x1', 'x2']);
  const later = buildDomain({ id: 'l', title: 'l', source: 't', components: ['y1', 'y2', 'y3'].map((id) => ({ id, description: id })), prerequisites: [['y3', 'y1'], ['y3', 'y2']] });
  assert.deepEqual(highlightedState(later), ['y3']);
  assert.deepEqual(previewState(later), ['y1', 'y3']);
  // The same as the space's own order, checked against its enumeration where that is small.
  for (const d of [mixed, later, chain('c', 4), free('g', 5)]) {
    const states = enumerateStates(d);
    assert.deepEqual(highlightedState(d), states.find((x) => x.length === 1), d.id);
    assert.deepEqual(previewState(d), states.find((x) => x.length === 2), d.id);
  }
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
  const rows = [{ n: 3, 'n (paper)': 600, 'average (paper, %)': 80, 'paper row': 'X', paper: 1, 'paper model': 'P', 'stands for (paper model)': 'none', computed: 2, model: 'm' }];
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

test('notebook 03 analyses with the study\'s analysis settings; a parameter given overrides its own setting only', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-nbinference-'));
  mkdirSync(join(dir, 'd'));
  writeFileSync(join(dir, 'd', 'f.json'), JSON.stringify({ id: 'f', title: 'F', source: 't', components: [{ id: 'F1', description: 'x' }], prerequisites: [] }));
  writeFileSync(join(dir, 'study.json'), JSON.stringify({ manifest_version: 1, title: 'Own', domains: ['d'], models: ['simulated:sim-a'], analysis: { seed: 'own', resamples: 200, flips: 300 } }));
  const own = notebookStudy(dir);
  const derive = { seed: '', resamples: null, flips: null };
  assert.deepEqual(notebookInference(own, derive), { seed: 'own', resamples: 200, flips: 300 });
  assert.deepEqual(notebookInference(own, { seed: '7', resamples: null, flips: 50 }), { seed: '7', resamples: 200, flips: 50 });
  assert.deepEqual(notebookInference(notebookStudy('data/raw'), derive), { seed: '20260908', resamples: 10000, flips: 100000 });
  assert.deepEqual(notebookInference(own), { seed: 'own', resamples: 200, flips: 300 }, "no parameters (notebook 00's claims): the study's settings");
});

test('a student\'s count that is not a whole number from 1 to the CLI\'s cap stops notebooks 03 and 06 with one line naming the parameter', () => {
  const shipped = notebookStudy('data/raw');
  const cases = [[0, null, 'resamples'], [1.5, null, 'resamples'], [-3, null, 'resamples'], [1_000_001, null, 'resamples'], [null, 0, 'flips'], [null, Number.NaN, 'flips'], [null, 10_000_001, 'flips']] as const;
  for (const [resamples, flips, named] of cases) {
    const cap = named === 'resamples' ? 1_000_000 : 10_000_000;
    assert.throws(
      () => notebookInference(shipped, { seed: '', resamples, flips }),
      (err: unknown) => err instanceof InputError && err.where.item === named
        && err.message === `${named} parameter: expected a whole number from 1 to ${cap} (or null for the study's ${named === 'resamples' ? 10000 : 100000}), got ${named === 'resamples' ? resamples : flips}`,
      `resamples ${resamples}, flips ${flips}`,
    );
  }
  assert.deepEqual(notebookInference(shipped, { seed: '', resamples: 1, flips: 1 }), { seed: '20260908', resamples: 1, flips: 1 }, 'the smallest counts are accepted');
  assert.deepEqual(notebookInference(shipped, { seed: '', resamples: 1_000_000, flips: 10_000_000 }), { seed: '20260908', resamples: 1_000_000, flips: 10_000_000 }, 'and the caps (kstbench analyze --boot, --perm)');
});

test('notebook 02 collects exactly the study: its sample, models (spec@URL kept), models file and folders', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-nbcollect-'));
  mkdirSync(join(dir, 'd'));
  writeFileSync(join(dir, 'd', 'f.json'), JSON.stringify({ id: 'f', title: 'F', source: 't', components: ['F1', 'F2', 'F3', 'F4'].map((id) => ({ id, description: id })), prerequisites: [['F1', 'F2']] }));
  writeFileSync(join(dir, 'models.json'), JSON.stringify({ models: [] }));
  const url = 'openai-compatible:llama3.1:8b@http://127.0.0.1:11434/v1';
  writeFileSync(join(dir, 'study.json'), JSON.stringify({ manifest_version: 1, title: 'Own', domains: ['d'], models: ['simulated:sim-a', url], models_file: 'models.json', design: { states: { sample: 5, seed: 's' }, conditions: ['P0', 'P2'], orders: 1, seed: '9' } }));
  const s = notebookStudy(dir);
  const dirs = { simulatedOutDir: 'sim-out', environmentOutDir: '', seed: '' };
  const c = notebookCollection(s, {}, dirs);
  assert.equal(c.plan.source, 'study');
  assert.deepEqual(c.params.models, ['simulated:sim-a', url]);
  assert.equal(c.params.outDir, s.collectionDir, 'a real collection of a study of its own goes to its collection folder');
  assert.equal(c.params.modelsFile, join(dir, 'models.json'));
  assert.deepEqual([c.params.conditions, c.params.orders, c.params.seed], [['P0', 'P2'], 1, '9']);
  assert.ok(c.params.statesFile !== undefined && c.samples !== null, 'the sampled design is collected, not every state');
  assert.deepEqual(JSON.parse(readFileSync(c.params.statesFile, 'utf8')).map((x: { states: string[][] }) => x.states), c.samples.map((x) => x.states));
  assert.ok(c.samples[0]!.states.length < 12, 'fewer states than the 12 of the space');
  assert.equal(notebookCollection(s, {}, { ...dirs, seed: '5' }).params.seed, '5');
  const env = notebookCollection(s, { KSTBENCH_MODELS: 'openai:gpt-5-mini', KSTBENCH_BASE_URL: 'http://h/v1' }, { ...dirs, environmentOutDir: 'real' });
  assert.deepEqual([env.params.models, env.params.outDir, env.params.baseUrl, env.params.modelsFile], [['openai:gpt-5-mini'], 'real', 'http://h/v1', undefined]);
  const shipped = notebookCollection(notebookStudy('data/raw'), {}, dirs);
  assert.deepEqual([shipped.plan.source, shipped.params.outDir, shipped.params.domainsDir, shipped.params.statesFile, shipped.samples], ['simulated', 'sim-out', 'data/raw/domains', undefined, null]);
  assert.equal(notebookCollection(notebookStudy('data/raw'), { KSTBENCH_MODELS: 'openai:gpt-5' }, dirs).params.outDir, join('data', 'raw', 'kst-real'));
});

test('the PSI notebooks: the psi part of the study, or one line saying it has none; the ratings file; the example of notebook 10', () => {
  const shipped = notebookPsi(notebookStudy('data/raw'), '10');
  assert.deepEqual([shipped.courseDir, shipped.round2File, ratingsFileOf(shipped)], ['data/raw/psi', 'data/raw/psi/round2.jsonl', 'data/raw/psi/ratings.json']);
  assert.equal(ratingsFileOf({ ratingsFile: 'x/r.json', courseDir: 'c' }), 'x/r.json');
  // Notebook 13's parameter: "" derives (a missing derived file means illustrative ratings); a file named on purpose must exist.
  assert.equal(ratingsPathFor({ ratingsFile: null, courseDir: 'data/raw/psi' }, ''), 'data/raw/psi/ratings.json');
  assert.equal(ratingsPathFor({ ratingsFile: null, courseDir: 'c' }, 'data/raw/psi/scenarios.json'), 'data/raw/psi/scenarios.json');
  assert.throws(
    () => ratingsPathFor({ ratingsFile: null, courseDir: 'data/raw/psi' }, 'data/raw/psi/ratngs.json'),
    (err: unknown) => err instanceof InputError && err.where.item === 'ratingsFile' && err.message === 'ratingsFile parameter: data/raw/psi/ratngs.json does not exist (leave it "" for the study\'s ratings, or illustrative ones when it has none)',
  );
  assert.throws(() => notebookPsi({ psi: null, study: { file: '/s/study.json' } as never }, '11'), (e: unknown) => e instanceof InputError && /^\/s\/study\.json: the study has no PSI part .*notebook 11/.test(e.message));
  const course = { scenarios: [{ id: 'S1' }, { id: 'S13' }] };
  const recs = [{ scenario: 'S13', variant: 'standard', model: 'b' }, { scenario: 'S13', variant: 'standard', model: 'a' }, { scenario: 'S1', variant: 'standard', model: 'c' }];
  const file = 'psi/round1.jsonl';
  assert.deepEqual(exampleResponse(course, recs, { file, variant: 'standard', models: [] }), { scenario: 'S13', model: 'a' });
  assert.deepEqual(exampleResponse(course, recs, { file, variant: 'standard', models: ['b', 'a'] }), { scenario: 'S13', model: 'b' }, "the study's model order first");
  assert.deepEqual(exampleResponse({ scenarios: [{ id: 'S1' }] }, recs, { file, variant: 'standard', models: [] }), { scenario: 'S1', model: 'c' }, 'no S13: the first scenario');
  const refused = (options: Parameters<typeof exampleResponse>[2], message: string, item: string) =>
    assert.throws(
      () => exampleResponse(course, recs, options),
      (e: unknown) => e instanceof InputError && e.message === message && e.where.file === file && e.where.item === item,
    );
  refused({ file, variant: 'defective', models: [] }, 'psi/round1.jsonl: no defective response to scenario S13 in these round-1 records (models with one: none)', 'S13');
  // An unknown corpusModel: one line naming the corpus file, the model and the models that did answer.
  refused(
    { file, variant: 'standard', models: [], model: 'simulated:nope' },
    'psi/round1.jsonl: no standard response of simulated:nope to scenario S13 in these round-1 records (models with one: a, b)',
    'simulated:nope',
  );
});

test('notebook 12\'s example case: the first selected, or the run_id given; an unknown one or an empty selection is one InputError naming round 1', () => {
  const file = 'psi/round1.jsonl';
  const cases = ['r-a', 'r-b', 'r-c', 'r-d'].map((run_id) => ({ run_id, psi: 0.5 }));
  assert.equal(regenerationExample(cases, [cases[2]!, cases[0]!], { file, runId: '' }), cases[2], 'the first selected (lowest PSI)');
  assert.equal(regenerationExample(cases, [cases[2]!], { file, runId: 'r-b' }), cases[1], 'a case given, selected or not');
  const refused = (run: () => unknown, message: string, item: string | undefined) =>
    assert.throws(run, (e: unknown) => e instanceof InputError && e.message === message && e.where.file === file && e.where.item === item);
  refused(
    () => regenerationExample(cases, cases, { file, runId: 'r-z' }),
    'psi/round1.jsonl: no round-1 case with run_id "r-z" (exampleRunId; its 4 cases begin r-a, r-b, r-c, …)',
    'r-z',
  );
  refused(() => regenerationExample([], [], { file, runId: 'r-a' }), 'psi/round1.jsonl: no round-1 case with run_id "r-a" (exampleRunId; it has no cases)', 'r-a');
  refused(
    () => regenerationExample(cases, [], { file, runId: '' }),
    'psi/round1.jsonl: no round-1 case was selected for regeneration, so there is no example to show; set exampleRunId to one of its run_ids, or loosen the selection (selectionThreshold, selectionQuota)',
    undefined,
  );
});
