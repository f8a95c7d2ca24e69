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

Exit code 1 with the reason when the set is not a knowledge state or names an unknown ID.

Options:
  --domain FILE   a domain file
  --state IDS     comma-separated component IDs of the mastered set
  -h, --help      show this help
`;

export const command = flagCommand(help, flags, async (parsed) => {
  const file = required(parsed.values, 'domain');
  if (parsed.values.state === undefined) throw new UsageError('missing required option --state');
  const domain = loadDomain(file);
  const state = parsed.values.state
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const check = checkState(domain, state);
  if (!check.ok) throw new InputError(`${file}: --state ${visible(JSON.stringify(parsed.values.state))}: ${check.reason}`, { file });
  process.stdout.write(`${JSON.stringify(outerFringe(domain, state))}\n`);
  return 0;
});
