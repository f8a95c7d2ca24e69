/**
 * The study's readers of user files decode them as strict UTF-8 (lib/io/read.ts): a domain file named
 * in study.json (JSON or a kstIO import), the imported response table, the study's analysis and its
 * repeats.json. A byte that is not UTF-8 is refused with FILE:LINE and its offset, where
 * `readFileSync(file, 'utf8')` read it as U+FFFD and went on (into a task's text, a model's name).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { checkImportFile } from '../../lib/study/import';
import { loadStudy, loadStudyDomains } from '../../lib/study/manifest';
import { readStudyRepeats, repeatsFilePath, repeatsFileText } from '../../lib/study/repeats';
import { readStudyResults, resultsPath } from '../../lib/study/results';
import { assertRefusedAsInvalidUtf8, tempDir, writeWithInvalidByte } from '../support/files';
import { writeCurriculum } from './helpers';

function studyDir(manifest: Record<string, unknown> = {}): string {
  const dir = tempDir('kstbench-study-utf8-');
  writeCurriculum(join(dir, 'fractions.json'));
  writeFileSync(join(dir, 'study.json'), JSON.stringify({ manifest_version: 1, title: 'T', domains: ['fractions.json'], models: ['simulated:sim-a'], ...manifest }));
  return dir;
}

test('a domain file of study.json, a kstIO import and its items file: a 0xFF byte is refused with FILE:LINE', () => {
  const dir = studyDir();
  const domain = join(dir, 'fractions.json');
  const expected = writeWithInvalidByte(domain, JSON.stringify(JSON.parse(readFileSync(domain, 'utf8')), null, 2), '"Name the');
  assertRefusedAsInvalidUtf8(() => loadStudyDomains(loadStudy(dir)), expected);
  writeFileSync(join(dir, 'rel.txt'), '11\n01\n');
  writeFileSync(join(dir, 'study.json'), JSON.stringify({ manifest_version: 1, title: 'T', models: ['simulated:sim-a'], domains: [{ import: 'rel.txt', id: 'imp', kind: 'relation', items: 'items.txt' }] }));
  assertRefusedAsInvalidUtf8(() => loadStudyDomains(loadStudy(dir)), writeWithInvalidByte(join(dir, 'items.txt'), 'id,description\n1,first task\n2,second task\n', 'second'));
  writeFileSync(join(dir, 'study.json'), JSON.stringify({ manifest_version: 1, title: 'T', models: ['simulated:sim-a'], domains: [{ import: 'rel.txt', id: 'imp', kind: 'relation' }] }));
  assertRefusedAsInvalidUtf8(() => loadStudyDomains(loadStudy(dir)), writeWithInvalidByte(join(dir, 'rel.txt'), '11\n01\n', '11\n0'));
});

test('the imported response table, the study\'s analysis and repeats.json: a 0xFF byte is refused with FILE:LINE', () => {
  const importing = studyDir({ responses: { file: 'responses.csv' } });
  const table = 'model,domain,state,condition,order,recommended\ntutor-a,fractions,,P0,1,F1\n';
  const expected = writeWithInvalidByte(join(importing, 'responses.csv'), table, 'tutor-');
  const study = loadStudy(importing);
  assertRefusedAsInvalidUtf8(() => checkImportFile(study, loadStudyDomains(study)), expected);

  const collecting = loadStudy(studyDir({ models: ['simulated:sim-a'], design: { repeats: 2 } }));
  mkdirSync(dirname(resultsPath(collecting)), { recursive: true });
  assertRefusedAsInvalidUtf8(() => readStudyResults(collecting), writeWithInvalidByte(resultsPath(collecting), '{\n  "results_version": 1,\n  "title": "T"\n}\n', '"title": "'));
  mkdirSync(collecting.paths.collection, { recursive: true });
  assertRefusedAsInvalidUtf8(() => readStudyRepeats(collecting), writeWithInvalidByte(repeatsFilePath(collecting), repeatsFileText(collecting)!, '"collector_seed": "'));
});
