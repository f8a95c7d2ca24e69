/**
 * docs/domain-files.md's recipe for importing kstMatrix's phsg with its own item texts, run as
 * written against kstMatrix 2.3-4's data set (the peers' `phsg.rda` stands in for `library(kstMatrix)`,
 * which cannot be installed here): the domain it imports must be the shipped linear-modelling.json's
 * structure, with kstMatrix's seven texts. The Rscript line is not run by commands.test.ts (it needs
 * R), so this is the check that the documented R code fits what kstMatrix holds. Needs R and the
 * peers' sources (../shared/peers or $KSTBENCH_PEERS, as the bench finds them) and `npm run build`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildDomain, type DomainFile } from '../../lib/kst';
import { hasR, peersDir } from '../../scripts/bench/kmunionclosure';
import { tempDir, ROOT } from '../support/cli';
import { extractCommands } from './commands';

const DOC = 'docs/domain-files.md';
const peers = peersDir();

test('the documented phsg recipe imports kstMatrix phsg as the shipped domain, with its item texts', { skip: peers && hasR() ? false : 'needs Rscript and the peers\' kstMatrix sources ($KSTBENCH_PEERS, ../shared/peers beside the project or beside its origin)' }, () => {
  const commands = extractCommands(readFileSync(join(ROOT, DOC), 'utf8'), DOC);
  const rscript = commands.find((c) => c.text.startsWith('Rscript ') && c.text.includes('phsg'));
  const importLine = commands.find((c) => c.text.startsWith('node bin/kstbench.js import phsg-basis.csv'));
  assert.ok(rscript && importLine, `${DOC} has the Rscript and import lines of the phsg recipe`);
  assert.ok(rscript.text.includes('library(kstMatrix)'), 'the recipe loads kstMatrix');
  const dir = tempDir('kstbench-phsg-');
  try {
    const data = join(peers!, 'kstMatrix', 'data', 'phsg.rda').replace(/'/g, '');
    const r = spawnSync('sh', ['-c', rscript.text.replace('library(kstMatrix)', `load("${data}")`)], { cwd: dir, encoding: 'utf8' });
    assert.equal(r.status, 0, `${DOC}:${rscript.line}: ${r.stderr}`);
    const out = join(dir, 'lm.json');
    const command = importLine.text.replace('node bin/kstbench.js', `node "${join(ROOT, 'bin', 'kstbench.js')}"`).replace('data/raw/domains/linear-modelling.json', out);
    const imported = spawnSync('sh', ['-c', command], { cwd: dir, encoding: 'utf8' });
    assert.equal(imported.status, 0, `${DOC}:${importLine.line}: ${imported.stderr}`);
    const file = JSON.parse(readFileSync(out, 'utf8')) as DomainFile;
    const shipped = buildDomain(JSON.parse(readFileSync(join(ROOT, 'data', 'raw', 'domains', 'linear-modelling.json'), 'utf8')) as DomainFile, 'shipped');
    const domain = buildDomain(file, out);
    assert.deepEqual(domain.ids, shipped.ids);
    assert.deepEqual(domain.basis, shipped.basis);
    assert.equal(file.components.length, 7);
    for (const c of file.components) assert.doesNotMatch(c.description, /^(I\d|Item )/, `${c.id} has kstMatrix's text, not an ID or the placeholder: ${c.description}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
