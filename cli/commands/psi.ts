import { readFileSync } from 'node:fs';
import { InputError } from '../../lib/errors';
import { getScenario, loadPsiCourse, scoreResponse } from '../../lib/psi';
import { parseOptions, required, UsageError, type Command } from '../common';

/**
 * `kstbench psi <subcommand>`: PSI tools, dispatched by the first positional argument. Like the
 * top-level dispatcher, SUBCOMMANDS names each one with its summary and imports `collect` only when it
 * runs, so `psi score` does not load the collector.
 */
interface Subcommand {
  help: string;
  run(argv: string[]): Promise<number>;
}

const SCORE_HELP = `Usage: kstbench psi score --scenario ID --text FILE [options]

Scores one tutoring response with the Pedagogical Suitability Index and prints JSON
{ scenario, variant, psi, subscores: { kd, tv, sd, ef, cl, ra }, evidence } on stdout.

Options:
  --scenario ID      scenario id from scenarios.json (e.g. S01)           (required)
  --text FILE        file holding the response text (Markdown)           (required)
  --course DIR       directory with scenarios.json and taxonomy.json      (default data/raw/psi)
  --variant V        standard | defective: which question the response answers (default standard;
                     reported only, the scoring does not depend on it)
  --delta X          δ_opt of the knowledge-distance sub-score, in [0, 1] (default 0.65)
  -h, --help         show this help

Exit codes: 0 ok, 1 bad input (unknown scenario, unreadable file, invalid course data), 2 usage error.
`;

const score: Subcommand = {
  help: SCORE_HELP,
  async run(argv) {
    const parsed = parseOptions(
      argv,
      {
        scenario: { type: 'string' },
        text: { type: 'string' },
        course: { type: 'string' },
        variant: { type: 'string' },
        delta: { type: 'string' },
      },
      SCORE_HELP,
    );
    if (!parsed) return 0;
    const { values } = parsed;
    const scenarioId = required(values, 'scenario');
    const textFile = required(values, 'text');
    const variant = values.variant ?? 'standard';
    if (variant !== 'standard' && variant !== 'defective') {
      throw new UsageError(`--variant must be standard or defective, got ${JSON.stringify(variant)}`);
    }
    let deltaOpt = 0.65;
    if (values.delta !== undefined) {
      deltaOpt = Number(values.delta);
      if (values.delta.trim() === '' || !Number.isFinite(deltaOpt) || deltaOpt < 0 || deltaOpt > 1) {
        throw new UsageError(`--delta must be a number in [0, 1], got ${JSON.stringify(values.delta)}`);
      }
    }
    const course = loadPsiCourse(values.course ?? 'data/raw/psi');
    const scenario = getScenario(course, scenarioId);
    let text: string;
    try {
      text = readFileSync(textFile, 'utf8');
    } catch (err) {
      throw new InputError(`${textFile}: cannot read response file (${(err as NodeJS.ErrnoException).code ?? String(err)})`, {
        file: textFile,
      });
    }
    const result = scoreResponse(text, scenario, course, { deltaOpt });
    const out = { scenario: scenario.id, variant, psi: result.psi, subscores: result.subscores, evidence: result.evidence };
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return 0;
  },
};

const SUBCOMMANDS: Record<string, { summary: string; load: () => Promise<Subcommand> }> = {
  score: { summary: 'score one response file against a scenario', load: async () => score },
  collect: {
    summary: 'collect tutoring responses (round 1) or PSI-guided regenerations (round 2)',
    load: async () => (await import('./psi-collect')).subcommand,
  },
};

function help(): string {
  const lines = Object.entries(SUBCOMMANDS).map(([name, { summary }]) => `  ${name.padEnd(10)} ${summary}`);
  return [
    'Usage: kstbench psi <subcommand> [options]',
    '',
    'Pedagogical Suitability Index tools.',
    '',
    'Subcommands:',
    ...lines,
    '',
    "Run 'kstbench psi <subcommand> --help' for its options.",
    '',
  ].join('\n');
}

export const command: Command = {
  get help() {
    return help();
  },
  async run(argv) {
    const [name, ...rest] = argv;
    if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
      process.stdout.write(help());
      return name === undefined ? 2 : 0;
    }
    const entry = SUBCOMMANDS[name];
    if (!entry) throw new UsageError(`unknown psi subcommand '${name}' (known: ${Object.keys(SUBCOMMANDS).join(', ')})`);
    return (await entry.load()).run(rest);
  },
};
