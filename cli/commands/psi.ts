import { InputError } from '../../lib/errors';
import { readInputText } from '../../lib/io/read';
import { getScenario, loadPsiCourse, scoreResponse } from '../../lib/psi';
import { parseOptions, required, subcommandGroup, UsageError, type Command, type Subcommand, type SubcommandTable } from '../common';
import { flag, type FlagSpecs } from '../flags';

/**
 * `kstbench psi <subcommand>`: PSI tools, dispatched by the first positional argument. Like the
 * top-level dispatcher, SUBCOMMANDS names each one with its summary and imports `collect` only when it
 * runs, so `psi score` does not load the collector.
 */

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

Exit codes: 0 ok, 1 bad input (unknown scenario, unreadable or empty response file, invalid course
data), 2 usage error.
`;

const SCORE_FLAGS = {
  scenario: flag.string(),
  text: flag.path(),
  course: flag.path(),
  variant: flag.enum(['standard', 'defective'] as const),
  delta: flag.number(0, 1, 0.65),
} as const;

const score: Subcommand = {
  help: SCORE_HELP,
  flags: SCORE_FLAGS,
  async run(argv) {
    const parsed = parseOptions(argv, SCORE_FLAGS, SCORE_HELP);
    if (!parsed) return 0;
    const { values } = parsed;
    const scenarioId = required(values, 'scenario');
    const textFile = required(values, 'text');
    const variant = values.variant ?? 'standard';
    const deltaOpt = values.delta ?? 0.65;
    const course = loadPsiCourse(values.course ?? 'data/raw/psi');
    const scenario = getScenario(course, scenarioId);
    const text = readInputText(textFile, 'response file');
    // An empty answer is no answer (the collector records it as missing, the record loader refuses it
    // as valid); scored, it would print PSI ≈ 0.5 with exit 0.
    if (text.trim() === '') throw new InputError(`${textFile}: the response file is empty (only white space): there is no answer to score`, { file: textFile });
    const result = scoreResponse(text, scenario, course, { deltaOpt });
    const out = { scenario: scenario.id, variant, psi: result.psi, subscores: result.subscores, evidence: result.evidence };
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return 0;
  },
};

export const SUBCOMMANDS: SubcommandTable = {
  score: { summary: 'score one response file against a scenario', load: async () => score },
  collect: {
    summary: 'collect tutoring responses (round 1) or PSI-guided regenerations (round 2)',
    load: async () => (await import('./psi-collect')).subcommand,
  },
};

export const command: Command = subcommandGroup('psi', SUBCOMMANDS, {
  head: ['Usage: kstbench psi <subcommand> [options]', '', 'Pedagogical Suitability Index tools.', ''],
  tail: ["Run 'kstbench psi <subcommand> --help' for its options.", ''],
  pad: 10,
});
