/**
 * The one flag parser (cli/flags.ts), as a property over every command's declared flags: a seeded
 * random value outside a flag's declared range, given to the command, ends in exit 2 with a message
 * naming the flag and its range; the same flag with its declared example is not refused (the
 * control that shows the property can fail). Run in-process through the dispatcher's runCommand (the
 * worker only adds the thread), plus two runs of the built CLI.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import seedrandom from 'seedrandom';
import { checkFlag, flag, MAX_SEED, MAX_TIMER_MS, seedFromText, type FlagSpec } from '../../cli/flags';
import { commands, runCommand } from '../../cli/kstbench';
import { SUBCOMMANDS } from '../../cli/commands/psi';
import { SUBCOMMANDS as STUDY_SUBCOMMANDS } from '../../cli/commands/study';
import { UsageError } from '../../cli/common';
import { kstbench } from '../support/cli';

/** Every command and psi subcommand with its declared flags and a runner taking the flag arguments. */
async function everyCommand(): Promise<Array<{ name: string; flags: Record<string, FlagSpec>; run: (argv: string[]) => Promise<number> }>> {
  const out: Array<{ name: string; flags: Record<string, FlagSpec>; run: (argv: string[]) => Promise<number> }> = [];
  for (const name of Object.keys(commands)) {
    if (name === 'psi' || name === 'study') {
      for (const [sub, entry] of Object.entries(name === 'psi' ? SUBCOMMANDS : STUDY_SUBCOMMANDS)) {
        const loaded = await entry.load();
        out.push({ name: `${name} ${sub}`, flags: loaded.flags as Record<string, FlagSpec>, run: (argv) => runCommand(name, [sub, ...argv]) });
      }
      continue;
    }
    const loaded = await commands[name]!.load();
    out.push({ name, flags: loaded.flags as Record<string, FlagSpec>, run: (argv) => runCommand(name, argv) });
  }
  return out;
}

/** A text outside the spec's range (null for kinds that take any text). */
function outOfRange(spec: FlagSpec, rng: () => number): string | null {
  const pick = <T>(xs: T[]): T => xs[Math.floor(rng() * xs.length)]!;
  const huge = `${1 + Math.floor(rng() * 9)}${'9'.repeat(15 + Math.floor(rng() * 10))}`;
  switch (spec.kind) {
    case 'int':
      return pick([String(spec.min - 1 - Math.floor(rng() * 1000)), String(spec.max + 1 + Math.floor(rng() * 1e6)), huge, '1e20', '2.5', 'abc', '']);
    case 'number':
      return pick([String(spec.min - 0.001 - rng() * 100), String(spec.max + 0.001 + rng() * 100), 'NaN', 'Infinity', 'x', '']);
    case 'duration': {
      const unit = spec.unit === 's' ? 1000 : 60_000;
      return pick(['0', '-1', String(Math.ceil(MAX_TIMER_MS / unit) + 1 + Math.floor(rng() * 1e6)), huge, '1e9', 'ten']);
    }
    case 'enum':
      return pick(['', 'nonsense', `${spec.values[0]}x`, spec.values[0]!.toUpperCase() === spec.values[0] ? 'zz' : spec.values[0]!.toUpperCase()]);
    case 'seed':
      return pick([String(BigInt(MAX_SEED) + 1n + BigInt(Math.floor(rng() * 1e9))), '99999999999999999999', '']);
    default:
      return null;
  }
}

/** A value the spec accepts. */
function inRange(spec: FlagSpec): string | null {
  if (spec.kind === 'int' || spec.kind === 'number' || spec.kind === 'duration') return String(spec.example);
  if (spec.kind === 'enum') return spec.values[0]!;
  if (spec.kind === 'seed') return '7';
  return null;
}

async function capture(run: () => Promise<number>): Promise<{ code: number; stderr: string }> {
  const write = process.stderr.write.bind(process.stderr);
  const out = process.stdout.write.bind(process.stdout);
  let stderr = '';
  process.stderr.write = ((chunk: string) => ((stderr += chunk), true)) as typeof process.stderr.write;
  process.stdout.write = (() => true) as typeof process.stdout.write;
  try {
    return { code: await run(), stderr };
  } finally {
    process.stderr.write = write;
    process.stdout.write = out;
  }
}

