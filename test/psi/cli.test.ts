import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURE_DIR, T1 } from './helpers';
import { RUN_TYPESCRIPT } from '../support/typescript';

const ROOT = join(__dirname, '..', '..');

/** Runs `kstbench <args>` from the TypeScript sources (test/support/typescript.ts), so no build is needed. */
function kstbench(args: string[]) {
  const r = spawnSync(
    process.execPath,
    [...RUN_TYPESCRIPT, '-e', "require('./cli/kstbench.ts').main(process.argv.slice(1)).then((c) => { process.exitCode = c; })", ...args],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const dir = mkdtempSync(join(tmpdir(), 'psi-cli-'));
const textFile = join(dir, 't1.md');
writeFileSync(textFile, T1);

test('psi score prints the PSI, six sub-scores and evidence as JSON', () => {
  const r = kstbench(['psi', 'score', '--scenario', 'S01', '--text', textFile, '--course', FIXTURE_DIR, '--variant', 'defective']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.scenario, 'S01');
  assert.equal(out.variant, 'defective');
  assert.ok(Math.abs(out.psi - 0.6354332) < 1e-6); // hand-worked in score.test.ts
  assert.deepEqual(Object.keys(out.subscores), ['kd', 'tv', 'sd', 'ef', 'cl', 'ra']);
  assert.deepEqual(out.evidence.tv.violations, [['lists', 'for_loop']]);
  // --delta 0.5 → KD = 1 − |2/3 − 0.5| = 0.833333
  const d = JSON.parse(kstbench(['psi', 'score', '--scenario', 'S01', '--text', textFile, '--course', FIXTURE_DIR, '--delta', '0.5']).stdout);
  assert.ok(Math.abs(d.subscores.kd - 0.833333) < 1e-6);
});

test('psi score: bad input exits 1 naming the problem; usage errors exit 2; --help exits 0', () => {
  const unknown = kstbench(['psi', 'score', '--scenario', 'S99', '--text', textFile, '--course', FIXTURE_DIR]);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /^kstbench psi score: /, 'the error names the subcommand, not only its group');
  assert.match(unknown.stderr, /unknown scenario "S99"/);
  assert.match(unknown.stderr, /scenarios\.json: unknown scenario/); // names the file it looked in
  const unreadable = kstbench(['psi', 'score', '--scenario', 'S01', '--text', join(dir, 'nope.md'), '--course', FIXTURE_DIR]);
  assert.equal(unreadable.code, 1);
  assert.match(unreadable.stderr, /nope\.md: cannot read response file/);
  const noCourse = kstbench(['psi', 'score', '--scenario', 'S01', '--text', textFile, '--course', join(dir, 'none')]);
  assert.equal(noCourse.code, 1);
  assert.match(noCourse.stderr, /scenarios\.json: cannot read/);
  // A response whose third line holds a lead byte cut off by the next character (0xc3, then "(")
  // is refused, not scored with U+FFFD in its place.
  const invalidFile = join(dir, 'invalid.md');
  const invalid = Buffer.from(`${T1.split('\n').slice(0, 2).join('\n')}\nA caf\u00e9 (\n`);
  const at = invalid.lastIndexOf('(') - 1;
  invalid[at] = 0xc3; // the space before "(", after the well-formed é (0xc3 0xa9)
  writeFileSync(invalidFile, invalid);
  const undecodable = kstbench(['psi', 'score', '--scenario', 'S01', '--text', invalidFile, '--course', FIXTURE_DIR]);
  assert.equal(undecodable.code, 1, undecodable.stdout);
  assert.match(undecodable.stderr, new RegExp(`invalid\\.md:3: invalid UTF-8 at byte offset ${at} \\(0xc3 0x28 0x0a\\)`));
  assert.equal(undecodable.stdout, '');
  const blankFile = join(dir, 'blank.md');
  writeFileSync(blankFile, ' \n\n\t\n');
  const blank = kstbench(['psi', 'score', '--scenario', 'S01', '--text', blankFile, '--course', FIXTURE_DIR]);
  assert.equal(blank.code, 1, blank.stdout);
  assert.match(blank.stderr, /blank\.md: the response file is empty/);
  assert.equal(blank.stdout, '');
  const usage = kstbench(['psi', 'score', '--text', textFile]);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /^kstbench psi score: .*\nRun 'kstbench psi score --help' for usage\.\n$/);
  assert.equal(kstbench(['psi', 'score', '--scenario', 'S01', '--text', textFile, '--delta', 'high']).code, 2);
  assert.equal(kstbench(['psi', 'frobnicate']).code, 2);
  const help = kstbench(['psi', 'score', '--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /--scenario ID/);
  assert.match(kstbench(['psi', '--help']).stdout, /score/);
});

/** The exit codes an "Exit codes:" paragraph of a --help text names ("0 complete, 1 bad input, …"). */
function documentedExitCodes(helpText: string): number[] {
  const paragraph = helpText.slice(helpText.indexOf('Exit codes:')).split('\n\n')[0]!;
  return [...paragraph.matchAll(/(?:^|[:,] *|\n)(\d+) [a-z]/g)].map((m) => Number(m[1])).sort((a, b) => a - b);
}

test('psi collect: --help documents every exit code of the collector it shares with kstbench collect; round 2 with nothing to regenerate exits 2', () => {
  const psiHelp = kstbench(['psi', 'collect', '--help']);
  const collectHelp = kstbench(['collect', '--help']);
  assert.equal(psiHelp.code, 0);
  // Both commands end through cli/commands/collect.ts reportRun, so an incomplete run (5) is possible in both.
  assert.deepEqual(documentedExitCodes(collectHelp.stdout), [0, 1, 2, 3, 4, 5, 130]);
  assert.deepEqual(documentedExitCodes(psiHelp.stdout), documentedExitCodes(collectHelp.stdout));
  const empty = join(dir, 'empty-round1.jsonl');
  writeFileSync(empty, '');
  const out = join(dir, 'r2-out');
  const r = kstbench(['psi', 'collect', '--round', '2', '--round1', empty, '--models', 'simulated:sim-tutor-a', '--out', out]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /empty-round1\.jsonl: no valid defective round-1 record of simulated:sim-tutor-a/);
  assert.equal(r.stdout, '');
});
