import { parseArgs, type ParseArgsConfig } from 'node:util';
import { InputError } from '../lib/errors';
import { isOsError, osErrorMessage } from '../lib/collect/os-error';

/** A mistake in how the command was called (unknown flag, missing required option). Exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** What every subcommand module exports. Modules are loaded lazily so that a command pulls in only what it uses. */
export interface Command {
  /** One line for `kstbench --help`. */
  summary: string;
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

/** Maps an error thrown by a command to its exit code and message on stderr. */
export function reportError(command: string, err: unknown): number {
  if (err instanceof UsageError) {
    process.stderr.write(`kstbench ${command}: ${err.message}\nRun 'kstbench ${command} --help' for usage.\n`);
    return 2;
  }
  if (err instanceof InputError) {
    process.stderr.write(`kstbench ${command}: ${err.message}\n`);
    return 1;
  }
  // A full disk, a read-only folder, --out under a file: one line naming the path, not a stack.
  if (isOsError(err)) {
    process.stderr.write(`kstbench ${command}: ${osErrorMessage(err)}\n`);
    return 1;
  }
  process.stderr.write(`kstbench ${command}: internal error: ${(err as Error)?.stack ?? String(err)}\n`);
  return 1;
}