test('property: every declared range-checked flag of every command refuses random out-of-range values with exit 2 naming it', async () => {
  const rng = seedrandom('kstbench-flags-property');
  let checked = 0;
  for (const command of await everyCommand()) {
    for (const [name, spec] of Object.entries(command.flags)) {
      const control = inRange(spec);
      if (control === null) continue;
      for (let draw = 0; draw < 6; draw++) {
        const value = outOfRange(spec, rng)!;
        const r = await capture(() => command.run([`--${name}=${value}`]));
        assert.equal(r.code, 2, `${command.name} --${name}=${JSON.stringify(value)}: exit ${r.code}, stderr ${r.stderr}`);
        assert.match(r.stderr, new RegExp(`--${name} must be `), `${command.name} --${name}=${JSON.stringify(value)} does not name the flag: ${r.stderr}`);
        assert.match(r.stderr, /\(e\.g\. --/, `${command.name} --${name}: no example in ${r.stderr}`);
        checked++;
      }
      // Control: the example value passes the parser (whatever the command then says, it is not about this flag's range).
      const ok = await capture(() => command.run([`--${name}=${control}`]));
      assert.doesNotMatch(ok.stderr, new RegExp(`--${name} must be `), `${command.name} --${name}=${control} was refused: ${ok.stderr}`);
    }
  }
  assert.ok(checked >= 150, `only ${checked} out-of-range cases were drawn`);
});

test('checkFlag: integers compared exactly (no rounding into range), durations in ms below the timer limit', () => {
  const spec = flag.int(1, 10, 2);
  assert.deepEqual(checkFlag('n', spec, '10'), { value: 10 });
  assert.throws(() => checkFlag('n', spec, '10.0'), UsageError);
  assert.throws(() => checkFlag('n', flag.int(0, Number.MAX_SAFE_INTEGER, 1), '9007199254740993'), /--n must be an integer in 0\.\.9007199254740991/);
  assert.deepEqual(checkFlag('poll-interval', flag.duration('s', 30), '0.5'), { value: 500 });
  assert.deepEqual(checkFlag('timeout', flag.duration('s', 600, true), '2147483'), { value: 2_147_483_000 });
  assert.throws(() => checkFlag('timeout', flag.duration('s', 600, true), '2147484'), /2\^31-1 ms/);
  assert.throws(() => checkFlag('retry-horizon', flag.duration('min', 10), '35792'), /--retry-horizon must be/);
});

test('seeds: integers up to 2^53-1 are used as given; other text is hashed to one, and that value is what is used', () => {
  assert.deepEqual(checkFlag('seed', flag.seed(), '9007199254740991'), { value: '9007199254740991' });
  assert.throws(() => checkFlag('seed', flag.seed(), '99999999999999999999'), /--seed must be an integer in 0\.\.9007199254740991/);
  const hashed = checkFlag('seed', flag.seed(), 'my study');
  assert.equal(hashed.value, String(seedFromText('my study')));
  assert.ok(Number.isSafeInteger(Number(hashed.value)));
  assert.match(hashed.note!, /using its hash \d+ \(the value recorded\)/);
});

test('built CLI: out-of-range counts and durations exit 2 naming the flag (the cases of issue 21)', () => {
  const boot = kstbench(['analyze', '--domains', 'x', '--responses', 'y', '--out', 'z', '--boot', '4294967296']);
  assert.equal(boot.code, 2);
  assert.match(boot.stderr, /--boot must be an integer in 1\.\.1000000 \(e\.g\. --boot 2000\), got "4294967296"/);
  const poll = kstbench(['collect', '--domains', 'x', '--models', 'openai:m', '--out', 'z', '--batch', '--poll-interval', '9999999']);
  assert.equal(poll.code, 2);
  assert.match(poll.stderr, /--poll-interval must be .*2\^31-1 ms/);
});
