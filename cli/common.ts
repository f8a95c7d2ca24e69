import { parseFlags, UsageError, type FlagSpecs, type ParsedFlags } from './flags';
import { InputError } from '../lib/errors';
import { isOsError, osErrorMessage } from '../lib/io/os-error';

export { UsageError } from './flags';

/** What every subcommand module exports. Modules are loaded lazily so that a command pulls in only what it uses. */
export interface Command {
  /** Full text for `kstbench <command> --help`. */
  help: string;
  /** The command's declared flags (cli/flags.ts), which the property test of the parser walks. */
  flags: FlagSpecs;
  /** Runs the command; resolves to the process exit code (0 ok, 1 bad input, 2 usage). */
  run(argv: string[]): Promise<number>;
}

/** A subcommand of a command group (`kstbench psi …`, `kstbench study …`). */
export interface Subcommand {
  help: string;
  /** Its declared flags (cli/flags.ts), walked by the flag parser's property test. */
  flags: FlagSpecs;
  run(argv: string[]): Promise<number>;
}

/** A group's subcommands by name, each with its summary; a module is imported only when its subcommand runs. */
export type SubcommandTable = Record<string, { summary: string; load: () => Promise<Subcommand> }>;

/**
 * A command that dispatches on its first argument to one of `table`'s subcommands. Its help is
 * `head`, the list of subcommands (names padded to `pad`), then `tail`; with no argument it prints the
 * help and exits 2, with `--help` exits 0.
 */
export function subcommandGroup(group: string, table: SubcommandTable, text: { head: string[]; tail: string[]; pad: number }): Command {
  const help = (): string =>
    [...text.head, 'Subcommands:', ...Object.entries(table).map(([name, { summary }]) => `  ${name.padEnd(text.pad)} ${summary}`), '', ...text.tail].join('\n');
  return {
    get help() {
      return help();
    },
    // The subcommands declare their own flags (the table); the first argument picks one.
    flags: {},
    async run(argv) {
      const [name, ...rest] = argv;
      if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
        process.stdout.write(help());
        return name === undefined ? 2 : 0;
      }
      const entry = table[name];
      if (!entry) throw new UsageError(`unknown ${group} subcommand '${name}' (known: ${Object.keys(table).join(', ')})`);
      // Its errors and notes name the subcommand (`kstbench psi score: …`, and its --help), not the group.
      const command = `${group} ${name}`;
      const outer = running.command;
      running.command = command;
      try {
        return await (await entry.load()).run(rest);
      } catch (err) {
        return reportError(command, err);
      } finally {
        running.command = outer;
      }
    },
  };
}

/**
 * Parses `argv` against the declared flags (cli/flags.ts: every value range-checked, UsageError naming
 * the flag) and answers `--help`. Returns null when help was printed (the caller then exits 0). Notes
 * (a seed text hashed to an integer) go to stderr.
 */
/** The running command's name, for notes printed while its flags are parsed (set by cli/kstbench.ts's runCommand). */
export const running = { command: '' };

export function parseOptions<T extends FlagSpecs>(argv: string[], specs: T, help: string, allowPositionals = false): ParsedFlags<T> | null {
  const parsed = parseFlags(argv, specs, help, allowPositionals);
  for (const note of parsed?.notes ?? []) process.stderr.write(`kstbench${running.command ? ` ${running.command}` : ''}: ${note}\n`);
  return parsed;
}

/**
 * A command of declared flags: `run` gets them parsed (cli/flags.ts; notes on deprecated spellings go
 * to stderr), and `--help` prints the help and exits 0 before `run` is called. The one opening of
 * every command module.
 */
export function flagCommand<T extends FlagSpecs>(
  help: string,
  flags: T,
  run: (parsed: ParsedFlags<T>, argv: string[]) => Promise<number>,
  options: { positionals?: boolean } = {},
): Command {
  return {
    help,
    flags,
    async run(argv) {
      const parsed = parseOptions(argv, flags, help, options.positionals ?? false);
      return parsed ? run(parsed, argv) : 0;
    },
  };
}

/** Reads a required string option or throws a UsageError naming it. */
export function required(values: Record<string, unknown>, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`missing required option --${name}`);
  return v;
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
