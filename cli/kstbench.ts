import { reportError, type Command } from './common';

/**
 * The `kstbench` command: a thin dispatcher over lib/. Each subcommand is a module in cli/commands/
 * loaded on demand, so `kstbench fringe` never loads the collector's SDKs or danfojs.
 */
const commands: Record<string, () => Command> = {
  space: () => require('./commands/space').command,
  fringe: () => require('./commands/fringe').command,
  sample: () => require('./commands/sample').command,
  import: () => require('./commands/import').command,
  export: () => require('./commands/export').command,
  analyze: () => require('./commands/analyze').command,
  collect: () => require('./commands/collect').command,
  psi: () => require('./commands/psi').command,
};

/** Registers a subcommand (used by later modules; keeps the table in one place). */
export function commandNames(): string[] {
  return Object.keys(commands);
}

function usage(): string {
  const lines = Object.keys(commands).map((name) => {
    let summary = '';
    try {
      summary = commands[name]!().summary;
    } catch {
      summary = '(unavailable in this build)';
    }
    return `  ${name.padEnd(12)} ${summary}`;
  });
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
  const load = commands[name];
  if (!load) {
    process.stderr.write(`kstbench: unknown command '${name}'\n\n${usage()}`);
    return 2;
  }
  try {
    return await load().run(rest);
  } catch (err) {
    return reportError(name, err);
  }
}
