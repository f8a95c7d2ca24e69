import { reportError, type Command } from './common';

/**
 * The `kstbench` command: a thin dispatcher over lib/. A subcommand's module is imported only when it
 * runs (the one dynamic import in cli/, so the table below is the only place a command is named), and
 * the heavy packages load only where they are used (the model SDKs at a live provider's first use):
 * `kstbench --help` loads no command and `kstbench fringe` neither the collector, an SDK nor danfojs
 * (test/collect/startup.test.ts).
 */
const commands: Record<string, { summary: string; load: () => Promise<Command> }> = {
  space: {
    summary: 'stream every knowledge state with its outer fringe (JSON Lines or SRBT); --count, --check',
    load: async () => (await import('./commands/space')).command,
  },
  fringe: {
    summary: 'outer fringe (admissible next steps) of one state (JSON)',
    load: async () => (await import('./commands/fringe')).command,
  },
  sample: {
    summary: 'seeded sample of knowledge states, as the state-sample file collect --states reads',
    load: async () => (await import('./commands/sample')).command,
  },
  import: {
    summary: 'import a kstIO structure file (matrix, KST, SRBT, CSV, surmise CSV) as a domain file',
    load: async () => (await import('./commands/import')).command,
  },
  export: {
    summary: 'export a domain as a kstIO file (basis, space, relation, surmise function, items)',
    load: async () => (await import('./commands/export')).command,
  },
  analyze: {
    summary: 'score responses and write Tables 1, 3, 4, contrasts and order agreement (CSV)',
    load: async () => (await import('./commands/analyze')).command,
  },
  collect: {
    summary: 'collect model responses for every state × condition × model × order (resumable, audited)',
    load: async () => (await import('./commands/collect')).command,
  },
  psi: {
    summary: 'Pedagogical Suitability Index: score responses, collect rounds 1 and 2',
    load: async () => (await import('./commands/psi')).command,
  },
};

/** Registers a subcommand (used by later modules; keeps the table in one place). */
export function commandNames(): string[] {
  return Object.keys(commands);
}

function usage(): string {
  const lines = Object.entries(commands).map(([name, { summary }]) => `  ${name.padEnd(12)} ${summary}`);
  return [
    'Usage: kstbench <command> [options]',
    '',
    'Knowledge Space Theory benchmark for LLM next-step recommendations.',
    '',
    'Commands:',
    ...lines,
    '',
    "Run 'kstbench <command> --help' for a command's options.",
    'Exit codes: 0 ok, 1 bad input or OS error, 2 usage error, 3 quota stop (collect: resume later),',
    '  4 run failed (collect: fix the printed cause, then re-run), 5 incomplete (collect: some cells',
    '  missing, re-run with --retry-missing), 130 interrupted (collect: re-run to resume).',
    '',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage());
    return name === undefined ? 2 : 0;
  }
  const entry = commands[name];
  if (!entry) {
    process.stderr.write(`kstbench: unknown command '${name}'\n\n${usage()}`);
    return 2;
  }
  try {
    return await (await entry.load()).run(rest);
  } catch (err) {
    return reportError(name, err);
  }
}
