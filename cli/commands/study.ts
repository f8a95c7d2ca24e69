import { subcommandGroup, type Command, type SubcommandTable } from '../common';

export type { Subcommand } from '../common';

/**
 * `kstbench study <subcommand> DIR`: a study as a folder (docs/study.md). Like the top-level
 * dispatcher, SUBCOMMANDS names each subcommand with its summary and imports its module only when it
 * runs: `study check` loads no browser, `study plan` no collector.
 */

const steps = async () => await import('./study-steps');

export const SUBCOMMANDS: SubcommandTable = {
  init: { summary: 'write a working, commented DIR/study.json from flags', load: async () => (await steps()).init },
  check: { summary: 'validate domains, models, keys; count the cells; estimate the cost (sends and writes nothing)', load: async () => (await steps()).check },
  run: { summary: 'collect (or import), analyse, draw the figures and build DIR/report/index.html', load: async () => (await steps()).run },
  collect: { summary: 'collect the design (resumable), or import the responses the manifest names', load: async () => (await steps()).collect },
  analyze: { summary: 'score the responses: Tables 1, 3, 4, contrasts, order agreement, P1 graphs', load: async () => (await steps()).analyze },
  figures: { summary: 'draw Figures 1–3 equivalents and the P1 verdicts (pinned Chromium)', load: async () => (await steps()).figures },
  report: { summary: 'build the static report DIR/report/index.html', load: async () => (await steps()).report },
  plan: { summary: 'power of the design by simulation: states and repeats for 80 % power, cost per design', load: async () => (await import('./study-plan')).plan },
};

export const command: Command = subcommandGroup('study', SUBCOMMANDS, {
  head: ['Usage: kstbench study <subcommand> DIR [options]', '', 'A study is a folder with a manifest, DIR/study.json (docs/study.md).', ''],
  tail: [
    "Run 'kstbench study <subcommand> --help' for its options.",
    'Exit codes: 0 ok, 1 bad input (named with its file and field; nothing written), 2 usage error,',
    '3 quota stop, 4 collection failed, 130 interrupted (collect/run: re-run the same command to resume).',
    '',
  ],
  pad: 9,
});
