import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../lib/errors';
import { analyzeStudy } from '../../lib/study/analyze';
import { csvRecords } from '../../lib/io/csv';
import { importStudyResponses, parseResponseTable } from '../../lib/study/import';
import { loadStudy, loadStudyDomains } from '../../lib/study/manifest';
import { tempDir } from '../support/files';
import { writeCurriculum } from './helpers';

// A hand-made response table of three models on the fractions curriculum (states ∅, {F1}, {F1,F2}),
// P0 and P1, one order; raw text with a comma, a quote and a line break; one invalid row; P1 graphs.
const CSV = [
  'model,domain,state,condition,order,recommended,raw_text,status,prerequisites',
  'tutor-a,fractions,,P0,1,F1,"Start with F1, naming parts.",,',
  'tutor-a,fractions,F1,P0,1,F2 F3,"F2 and F3 are both open",,',
  'tutor-a,fractions,F1 F2,P0,1,F3 F4,,,',
  'tutor-b,fractions,,P0,1,F1,,,',
  'tutor-b,fractions,F1,P0,1,F2,"only ""F2""\nthen more",,',
  'tutor-b,fractions,F1 F2,P0,1,F4,,,',
  'tutor-c,fractions,,P0,1,,garbled,invalid,',
  'tutor-c,fractions,F1,P0,1,F2;F3,,,',
  'tutor-c,fractions,F1 F2,P0,1,F3;F4,,,',
  'tutor-a,fractions,,P1,1,F1,,,F1>F2 F1>F3',
  'tutor-b,fractions,F1,P1,1,F2 F3,,,F1>F2;F1>F3',
  'tutor-c,fractions,F1 F2,P1,1,F4,,,F1>F2 F2>F4',
  '',
].join('\n');

function study(table: string, name = 'responses.csv', extra: Record<string, unknown> = {}): string {
  const dir = tempDir('kstbench-study-import-');
  writeCurriculum(join(dir, 'fractions.json'));
  writeFileSync(join(dir, name), table);
  writeFileSync(join(dir, 'study.json'), JSON.stringify({ manifest_version: 1, title: 'Imported', domains: ['fractions.json'], responses: { file: name }, design: { conditions: ['P0', 'P1'], orders: 1 }, ...extra }));
  return dir;
}

test('a hand-made 3-model CSV is imported, analysed with simulated: false, P1 graphs included', () => {
  const dir = study(CSV);
  const s = loadStudy(dir);
  const r = importStudyResponses(s, loadStudyDomains(s));
  assert.deepEqual(r.models, ['tutor-a', 'tutor-b', 'tutor-c']);
  assert.equal(r.rows, 12);
  const lines = readFileSync(join(dir, 'collection', 'extracted.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.ok(lines.every((l) => l.simulated === false));
  assert.equal(lines[4].raw_text, 'only "F2"\nthen more', 'RFC 4180 quotes and a line break inside a field');
  assert.deepEqual(lines[4].source, { file: join(dir, 'responses.csv'), line: 6 });
  const results = analyzeStudy(s);
  assert.equal(results.simulated, false);
  assert.equal(results.counts.simulated, 0);
  assert.equal(results.counts.invalid, 1);
  const p0 = results.table3.find((t) => t.condition === 'P0')!;
  // Correct P0 sets: a ∅→F1, a F1→F2 F3, a F1F2→F3 F4, b ∅→F1, c F1→F2 F3, c F1F2→F3 F4: 6 of 9.
  assert.equal(p0.exact, 6 / 9);
  assert.equal(results.graphs!.overall[0]!.responses, 3);
});

test('an imported replication of [KST-2026]: the claims an import cannot show (its prompts, final records) are not rebuildable, never differs', () => {
  const s = loadStudy(study(CSV, 'responses.csv', { replicates: ['KST-2026'], analysis: { resamples: 200, flips: 400 } }));
  importStudyResponses(s, loadStudyDomains(s));
  const rows = analyzeStudy(s).paper_claims![0]!.rows;
  const ids = ['kst.design.fringe-never-in-prompt', 'kst.design.positions-only', 'kst.design.orders-reused', 'kst.collection.truncated'];
  assert.deepEqual(rows.filter((r) => ids.includes(r.id)).map((r) => [r.id, r.status]), ids.map((id) => [id, 'not rebuildable']));
  assert.ok(rows.filter((r) => ids.includes(r.id)).every((r) => r.note.startsWith('cannot be checked on this input: no final records')));
});

test('JSONL rows take arrays or strings', () => {
  const dir = tempDir('kstbench-study-import-');
  writeCurriculum(join(dir, 'fractions.json'));
  const s = { manifest_version: 1, title: 'T', domains: ['fractions.json'], responses: { file: 'r.jsonl' } };
  writeFileSync(join(dir, 'study.json'), JSON.stringify(s));
  const text = `${JSON.stringify({ model: 'm', domain: 'fractions', state: ['F1'], condition: 'P0', order: 1, recommended: 'F2 F3' })}\n`;
  const { lines } = parseResponseTable(text, 'r.jsonl', 'jsonl', loadStudyDomains(loadStudy(dir)));
  assert.deepEqual([lines[0]!.state, lines[0]!.recommended], [['F1'], ['F2', 'F3']]);
});

test('a bad row is one line naming file, line and field; nothing is written', () => {
  const cases: Array<[string, RegExp]> = [
    ['model,domain,state,condition,order,recommended\nm,fractions,,P9,1,F1\n', /r\.csv:2: condition: /],
    ['model,domain,state,condition,order,recommended\nm,fractions,,P0,one,F1\n', /r\.csv:2: order: /],
    ['model,domain,state,condition,order,recommended\nm,fractions,F9,P0,1,F1\n', /r\.csv:2: state: .*F9/],
    ['model,domain,state,condition,order,recommended\nm,fractions,,P0,1,F7\n', /r\.csv:2: recommended: .*F7/],
    ['model,domain,state,condition,order,recommended\nm,algebra,,P0,1,F1\n', /r\.csv:2: unknown domain "algebra"/],
    ['model,domain,state,condition,order\nm,fractions,,P0,1\n', /r\.csv:1: header: column recommended is missing/],
    ['model,domain,state,condition,order,recommended\nm,fractions,,P0,1\n', /r\.csv:2: 5 field\(s\) where the header has 6/],
  ];
  for (const [table, pattern] of cases) {
    const dir = study(table, 'r.csv');
    const s = loadStudy(dir);
    assert.throws(() => importStudyResponses(s, loadStudyDomains(s)), (err: unknown) => err instanceof InputError && pattern.test(err.message) && !err.message.includes('\n'), table);
    assert.equal(existsSync(join(dir, 'collection')), false, 'nothing written');
  }
});

test('csvRecords: quoted fields span lines; an unterminated quote is named', () => {
  assert.deepEqual(csvRecords('a,b\n"x\ny",2\r\n', 'f'), [{ line: 1, cells: ['a', 'b'] }, { line: 2, cells: ['x\ny', '2'] }]);
  assert.throws(() => csvRecords('a\n"open\n', 'f.csv'), /f\.csv:2: unterminated quoted field/);
  // Text after a closing quote is no RFC 4180 field: refused, not glued to the field ("x"y read as xy).
  assert.throws(() => csvRecords('a,b\n"x"y,2\n', 'f.csv'), /^InputError: f\.csv:2: "y,2" after a closing quote, where a comma or the line's end is expected$/);
});
