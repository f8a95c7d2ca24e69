// cli/common.ts flagCommand: the one opening of every command module.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { flagCommand } from '../../cli/common';
import { flag } from '../../cli/flags';

const flags = { domain: flag.path() } as const;

/** Runs `command.run(argv)` with stdout captured: its exit code, what it printed, and what `run` was given. */
async function runCaptured(argv: string[], positionals = false) {
  const given: unknown[] = [];
  const command = flagCommand('usage: demo', flags, async (parsed, args) => {
    given.push({ values: { ...parsed.values }, positionals: parsed.positionals, args });
    return 7;
  }, { positionals });
  const write = process.stdout.write;
  let printed = '';
  process.stdout.write = ((chunk: string) => {
    printed += chunk;
    return true;
  }) as typeof process.stdout.write;
  try {
    return { code: await command.run(argv), printed, given, command };
  } finally {
    process.stdout.write = write;
  }
}

test('flagCommand: run gets the parsed flags and the raw arguments, and its code is the command\'s', async () => {
  const r = await runCaptured(['--domain', 'd.json']);
  assert.equal(r.code, 7);
  assert.deepEqual(r.given, [{ values: { domain: 'd.json' }, positionals: [], args: ['--domain', 'd.json'] }]);
  assert.equal(r.command.help, 'usage: demo');
  assert.equal(r.command.flags, flags);
});

test('flagCommand: --help prints the help and exits 0 without calling run', async () => {
  const r = await runCaptured(['--help']);
  assert.equal(r.code, 0);
  assert.deepEqual(r.given, []);
  assert.match(r.printed, /usage: demo/);
});

test('flagCommand: positionals only when the command takes them', async () => {
  assert.deepEqual((await runCaptured(['x.txt'], true)).given, [{ values: {}, positionals: ['x.txt'], args: ['x.txt'] }]);
  await assert.rejects(runCaptured(['x.txt']), /x\.txt/);
});
