import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { outputBase, outputPath, saveToProject, SCRATCH_OUTPUTS } from '../../lib/figures/output-root';
import { saveTable } from '../../lib/figures/table';
import { saveFigure } from '../../lib/figures/save';
import { closeFigureBrowser } from '../../lib/figures/browser';
import { projectRoot } from '../../lib/notebook/project';

const root = projectRoot();

test('outputBase: the project for reproduce and scripts, the scratch folder in an interactive session unless asked', () => {
  assert.equal(outputBase('/p', {}), '/p');
  assert.equal(outputBase('/p', { KSTBENCH_INTERACTIVE: '1' }), join('/p', SCRATCH_OUTPUTS));
  assert.equal(outputBase('/p', { KSTBENCH_INTERACTIVE: '1', KSTBENCH_SAVE_OUTPUTS: 'project' }), '/p');
  assert.equal(outputBase('/p', { KSTBENCH_INTERACTIVE: '0' }), '/p');
});

test('outputPath: a project path as the session writes it, relative to the root; absolute paths as given', () => {
  assert.equal(outputPath('data/processed/kst', '/p', {}), 'data/processed/kst');
  assert.equal(outputPath('data/processed/kst', '/p', { KSTBENCH_INTERACTIVE: '1' }), `${SCRATCH_OUTPUTS.split('\\').join('/')}/data/processed/kst`);
  assert.equal(outputPath('data/processed/kst', '/p', { KSTBENCH_INTERACTIVE: '1', KSTBENCH_SAVE_OUTPUTS: 'project' }), 'data/processed/kst');
  assert.equal(outputPath('/mine/kst', '/p', { KSTBENCH_INTERACTIVE: '1' }), '/mine/kst');
});

test('a student session (the kernel sets KSTBENCH_INTERACTIVE=1) writes a table and a figure under tmp/ and leaves git status as it was', { timeout: 180_000 }, async () => {
  const status = () => spawnSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: root, encoding: 'utf8' });
  const before = status();
  if (before.status !== 0) throw new Error(`git status failed: ${before.stderr}`); // the test needs the git checkout; it must not pass without one
  const saved = { interactive: process.env['KSTBENCH_INTERACTIVE'], save: process.env['KSTBENCH_SAVE_OUTPUTS'] };
  const scratch = join(root, SCRATCH_OUTPUTS);
  process.env['KSTBENCH_INTERACTIVE'] = '1';
  delete process.env['KSTBENCH_SAVE_OUTPUTS'];
  try {
    // Names a committed output has, as a student re-running notebook 01 would write them.
    const table = saveTable('01-table-1-domains', [{ a: 1 }], { title: 'experiment', simulated: false });
    assert.equal(table.files.csv, join(scratch, 'data', 'processed', 'tables', '01-table-1-domains.csv'));
    const fig = await saveFigure('01-hasse-slope', { data: [{ type: 'bar', x: ['a'], y: [1] }], layout: {} }, { title: 'experiment', simulated: false });
    assert.ok(Object.values(fig.files).every((f) => String(f).startsWith(scratch)), JSON.stringify(fig.files));
    assert.ok(existsSync(join(scratch, 'figures', '01-hasse-slope.svg')));
    assert.equal(status().stdout, before.stdout, 'the project checkout changed');
    assert.match(saveToProject(), new RegExp(`now go to ${root.replace(/[/.]/g, '\\$&')}$`));
    assert.equal(outputBase(root), root, 'after saveToProject() the project folders are used');
    saveToProject(false);
    assert.equal(outputBase(root), scratch);
  } finally {
    await closeFigureBrowser();
    rmSync(scratch, { recursive: true, force: true });
    for (const [k, v] of [['KSTBENCH_INTERACTIVE', saved.interactive], ['KSTBENCH_SAVE_OUTPUTS', saved.save]] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
});
