import { InputError, visible } from '../../lib/errors';
import { loadDomain } from '../../lib/kst/domain';
import { checkState, outerFringe } from '../../lib/kst/fringe';
import { flagCommand, required, UsageError } from '../common';
import { flag } from '../flags';

const flags = { domain: flag.path(), state: flag.string() } as const;

const help = `Usage: kstbench fringe --domain FILE --state ID,ID,...

Prints the outer fringe of a knowledge state (the components that can be learned next) as a JSON array
of canonical IDs. Computed from the prerequisites directly, so it works on very large domains.
Use --state "" for the empty state.

--state is a set: white space around an ID (spaces, tabs, non-breaking spaces) is ignored, as an ID
cannot hold it, and an ID given twice counts once. An empty entry (a comma at either end, or two in
a row) is refused: it is usually an ID that went missing (an unset shell variable).

Exit code 1 with the reason when the set is not a knowledge state, names an unknown ID or has an
empty entry.

Options:
  --domain FILE   a domain file
  --state IDS     comma-separated component IDs of the mastered set
  -h, --help      show this help
`;

export const command = flagCommand(help, flags, async (parsed) => {
  const file = required(parsed.values, 'domain');
  if (parsed.values.state === undefined) throw new UsageError('missing required option --state');
  const domain = loadDomain(file);
  const state = stateIds(parsed.values.state, file);
  const check = checkState(domain, state);
  if (!check.ok) throw new InputError(`${file}: --state ${visible(JSON.stringify(parsed.values.state))}: ${check.reason}`, { file });
  process.stdout.write(`${JSON.stringify(outerFringe(domain, state))}\n`);
  return 0;
});

/**
 * The IDs of --state, read as a set: each comma-separated entry trimmed of white space (String#trim:
 * spaces, tabs, no-break spaces; an ID cannot hold any), a repeated ID kept (the set is the same), a
 * blank value the empty state. An empty entry is refused: "A,,B" or "A," is most often an ID that went
 * missing (`--state "$MASTERED,$NEW"` with one unset), and the fringe of the smaller set is not the one asked for.
 * The refusal names the domain `file`, as the other --state refusals do.
 */
function stateIds(value: string, file: string): string[] {
  if (value.trim() === '') return [];
  const entries = value.split(',').map((s) => s.trim());
  const empty = entries.indexOf('');
  if (empty >= 0) {
    throw new InputError(
      `${file}: --state ${visible(JSON.stringify(value))}: entry ${empty + 1} of ${entries.length} is empty (a comma at an end, or two in a row); separate the IDs by single commas, or give --state "" for the empty state`,
      { file },
    );
  }
  return entries;
}
