import { parseArgs, type ParseArgsConfig } from 'node:util';
import { InputError } from '../lib/errors';
import { isOsError, osErrorMessage } from '../lib/io/os-error';

/** A mistake in how the command was called (unknown flag, missing required option). Exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** What every subcommand module exports. Modules are loaded lazily so that a command pulls in only what it uses. */
export interface Command {
  /** Full text for `kstbench <command> --help`. */
  help: string;
  /** Runs the command; resolves to the process exit code (0 ok, 1 bad input, 2 usage). */
  run(argv: string[]): Promise<number>;
}

/**
 * Parses `argv` with node:util's strict parser, turning its errors into UsageError and answering
 * `--help`. Returns null when help was printed (the caller then exits 0).
 */
export function parseOptions<T extends NonNullable<ParseArgsConfig['options']>>(
  argv: string[],
  options: T,
  help: string,
  allowPositionals = false,
): { values: { [K in keyof T]?: T[K]['type'] extends 'boolean' ? boolean : T[K]['multiple'] extends true ? string[] : string }; positionals: string[] } | null {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(help.endsWith('\n') ? help : `${help}\n`);
    return null;
  }
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals }) as never;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** Reads a required string option or throws a UsageError naming it. */
export function required(values: Record<string, unknown>, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`missing required option --${name}`);
  return v;
}

/** Parses a non-negative integer option, or throws a UsageError naming it. */
export function intOption(values: Record<string, unknown>, name: string, fallback: number, min = 0): number {
  const v = values[name];
  if (v === undefined) return fallback;
  if (typeof v !== 'string' || !/^\d+$/.test(v) || Number(v) < min) {
    throw new UsageError(`--${name} must be an integer >= ${min}, got ${JSON.stringify(v)}`);
  }
  return Number(v);
}

/**
 * The exit code for an error that ended a command or script, after printing it on one line prefixed
 * by `who`: bad input and OS errors (a full disk, an --out under a file) exit 1, usage mistakes 2
 * (followed by `usageHint`). Returns null for anything else: a bug, which the caller reports with its
 * stack. The scripts in scripts/ share it, so `npm run report` and `kstbench` read alike.
 */
export function expectedFailure(who: string, err: unknown, usageHint: string): number | null {
  const parseArgsError = err instanceof TypeError && (err as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS');
  if (err instanceof UsageError || parseArgsError) {
    process.stderr.write(`${who}: ${(err as Error).message}\n${usageHint}`);
    return 2;
  }
  if (err instanceof InputError) {
    process.stderr.write(`${who}: ${err.message}\n`);
    return 1;
  }
  if (isOsError(err)) {
    process.stderr.write(`${who}: ${osErrorMessage(err)}\n`);
    return 1;
  }
  return null;
}

/** Maps an error thrown by a command to its exit code and message on stderr. */
export function reportError(command: string, err: unknown): number {
  const code = expectedFailure(`kstbench ${command}`, err, `Run 'kstbench ${command} --help' for usage.\n`);
  if (code !== null) return code;
  process.stderr.write(`kstbench ${command}: internal error: ${(err as Error)?.stack ?? String(err)}\n`);
  return 1;
}
