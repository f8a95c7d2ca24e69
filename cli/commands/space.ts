import { enumerateStates, loadDomain, outerFringe } from '../../lib/kst';
import { parseOptions, required, type Command } from '../common';

const help = `Usage: kstbench space --domain FILE

Prints the knowledge space of a domain as JSON: every knowledge state (canonical component IDs, states
sorted by size) with its outer fringe, the admissible next steps.

Options:
  --domain FILE   a domain file (see README, "Domain files")
  -h, --help      show this help
`;

export const command: Command = {
  summary: 'list every knowledge state of a domain with its outer fringe (JSON)',
  help,
  async run(argv) {
    const parsed = parseOptions(argv, { domain: { type: 'string' } }, help);
    if (!parsed) return 0;
    const domain = loadDomain(required(parsed.values, 'domain'));
    const states = enumerateStates(domain).map((state) => ({ state, outer_fringe: outerFringe(domain, state) }));
    process.stdout.write(`${JSON.stringify({ domain: domain.id, components: domain.ids, count: states.length, states }, null, 2)}\n`);
    return 0;
  },
};
