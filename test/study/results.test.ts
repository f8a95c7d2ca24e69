import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { studyFrom, StudyManifestSchema } from '../../lib/study/manifest';
import { readStudyResults, resultsPath } from '../../lib/study/results';
import { InputError } from '../../lib/errors';
import { tempDir } from '../support/files';

test('readStudyResults: missing → says to run study analyze; a bad file → names the field', () => {
  const dir = tempDir('kstbench-study-results-');
  const s = studyFrom(dir, join(dir, 'study.json'), StudyManifestSchema.parse({ manifest_version: 1, title: 'T', domains: ['d'], models: ['simulated:sim-a'] }));
  assert.throws(() => readStudyResults(s), /study-results\.json: no analysis yet; run: kstbench study analyze /);
  mkdirSync(dirname(resultsPath(s)), { recursive: true });
  writeFileSync(resultsPath(s), JSON.stringify({ results_version: 1, title: 5 }));
  assert.throws(() => readStudyResults(s), /study-results\.json: .*title/);
});

test('readStudyResults: study-results.json that is a directory is EISDIR naming it (read(2) gives no path)', () => {
  const dir = tempDir('kstbench-study-results-');
  const s = studyFrom(dir, join(dir, 'study.json'), StudyManifestSchema.parse({ manifest_version: 1, title: 'T', domains: ['d'], models: ['simulated:sim-a'] }));
  mkdirSync(resultsPath(s), { recursive: true });
  assert.throws(
    () => readStudyResults(s),
    (e: unknown) => e instanceof InputError && e.message === `${resultsPath(s)}: cannot read the study's analysis (EISDIR)`,
  );
});
