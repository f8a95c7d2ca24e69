/**
 * What `kstbench export` writes with the user's item names, read by R as kstIO reads CSV files
 * (kstIO writes them with write.csv and reads surmise functions with read.csv, `read_surmisefunction`;
 * its matrix readers name items a, b, … so names travel in the items file): every name comes back
 * byte for byte. Seeded random names (spaces, quotes, commas, unicode, prefixes, other items' IDs).
 * Needs R and the peers' kstIO sources (../shared/peers or $KSTBENCH_PEERS).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import seedrandom from 'seedrandom';
import { buildDomain } from '../../lib/kst';
import { importStructure } from '../../lib/kst-io';
import { hasR, peersDir } from '../../scripts/bench/kmunionclosure';
import { tempDir } from '../support/cli';
import { exported, randomNames, twoRouteCsv } from './helpers';

const peers = peersDir();
const EXPORTS = [['basis.csv', 'basis', 'csv'], ['space.csv', 'space', 'csv'], ['relation.csv', 'relation', 'csv'], ['surmise.csv', 'surmise', 'surmise-csv'], ['items.csv', 'items', 'csv']] as const;

test('R reads the names kstbench export writes, byte for byte (read.csv as kstIO writes CSV, kstIO read_surmisefunction, the items file)', { skip: peers && hasR() ? false : "needs Rscript and the peers' kstIO sources ($KSTBENCH_PEERS, ../shared/peers beside the project or beside its origin)" }, () => {
  const rng = seedrandom('kst-io-names-in-R');
  const dir = tempDir('kstbench-kstio-names-');
  try {
    const rounds = Array.from({ length: 12 }, (_, round) => {
      const names = randomNames(rng);
      const d = buildDomain(importStructure(twoRouteCsv(names), 'names.csv', { id: 'names', kind: 'basis' }), 'names.json');
      for (const [file, what, format] of EXPORTS) writeFileSync(join(dir, `${round}-${file}`), exported(d, what, format));
      return names;
    });
    const script = `
source(file.path('${join(peers!, 'kstIO', 'R', 'read_surmisefunction.R')}'))
hex <- function(x) paste(vapply(x, function(s) paste(as.character(charToRaw(enc2utf8(s))), collapse = ''), ''), collapse = ' ')
for (r in 0:${rounds.length - 1}) {
  f <- function(name) file.path('${dir}', paste0(r, '-', name))
  for (name in c('basis.csv', 'space.csv', 'relation.csv')) cat(r, name, hex(colnames(read.csv(f(name), check.names = FALSE, encoding = 'UTF-8'))), '\\n')
  cat(r, 'items', hex(read.csv(f('items.csv'), encoding = 'UTF-8')$id), '\\n')
  cat(r, 'surmise', hex(unique(read_surmisefunction(f('surmise.csv'))$Item)), '\\n')
}`;
    const run = spawnSync('Rscript', ['-e', script], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const lines = run.stdout.trim().split('\n');
    assert.equal(lines.length, rounds.length * 5, run.stdout);
    for (const line of lines) {
      const [round, what, ...hexes] = line.trim().split(' ');
      const names = rounds[Number(round)]!;
      assert.deepEqual(hexes, names.map((x) => Buffer.from(x, 'utf8').toString('hex')), `round ${round}, ${what}: ${JSON.stringify(names)}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
