// Issue 19: a notebook a student runs (the project kernel sets KSTBENCH_INTERACTIVE=1) leaves the project's
// data/ and figures/ as they were: notebooks 02 and 03, which write a collection and the analysis files
// besides figures and tables, write them below tmp/notebook-outputs/ (lib/figures/output-root.ts outputPath).
// Run in a copy of the project without --output-dir (which would move files back and hide a write in
// place); every file's size and mtime are compared, so rewriting a file with the same bytes also counts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { projectCopy } from './own-study-helpers';

function snapshot(root: string, dirs: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const s = statSync(p);
        out.push(`${relative(root, p)} ${s.size} ${s.mtimeMs}`);
      }
    }
  };
  for (const d of dirs) if (existsSync(join(root, d))) walk(join(root, d));
  return out.sort();
}

test('a student-style run of notebooks 02 and 03 writes below tmp/notebook-outputs/, never data/ or figures/ in place', { timeout: 900_000 }, () => {
  const project = projectCopy();
  const before = snapshot(project, ['data', 'figures']);
  const r = spawnSync(process.execPath, ['dist/scripts/reproduce.js', '02', '03'], { cwd: project, encoding: 'utf8', timeout: 900_000, env: { ...process.env, KSTBENCH_INTERACTIVE: '1', KSTBENCH_SAVE_OUTPUTS: '' } });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(snapshot(project, ['data', 'figures']), before, 'a file of data/ or figures/ was written');
  const scratch = join(project, 'tmp', 'notebook-outputs');
  for (const f of ['data/processed/kst/collection/responses.jsonl', 'data/processed/kst/analysis.json', 'data/processed/kst/scored_responses.jsonl', 'data/processed/tables/03-validity.csv']) {
    assert.ok(existsSync(join(scratch, f)), `${f} in the scratch folder`);
  }
});
