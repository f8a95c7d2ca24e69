import { command as analyze } from './commands/analyze';
import { command as collect } from './commands/collect';
import { command as exportCommand } from './commands/export';
import { command as fringe } from './commands/fringe';
import { command as importCommand } from './commands/import';
import { command as psi } from './commands/psi';
import { command as sample } from './commands/sample';
import { command as space } from './commands/space';
import { reportError, type Command } from './common';

/**
 * The `kstbench` command: a thin dispatcher over lib/. Every subcommand module is imported here; the
 * heavy packages load only where they are used (the model SDKs at a live provider's first use), so
 * `kstbench --help` or `kstbench fringe` loads neither SDK nor danfojs (test/collect/startup.test.ts).
 */
const commands: Record<string, Command> = {
  space,
  fringe,
  sample,
  import: importCommand,
  export: exportCommand,
  analyze,
  collect,
  psi,
};

/** Registers a subcommand (used by later modules; keeps the table in one place). */
export function commandNames(): string[] {
  return Object.keys(commands);
}

function usage(): string {
  const lines = Object.entries(commands).map(([name, command]) => `  ${name.padEnd(12)} ${command.summary}`);
  return [
    'Usage: kstbench <command> [options]',
    '',
    'Knowledge Space Theory benchmark for LLM next-step recommendations.',
    '',
    'Commands:',
    ...lines,
    '',
    "Run 'kstbench <command> --help' for a command's options.",
    'Exit codes: 0 ok, 1 bad input, 2 usage error.',
    '',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage());
    return name === undefined ? 2 : 0;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`kstbench: unknown command '${name}'\n\n${usage()}`);
    return 2;
  }
  try {
    return await command.run(rest);
  } catch (err) {
    return reportError(name, err);
  }
}
